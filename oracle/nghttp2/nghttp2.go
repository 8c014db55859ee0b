//go:build nghttp2

package nghttp2

// #cgo pkg-config: libnghttp2
// #cgo CFLAGS: -I${SRCDIR}/../../internal/countmem
// #include "inflate.h"
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/hpackcert/hpackcert/oracle"
)

func init() {
	oracle.Register("nghttp2", func() oracle.Decoder { return New() })
}

// DefaultMaxHeaderListSize is the header list size a new Decoder accepts in
// one block, counted as RFC 9113 §6.5.2 counts it: name length plus value
// length plus 32 for each field.
const DefaultMaxHeaderListSize = 64 << 10

// ErrClosed is returned by DecodeBlock on a Decoder after Close.
var ErrClosed = errors.New("nghttp2: decoder used after Close")

// Error is a header block that libnghttp2 refused, or that outgrew the
// header list limit.
type Error struct {
	// Offset is how many bytes of the block nghttp2 had consumed when it
	// failed: the end of the last field it emitted (0 when it emitted
	// none). The offending representation is the first one at or after
	// Offset, or a dynamic table size update just before it.
	Offset int
	// Fields is the number of fields decoded before the failure.
	Fields int
	// Code is the nghttp2_error value, or 0 when the failure is the
	// header list limit of this package.
	Code int
	// Reason is nghttp2_strerror(Code), or a sentence for Code 0.
	Reason string
}

func (e *Error) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("nghttp2: offset %d, after %d fields: %s", e.Offset, e.Fields, e.Reason)
	}
	return fmt.Sprintf("nghttp2: offset %d, after %d fields: %s (nghttp2 error %d)", e.Offset, e.Fields, e.Reason, e.Code)
}

// Decoder is one libnghttp2 HPACK inflater (nghttp2_hd_inflater). Its C
// memory is released by Close, or by the garbage collector when a Decoder
// is dropped without Close. A Decoder is not safe for concurrent use.
type Decoder struct {
	c       *C.hcinf
	cleanup runtime.Cleanup
	maxList int
	// broken is the first failure of this context. nghttp2 marks its
	// inflater bad after an error, and a failure of the header list limit
	// leaves it in the middle of a block, so every later block fails too.
	broken error
}

// New returns a Decoder with a fresh inflater: an empty dynamic table of
// at most 4096 bytes (the initial SETTINGS_HEADER_TABLE_SIZE) and a header
// list limit of DefaultMaxHeaderListSize. It panics only when C memory is
// exhausted.
func New() *Decoder {
	c := C.hcinf_new()
	if c == nil {
		panic("nghttp2: out of memory creating an inflater")
	}
	d := &Decoder{c: c, maxList: DefaultMaxHeaderListSize}
	d.cleanup = runtime.AddCleanup(d, func(c *C.hcinf) { C.hcinf_del(c) }, c)
	return d
}

// Reset returns d to the state New leaves a Decoder in: a fresh
// inflater (an empty dynamic table of at most 4096 bytes), no error. It
// keeps the header list limit and the buffer fields are copied through,
// so a Decoder can serve connection after connection, as a fuzz target's
// executions do. On a closed Decoder it does nothing. It panics only
// when C memory is exhausted.
func (d *Decoder) Reset() {
	if d.c == nil {
		return
	}
	if rv := C.hcinf_reset(d.c); rv != 0 {
		panic("nghttp2: out of memory creating an inflater")
	}
	runtime.KeepAlive(d)
	d.broken = nil
}

// Version returns the version of the libnghttp2 the binary runs with, such
// as "1.52.0".
func Version() string {
	return C.GoString(C.nghttp2_version(0).version_str)
}

// Name returns "nghttp2".
func (d *Decoder) Name() string { return "nghttp2" }

// SetMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE this side
// acknowledged (nghttp2_hd_inflate_change_table_size). A value below the
// table's current maximum shrinks the table at once, and nghttp2 then
// requires the next block to begin with a dynamic table size update no
// larger than the smallest value set (RFC 7541 §4.2).
func (d *Decoder) SetMaxDynamicTableSize(n uint32) {
	if d.c == nil || d.broken != nil {
		return
	}
	if rv := C.nghttp2_hd_inflate_change_table_size(d.c.inflater, C.size_t(n)); rv != 0 {
		d.broken = newError(0, 0, int(rv))
	}
	runtime.KeepAlive(d)
}

// SetMaxHeaderListSize sets how large one block may expand, counted as
// RFC 9113 §6.5.2 counts it (name + value + 32 per field), which bounds
// the memory an HPACK bomb can take. n <= 0 removes the limit.
func (d *Decoder) SetMaxHeaderListSize(n int) {
	d.maxList = max(n, 0)
}

