// Package countmem holds countmem.h, the counting allocator that
// oracle/nghttp2 and internal/nghttp2deflate hand to libnghttp2 so that
// their tests can show C memory is freed and stays flat. It has no Go code:
// packages cannot share C sources, so the header is included through
// "#cgo CFLAGS: -I${SRCDIR}/../../internal/countmem".
package countmem
