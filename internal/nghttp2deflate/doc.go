// Package nghttp2deflate wraps the HPACK deflater of the nghttp2 C library
// (nghttp2_hd_deflater) for the certifier, which grades it as one more
// encoder, and for the benchmarks, which race it against ours.
//
// The package is empty unless built with -tags nghttp2, which needs cgo and
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
//
// # Benchmarking without charging cgo to nghttp2
//
// A cgo call costs tens of nanoseconds, about what encoding a small block
// costs, so a benchmark that calls EncodeBlock per block measures cgo as
// much as nghttp2. For benchmarks, flatten the inputs once into a Workload,
// which copies them into C memory and prepares nghttp2's nghttp2_nv arrays,
// and run it with EncodeWorkload: one cgo call encodes the whole workload
// any number of times, and only nghttp2's own work (with its deflater
// setup, when WorkloadConfig.Reuse is false) is inside the loop.
//
//	w, err := nghttp2deflate.NewWorkload(stories, nghttp2deflate.WorkloadConfig{})
//	if err != nil {
//		b.Fatal(err)
//	}
//	defer w.Close()
//	b.SetBytes(int64(w.RawBytes()))
//	b.ReportAllocs()
//	b.ResetTimer()
//	if _, err := nghttp2deflate.EncodeWorkload(w, b.N); err != nil {
//		b.Fatal(err)
//	}
//	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*w.Blocks()), "ns/block")
//
// The issue 7 workloads map onto it as follows: (a), the same 4-field block
// on one warm encoder, is one story of one block with Reuse set; (b), the
// raw-data stories with a fresh encoder per story, is one story per file
// with Reuse unset; (c), the edge-proxy churn, is one long story with Reuse
// set; (e), connection setup, is one story of one small block with Reuse
// unset, so that every pass creates, uses and deletes a deflater.
//
// # Memory
//
// C memory goes through a counting nghttp2_mem allocator; no Go pointer is
// kept by C (fields are read by C only during the call that encodes them,
// and nghttp2 copies what it stores in its table). Close frees a Deflater
// or a Workload; one dropped without Close is freed by a cleanup
// (runtime.AddCleanup).
package nghttp2deflate
