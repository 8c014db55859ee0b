//go:build nghttp2

package nghttp2deflate

// #cgo pkg-config: libnghttp2
// #cgo CFLAGS: -I${SRCDIR}/../countmem
// #include "deflate.h"
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"unsafe"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// ErrClosed is returned by a Deflater used after Close.
var ErrClosed = errors.New("nghttp2deflate: used after Close")

// Error is a failure reported by libnghttp2.
type Error struct {
	Op     string // the function of this package that failed
	Code   int    // the nghttp2_error value
	Reason string // nghttp2_strerror(Code)
}

func (e *Error) Error() string {
	return fmt.Sprintf("nghttp2deflate: %s: %s (nghttp2 error %d)", e.Op, e.Reason, e.Code)
}

func newError(op string, code int) *Error {
	return &Error{Op: op, Code: code, Reason: C.GoString(C.nghttp2_strerror(C.int(code)))}
}

// Field is one header field to encode: spec.Field, the module's one
// header-field type. Sensitive asks for a "Literal Header Field Never
// Indexed" representation (RFC 7541 §6.2.3, §7.1.3); it sets
// NGHTTP2_NV_FLAG_NO_INDEX.
type Field = spec.Field

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
	c       *C.hcdef
	cleanup runtime.Cleanup
	in      []byte // the records of the block being encoded, reused
	// broken is the first failure of nghttp2_hd_deflate_hd, after which
	// nghttp2 refuses to encode.
	broken error
}

// New returns a Deflater that never uses more than maxDeflateTableSize
// bytes of dynamic table, whatever the peer's setting
// (nghttp2_hd_deflate_new2). Its table starts at min(4096,
// maxDeflateTableSize); below 4096, its first block begins with a dynamic
// table size update. New panics only when C memory is exhausted.
func New(maxDeflateTableSize uint32) *Deflater {
	c := C.hcdef_new(C.size_t(maxDeflateTableSize))
	if c == nil {
		panic("nghttp2deflate: out of memory creating a deflater")
	}
	d := &Deflater{c: c}
	d.cleanup = runtime.AddCleanup(d, func(c *C.hcdef) { C.hcdef_del(c) }, c)
	return d
}

// ChangeTableSize applies the peer's SETTINGS_HEADER_TABLE_SIZE
// (nghttp2_hd_deflate_change_table_size): the table's maximum becomes
// min(n, maxDeflateTableSize), shrinking evicts at once, and the next block
// begins with the size updates RFC 7541 §4.2 requires.
func (d *Deflater) ChangeTableSize(n uint32) error {
	if d.c == nil {
		return ErrClosed
	}
	rv := C.nghttp2_hd_deflate_change_table_size(d.c.deflater, C.size_t(n))
	runtime.KeepAlive(d)
	if rv != 0 {
		return newError("ChangeTableSize", int(rv))
	}
	return nil
}

// EncodeBlock appends the header block encoding fields to dst and returns
// the extended buffer (nghttp2_hd_deflate_hd). It allocates nothing when
// dst has MaxBlockLen(fields) bytes of spare capacity. After an error the
// Deflater refuses every block, as nghttp2 does.
func (d *Deflater) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	if d.c == nil {
		return dst, ErrClosed
	}
	if d.broken != nil {
		return dst, fmt.Errorf("nghttp2deflate: deflater unusable after an earlier error: %w", d.broken)
	}
	in := d.in[:0]
	for i, f := range fields {
		if len(f.Name) > math.MaxUint32 || len(f.Value) > math.MaxUint32 {
			return dst, fmt.Errorf("nghttp2deflate: field %d: name of %d bytes or value of %d bytes is over 4 GiB", i, len(f.Name), len(f.Value))
		}
		in = appendRecord(in, f)
	}
	d.in = in
	dst = slices.Grow(dst, MaxBlockLen(fields))
	room := dst[len(dst):cap(dst)]
	// in and room are Go memory without pointers, used by C only during
	// the call, as the cgo pointer rules allow.
	n := C.hcdef_encode(d.c, (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(in)), C.size_t(len(fields)),
		(*C.uint8_t)(unsafe.SliceData(room)), C.size_t(len(room)))
	runtime.KeepAlive(d)
	if n < 0 {
		d.broken = newError("EncodeBlock", int(n))
		return dst, d.broken
	}
	return dst[:len(dst)+int(n)], nil
}

func appendRecord(dst []byte, f Field) []byte {
	var flags byte
	if f.Sensitive {
		flags = C.NGHTTP2_NV_FLAG_NO_INDEX
	}
	dst = appendLE32(dst, len(f.Name))
	dst = appendLE32(dst, len(f.Value))
	dst = append(dst, flags)
	dst = append(dst, f.Name...)
	return append(dst, f.Value...)
}

func appendLE32(dst []byte, v int) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// Table returns the dynamic table, newest entry first, read with
// nghttp2_hd_deflate_get_table_entry. Sensitive is false in every entry. It
// returns nil after Close.
func (d *Deflater) Table() []Field {
	if d.c == nil {
		return nil
	}
	if rv := C.hcdef_table(d.c); rv != 0 {
		panic("nghttp2deflate: out of memory reading the dynamic table")
	}
	data := C.GoStringN((*C.char)(unsafe.Pointer(d.c.out.data)), C.int(d.c.out.len))
	n := int(C.nghttp2_hd_deflate_get_num_table_entries(d.c.deflater)) - 61
	runtime.KeepAlive(d)
	table := make([]Field, 0, n)
	for len(data) > 0 {
		nameLen, valueLen := le32(data), le32(data[4:])
		data = data[C.COUNTMEM_RECORD_HEADER:]
		table = append(table, Field{Name: data[:nameLen], Value: data[nameLen : nameLen+valueLen]})
		data = data[nameLen+valueLen:]
	}
	return table
}

func le32(s string) int {
	_ = s[3] // one bounds check for the four reads
	return int(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// TableSize returns the size of the dynamic table as nghttp2 counts it
// (RFC 7541 §4.1: name + value + 32 per entry), or 0 after Close.
func (d *Deflater) TableSize() uint32 {
	if d.c == nil {
		return 0
	}
	n := C.nghttp2_hd_deflate_get_dynamic_table_size(d.c.deflater)
	runtime.KeepAlive(d)
	return uint32(n)
}

// MaxTableSize returns the maximum size of the dynamic table the deflater
// uses now, or 0 after Close.
func (d *Deflater) MaxTableSize() uint32 {
	if d.c == nil {
		return 0
	}
	n := C.nghttp2_hd_deflate_get_max_dynamic_table_size(d.c.deflater)
	runtime.KeepAlive(d)
	return uint32(n)
}

// HeapBytes returns the C heap this Deflater holds: the deflater with its
// table and index, and this package's buffers.
func (d *Deflater) HeapBytes() int {
	if d.c == nil {
		return 0
	}
	n := d.c.heap.live
	runtime.KeepAlive(d)
	return int(n)
}

// Close frees the deflater and its C memory. It is safe to call more than
// once and always returns nil; it makes Deflater an io.Closer.
func (d *Deflater) Close() error {
	if d.c == nil {
		return nil
	}
	d.cleanup.Stop()
	C.hcdef_del(d.c)
	d.c = nil
	return nil
}

// liveCBytes returns the C heap held by every Deflater of the
// process.
func liveCBytes() int { return int(C.hcdef_global_live()) }
