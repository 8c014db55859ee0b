//go:build nghttp2

package libnghttp2

// #include "inflate.h"
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// DefaultMaxHeaderListSize is the header list size a new Inflater accepts
// in one block, counted as RFC 9113 §6.5.2 counts it: name length plus
// value length plus 32 for each field.
const DefaultMaxHeaderListSize = 64 << 10

// InflateError is a header block that libnghttp2 refused, or that outgrew
// the header list limit.
type InflateError struct {
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

func (e *InflateError) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("nghttp2: offset %d, after %d fields: %s", e.Offset, e.Fields, e.Reason)
	}
	return fmt.Sprintf("nghttp2: offset %d, after %d fields: %s (nghttp2 error %d)", e.Offset, e.Fields, e.Reason, e.Code)
}

func inflateError(offset, fields, code int) *InflateError {
	return &InflateError{Offset: offset, Fields: fields, Code: code, Reason: strerror(code)}
}

// Inflater is one libnghttp2 HPACK inflater (nghttp2_hd_inflater), with
// the methods of an oracle.Decoder. An Inflater is not safe for concurrent
// use.
type Inflater struct {
	handle
	maxList int
	// broken is the first failure of this context. nghttp2 marks its
	// inflater bad after an error, and a failure of the header list limit
	// leaves it in the middle of a block, so every later block fails too.
	broken error
}

// NewInflater returns an Inflater with a fresh inflater: an empty dynamic
// table of at most 4096 bytes (the initial SETTINGS_HEADER_TABLE_SIZE) and
// a header list limit of DefaultMaxHeaderListSize. It panics only when C
// memory is exhausted.
func NewInflater() *Inflater {
	c := C.hcinf_new()
	if c == nil {
		panic("nghttp2: out of memory creating an inflater")
	}
	d := &Inflater{maxList: DefaultMaxHeaderListSize}
	d.handle = newHandle(d, &c.ctx)
	return d
}

// c returns the inflater's C object, nil after Close.
func (d *Inflater) c() *C.hcinf { return (*C.hcinf)(unsafe.Pointer(d.ctx)) }

// Reset returns d to the state NewInflater leaves an Inflater in: a fresh
// inflater (an empty dynamic table of at most 4096 bytes), no error. It
// keeps the header list limit and the buffer fields are copied through,
// so an Inflater can serve connection after connection, as a fuzz target's
// executions do. On a closed Inflater it does nothing. It panics only
// when C memory is exhausted.
func (d *Inflater) Reset() {
	if d.ctx == nil {
		return
	}
	if rv := C.hcinf_reset(d.c()); rv != 0 {
		panic("nghttp2: out of memory creating an inflater")
	}
	runtime.KeepAlive(d)
	d.broken = nil
}

// Name returns "nghttp2".
func (d *Inflater) Name() string { return "nghttp2" }

// SetMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE this side
// acknowledged (nghttp2_hd_inflate_change_table_size). A value below the
// table's current maximum shrinks the table at once, and nghttp2 then
// requires the next block to begin with a dynamic table size update no
// larger than the smallest value set (RFC 7541 §4.2).
func (d *Inflater) SetMaxDynamicTableSize(n uint32) {
	if d.ctx == nil || d.broken != nil {
		return
	}
	if rv := C.nghttp2_hd_inflate_change_table_size(d.c().hd, C.size_t(n)); rv != 0 {
		d.broken = inflateError(0, 0, int(rv))
	}
	runtime.KeepAlive(d)
}

// SetMaxHeaderListSize sets how large one block may expand, counted as
// RFC 9113 §6.5.2 counts it (name + value + 32 per field), which bounds
// the memory an HPACK bomb can take. n <= 0 removes the limit.
func (d *Inflater) SetMaxHeaderListSize(n int) {
	d.maxList = max(n, 0)
}

// DecodeBlock decodes one complete header block, passing it to
// nghttp2_hd_inflate_hd2 with in_final set. Errors are *InflateError
// values; an Inflater that failed once keeps failing, with an error that
// wraps the first one.
func (d *Inflater) DecodeBlock(block []byte) ([]Field, error) {
	if d.ctx == nil {
		return nil, ErrClosed
	}
	if d.broken != nil {
		return nil, fmt.Errorf("nghttp2: context unusable after an earlier error: %w", d.broken)
	}
	c := d.c()
	// The block is Go memory without pointers, used by C only during the
	// call, as the cgo pointer rules allow.
	rv := C.hcinf_block(c, (*C.uint8_t)(unsafe.SliceData(block)), C.size_t(len(block)), C.size_t(d.maxList))
	if rv != 0 {
		offset, fields := int(c.consumed), int(c.nfields)
		switch rv {
		case C.HCINF_ERR_LIST_LIMIT:
			d.broken = &InflateError{Offset: offset, Fields: fields, Reason: fmt.Sprintf(
				"header list exceeds %d bytes (name+value+32 per field, RFC 9113 §6.5.2; see SetMaxHeaderListSize)", d.maxList)}
		case C.HCINF_ERR_NO_PROGRESS:
			d.broken = &InflateError{Offset: offset, Fields: fields, Reason: "nghttp2 stopped without consuming input or finishing the block"}
		default:
			d.broken = inflateError(offset, fields, int(rv))
		}
		runtime.KeepAlive(d)
		return nil, d.broken
	}
	fields := d.records(int(c.nfields), true)
	runtime.KeepAlive(d)
	return fields, nil
}
