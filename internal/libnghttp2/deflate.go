//go:build nghttp2

package libnghttp2

// #include "deflate.h"
import "C"

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"
)

// DeflateError is a failure reported by libnghttp2's deflater.
type DeflateError struct {
	Op     string // the method of this package that failed
	Code   int    // the nghttp2_error value
	Reason string // nghttp2_strerror(Code)
}

func (e *DeflateError) Error() string {
	return fmt.Sprintf("nghttp2: %s: %s (nghttp2 error %d)", e.Op, e.Reason, e.Code)
}

func deflateError(op string, code int) *DeflateError {
	return &DeflateError{Op: op, Code: code, Reason: strerror(code)}
}

// MaxBlockLen returns an upper bound on the bytes EncodeBlock appends for
// fields: two dynamic table size updates of at most 6 bytes (RFC 7541
// §6.3), and for each field a literal with a new name (§6.2), its first
// byte and two string lengths of at most 6 bytes each, with both strings
// raw (nghttp2 uses Huffman only when shorter).
func MaxBlockLen(fields []Field) int {
	n := 2 * 6
	for _, f := range fields {
		n += 1 + 6 + 6 + len(f.Name) + len(f.Value)
	}
	return n
}

// Deflater is one libnghttp2 HPACK deflater, with nghttp2's own indexing
// policy: authorization, cookie values under 20 bytes and Sensitive fields
// are sent never indexed (RFC 7541 §6.2.3); :path, age, content-length,
// etag, if-modified-since, if-none-match, location, set-cookie and fields
// whose entry would take more than 3/4 of the table are sent without
// indexing (§6.2.2); everything else is indexed. proxy-authorization is
// indexed. A Deflater is not safe for concurrent use.
type Deflater struct {
	handle
	in []byte // the records of the block being encoded, reused
	// broken is the first failure of nghttp2_hd_deflate_hd, after which
	// nghttp2 refuses to encode.
	broken error
}

// NewDeflater returns a Deflater that never uses more than
// maxDeflateTableSize bytes of dynamic table, whatever the peer's setting
// (nghttp2_hd_deflate_new2). Its table starts at min(4096,
// maxDeflateTableSize); below 4096, its first block begins with a dynamic
// table size update. NewDeflater panics only when C memory is exhausted.
func NewDeflater(maxDeflateTableSize uint32) *Deflater {
	c := C.hcdef_new(C.size_t(maxDeflateTableSize))
	if c == nil {
		panic("nghttp2: out of memory creating a deflater")
	}
	d := &Deflater{}
	d.handle = newHandle(d, &c.ctx)
	return d
}

// c returns the deflater's C object, nil after Close.
func (d *Deflater) c() *C.hcdef { return (*C.hcdef)(unsafe.Pointer(d.ctx)) }

// ChangeTableSize applies the peer's SETTINGS_HEADER_TABLE_SIZE
// (nghttp2_hd_deflate_change_table_size): the table's maximum becomes
// min(n, maxDeflateTableSize), shrinking evicts at once, and the next block
// begins with the size updates RFC 7541 §4.2 requires.
func (d *Deflater) ChangeTableSize(n uint32) error {
	if d.ctx == nil {
		return ErrClosed
	}
	rv := C.nghttp2_hd_deflate_change_table_size(d.c().hd, C.size_t(n))
	runtime.KeepAlive(d)
	if rv != 0 {
		return deflateError("ChangeTableSize", int(rv))
	}
	return nil
}

// EncodeBlock appends the header block encoding fields to dst and returns
// the extended buffer (nghttp2_hd_deflate_hd). It allocates nothing when
// dst has MaxBlockLen(fields) bytes of spare capacity. After an error the
// Deflater refuses every block, as nghttp2 does.
func (d *Deflater) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	if d.ctx == nil {
		return dst, ErrClosed
	}
	if d.broken != nil {
		return dst, fmt.Errorf("nghttp2: deflater unusable after an earlier error: %w", d.broken)
	}
	in, err := appendRecords(d.in[:0], fields)
	d.in = in
	if err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, MaxBlockLen(fields))
	room := dst[len(dst):cap(dst)]
	// in and room are Go memory without pointers, used by C only during
	// the call, as the cgo pointer rules allow.
	n := C.hcdef_encode(d.c(), (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(in)), C.size_t(len(fields)),
		(*C.uint8_t)(unsafe.SliceData(room)), C.size_t(len(room)))
	runtime.KeepAlive(d)
	if n < 0 {
		d.broken = deflateError("EncodeBlock", int(n))
		return dst, d.broken
	}
	return dst[:len(dst)+int(n)], nil
}
