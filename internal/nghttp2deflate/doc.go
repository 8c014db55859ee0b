// Package nghttp2deflate wraps the HPACK deflater of the nghttp2 C library
// (nghttp2_hd_deflater) for the certifier, which grades it as one more
// encoder. (The benchmarks in bench/ run their own C loop, one cgo call per
// pass over a workload, so that cgo is not charged to nghttp2.)
//
// The package is empty unless built with -tags nghttp2, which needs cgo and
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
//
// # Memory
//
// C memory goes through a counting nghttp2_mem allocator; no Go pointer is
// kept by C (fields are read by C only during the call that encodes them,
// and nghttp2 copies what it stores in its table). Close frees a Deflater;
// one dropped without Close is freed by a cleanup
// (runtime.AddCleanup).
package nghttp2deflate
