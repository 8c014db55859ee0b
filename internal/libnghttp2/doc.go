// Package libnghttp2 is the module's one cgo binding of the nghttp2 C
// library's HPACK code:
//
//   - Deflater (deflate.go, deflate.c) wraps nghttp2_hd_deflater, which the
//     certifier grades as one more encoder (source/inprocess);
//   - Inflater (inflate.go, inflate.c) wraps nghttp2_hd_inflater, the
//     libnghttp2 oracle (oracle/nghttp2 is a thin Decoder over it);
//   - Batch (batch.go, batch.c) and Conns (conns.go, conns.c) are the
//     loops bench measures the deflater with, run inside C so that no cgo
//     crossing is charged to nghttp2: a workload encoded block after block
//     or pass after pass in one call, and deflaters held per connection
//     with their heap counted;
//   - InflateBatch (inflatebatch.go, inflatebatch.c) is the same for the
//     inflater: recorded blocks decoded pass after pass in one call, or
//     decoded and deflated again (a proxy hop), and the heap of
//     inflaters held at once. usablemem.c is the allocator Conns and
//     InflateBatch count held bytes with.
//
// binding.go and ctx.c hold what the Deflater and the Inflater share: how
// they are freed, measured and their tables read, through the functions of
// each nghttp2 family (nghttp2_hd_deflate_* or nghttp2_hd_inflate_*).
// records.c is how fields cross between Go and C for all four, in one flat
// buffer, one cgo call per block whatever its number of fields.
//
// The package is empty unless built with -tags nghttp2, which needs cgo and
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
//
// # Memory
//
// The C memory of a Deflater or an Inflater goes through a counting
// nghttp2_mem allocator (countmem.c), so that tests can show it is freed
// and stays flat; HeapBytes reports what one holds. No Go pointer is kept
// by C: fields and blocks are read by C only during the call that takes
// them, and nghttp2 copies what it stores in its table. Close frees a
// Deflater or an Inflater; one dropped without Close is freed by a cleanup
// (runtime.AddCleanup). A Batch or a Conns counts its own allocations
// instead (calls and bytes asked, or bytes held as malloc_usable_size
// reports them), and is freed only by Close.
package libnghttp2
