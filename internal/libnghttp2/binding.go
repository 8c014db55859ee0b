//go:build nghttp2

package libnghttp2

// #cgo pkg-config: libnghttp2
// #include "ctx.h"
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// Field is one header field: spec.Field, the module's one header-field
// type. Sensitive stands for NGHTTP2_NV_FLAG_NO_INDEX, a "Literal Header
// Field Never Indexed" representation (RFC 7541 §6.2.3).
type Field = spec.Field

// ErrClosed is returned by a Deflater or an Inflater used after Close.
var ErrClosed = errors.New("nghttp2: used after Close")

// Version returns the version of the libnghttp2 the binary runs with, such
// as "1.52.0".
func Version() string {
	return C.GoString(C.nghttp2_version(0).version_str)
}

// strerror returns nghttp2_strerror(code).
func strerror(code int) string {
	return C.GoString(C.nghttp2_strerror(C.int(code)))
}

// handle is what a Deflater and an Inflater share: their C object, which
// begins with an hcctx, freed by Close or, for one dropped without Close,
// by a cleanup (runtime.AddCleanup). A nil ctx is a closed handle.
type handle struct {
	ctx     *C.hcctx
	cleanup runtime.Cleanup
}

// newHandle returns the handle of ctx, owned by owner, whose cleanup frees
// ctx once owner is unreachable.
func newHandle[T any](owner *T, ctx *C.hcctx) handle {
	return handle{ctx: ctx, cleanup: runtime.AddCleanup(owner, func(c *C.hcctx) { C.hcctx_del(c) }, ctx)}
}

// HeapBytes returns the C heap held: the nghttp2 context with its table
// and buffers, and the buffers this package passes fields through. It
// returns 0 after Close.
func (h *handle) HeapBytes() int {
	if h.ctx == nil {
		return 0
	}
	n := h.ctx.heap.live
	runtime.KeepAlive(h)
	return int(n)
}

// Close frees the nghttp2 context and its C memory. It is safe to call
// more than once and always returns nil, which makes the owner an
// io.Closer.
func (h *handle) Close() error {
	if h.ctx == nil {
		return nil
	}
	h.cleanup.Stop()
	C.hcctx_del(h.ctx)
	h.ctx = nil
	return nil
}

// Table returns the dynamic table, newest entry first, read with
// nghttp2_hd_{de,in}flate_get_table_entry. Sensitive is false in every
// entry. It returns nil after Close.
func (h *handle) Table() []Field {
	if h.ctx == nil {
		return nil
	}
	if rv := C.hcctx_table(h.ctx); rv != 0 {
		panic("nghttp2: out of memory reading the dynamic table")
	}
	table := h.records(int(C.hcctx_entries(h.ctx)), false)
	runtime.KeepAlive(h)
	return table
}

// TableSize returns the size of the dynamic table as nghttp2 counts it
// (RFC 7541 §4.1: name + value + 32 per entry), or 0 after Close.
func (h *handle) TableSize() uint32 {
	if h.ctx == nil {
		return 0
	}
	n := C.hcctx_size(h.ctx)
	runtime.KeepAlive(h)
	return uint32(n)
}

// MaxTableSize returns the maximum size of the dynamic table in force, or
// 0 after Close. For a Deflater it is the one it uses now; for an
// Inflater, the last dynamic table size update decoded or the
// acknowledged setting that lowered it.
func (h *handle) MaxTableSize() uint32 {
	if h.ctx == nil {
		return 0
	}
	n := C.hcctx_max_size(h.ctx)
	runtime.KeepAlive(h)
	return uint32(n)
}

// records parses the n records (see records.h) that C left in h's record
// buffer. The bytes are copied into one Go string that every name and
// value slices; Sensitive is kept only when keepFlags is set, since table
// entries carry no flag of the RFC's.
func (h *handle) records(n int, keepFlags bool) []Field {
	data := C.GoStringN((*C.char)(unsafe.Pointer(h.ctx.out.data)), C.int(h.ctx.out.len))
	fields := make([]Field, 0, n)
	for len(data) > 0 {
		nameLen, valueLen, flags := le32(data), le32(data[4:]), data[8]
		data = data[C.RECORD_HEADER:]
		f := Field{Name: data[:nameLen], Value: data[nameLen : nameLen+valueLen]}
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

// appendRecords appends fields to dst as records (see records.h), for C to
// read during one call. Field i is named in the error when its name or
// value is over the 4 GiB the lengths can say.
func appendRecords(dst []byte, fields []Field) ([]byte, error) {
	for i, f := range fields {
		if len(f.Name) > math.MaxUint32 || len(f.Value) > math.MaxUint32 {
			return dst, fmt.Errorf("nghttp2: field %d: name of %d bytes or value of %d bytes is over 4 GiB", i, len(f.Name), len(f.Value))
		}
		var flags byte
		if f.Sensitive {
			flags = C.NGHTTP2_NV_FLAG_NO_INDEX
		}
		dst = appendLE32(dst, len(f.Name))
		dst = appendLE32(dst, len(f.Value))
		dst = append(dst, flags)
		dst = append(dst, f.Name...)
		dst = append(dst, f.Value...)
	}
	return dst, nil
}

func appendLE32(dst []byte, v int) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// liveCBytes returns the C heap held by every Deflater and Inflater of the
// process.
func liveCBytes() int { return int(C.countmem_global_live()) }