// DecodeBlock decodes one complete header block, passing it to
// nghttp2_hd_inflate_hd2 with in_final set. Errors are *Error values; a
// Decoder that failed once keeps failing, with an error that wraps the
// first one.
func (d *Decoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	if d.c == nil {
		return nil, ErrClosed
	}
	if d.broken != nil {
		return nil, fmt.Errorf("nghttp2: context unusable after an earlier error: %w", d.broken)
	}
	// The block is Go memory without pointers, used by C only during the
	// call, as the cgo pointer rules allow.
	rv := C.hcinf_block(d.c, (*C.uint8_t)(unsafe.SliceData(block)), C.size_t(len(block)), C.size_t(d.maxList))
	if rv != 0 {
		offset, fields := int(d.c.consumed), int(d.c.nfields)
		switch rv {
		case C.HCINF_ERR_LIST_LIMIT:
			d.broken = &Error{Offset: offset, Fields: fields, Reason: fmt.Sprintf(
				"header list exceeds %d bytes (name+value+32 per field, RFC 9113 §6.5.2; see SetMaxHeaderListSize)", d.maxList)}
		case C.HCINF_ERR_NO_PROGRESS:
			d.broken = &Error{Offset: offset, Fields: fields, Reason: "nghttp2 stopped without consuming input or finishing the block"}
		default:
			d.broken = newError(offset, fields, int(rv))
		}
		runtime.KeepAlive(d)
		return nil, d.broken
	}
	fields := d.records(int(d.c.nfields), true)
	runtime.KeepAlive(d)
	return fields, nil
}

// Table returns the dynamic table, newest entry first, read with
// nghttp2_hd_inflate_get_table_entry. It returns nil after Close.
func (d *Decoder) Table() []oracle.Field {
	if d.c == nil {
		return nil
	}
	if rv := C.hcinf_table(d.c); rv != 0 {
		panic("nghttp2: out of memory reading the dynamic table")
	}
	n := int(C.nghttp2_hd_inflate_get_num_table_entries(d.c.inflater)) - 61
	table := d.records(n, false)
	runtime.KeepAlive(d)
	return table
}

// TableSize returns the size of the dynamic table as nghttp2 counts it
// (RFC 7541 §4.1: name + value + 32 per entry), or 0 after Close.
func (d *Decoder) TableSize() uint32 {
	if d.c == nil {
		return 0
	}
	n := C.nghttp2_hd_inflate_get_dynamic_table_size(d.c.inflater)
	runtime.KeepAlive(d)
	return uint32(n)
}

// MaxTableSize returns the maximum size of the dynamic table in force: the
// last dynamic table size update decoded or the acknowledged setting that
// lowered it. It returns 0 after Close.
func (d *Decoder) MaxTableSize() uint32 {
	if d.c == nil {
		return 0
	}
	n := C.nghttp2_hd_inflate_get_max_dynamic_table_size(d.c.inflater)
	runtime.KeepAlive(d)
	return uint32(n)
}

// HeapBytes returns the C heap this Decoder holds: the inflater with its
// table and buffers, and the buffer this package copies fields through.
func (d *Decoder) HeapBytes() int {
	if d.c == nil {
		return 0
	}
	n := d.c.heap.live
	runtime.KeepAlive(d)
	return int(n)
}

// Close frees the inflater and its C memory. It is safe to call more than
// once and always returns nil; it makes Decoder an io.Closer.
func (d *Decoder) Close() error {
	if d.c == nil {
		return nil
	}
	d.cleanup.Stop()
	C.hcinf_del(d.c)
	d.c = nil
	return nil
}

// records parses the n records hcinf_block or hcinf_table left in the C
// buffer. The bytes are copied into one Go string that every name and
// value slices.
func (d *Decoder) records(n int, keepFlags bool) []oracle.Field {
	data := C.GoStringN((*C.char)(unsafe.Pointer(d.c.out.data)), C.int(d.c.out.len))
	fields := make([]oracle.Field, 0, n)
	for len(data) > 0 {
		nameLen, valueLen, flags := le32(data), le32(data[4:]), data[8]
		data = data[C.COUNTMEM_RECORD_HEADER:]
		f := oracle.Field{Name: data[:nameLen], Value: data[nameLen : nameLen+valueLen]}
		if keepFlags {
			f.Sensitive = flags&C.NGHTTP2_NV_FLAG_NO_INDEX != 0
		}
		fields = append(fields, f)
		data = data[nameLen+valueLen:]
	}
	return fields
}

func le32(s string) int {
	_ = s[3] // one bounds check for the four reads
	return int(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

func newError(offset, fields, code int) *Error {
	return &Error{Offset: offset, Fields: fields, Code: code, Reason: C.GoString(C.nghttp2_strerror(C.int(code)))}
}

// liveCBytes returns the C heap held by every Decoder of the process.
func liveCBytes() int { return int(C.hcinf_global_live()) }
