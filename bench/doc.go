// Package bench measures the reference encoder against golang.org/x/net's
// HPACK encoder and libnghttp2's deflater on the same workloads, and counts
// the bytes each one puts on the wire; and the reference decoder against
// x/net's Decoder and libnghttp2's inflater on those workloads' wire.
//
// The workloads are those of BENCHMARKS.md: the 4-field batch, the 32
// raw-data stories of hpack-test-case, an edge proxy's churn, Huffman coding
// alone and connection setup. Every benchmark is named
// Benchmark<Workload>/.../impl=<ours|xnet|nghttp2> so that benchstat can put
// the implementations side by side (benchstat -col /impl); compare.sh runs
// them all and prints the ratios. MeasurePaired (command paired) measures
// the same ratios with the implementations run in alternating slices of
// milliseconds, each peer's time divided by ours within a round, which a
// shared machine's changes of speed disturb far less; ab.sh compares two
// revisions of ours the same way.
//
// The nghttp2 side needs cgo and libnghttp2 and is built only with the
// nghttp2 build tag. Its loops run inside C (internal/libnghttp2's Batch
// and Conns), one cgo call per benchmark run, so no cgo crossing is
// charged to nghttp2.
//
// Files: workload.go (Workload and the workloads: Batch, Setup, Churn,
// Stories, the Huffman inputs), runner.go (Runner, Impl, Impls, and XNet,
// the runner of x/net's Encoder), ours.go (Ours, the reference encoder's
// runner), compat.go (Compat, package hpack's Encoder against x/net's),
// nghttp2.go and nonghttp2.go (libnghttp2's runner and connections under
// the nghttp2 build tag, nothing without it), compression.go
// (MeasureCompression, the wire bytes per connection), memory.go
// (MeasureMemory, the heap one connection holds), paired.go
// (MeasurePaired and PairedWorkloads) and proxyhop.go (ProxyHopWorkloads,
// a block decoded by x/net and encoded again). The decoding side (issue
// 38): wire.go (the x/net recording the decoders replay, and the tally
// each implementation's pass returns), decode.go (ours', x/net's and,
// through nghttp2decode.go, libnghttp2's decoding and proxy-hop runs),
// huffdecode.go (Huffman decoding alone), decoderows.go
// (DecodeWorkloads, the decode-*, huffman-decode and hop-* rows) and
// decodememory.go (MeasureDecoderMemory). QPACK (issue 39): qpack.go
// (QPACKWorkloads, the qpack-encode row: the reference QPACK encoder over
// vectors/qif's traffic) and qpacknghttp3.go (libnghttp3's side, through
// internal/libnghttp3's EncodeBatch, under the nghttp3 build tag). The
// commands compression,
// memory and paired under cmd/ print BENCHMARKS.md's tables from them;
// cmd/startup measures what importing package encoder costs a program.
package bench
