//go:build nghttp3

package libnghttp3

// #include "encodebatch.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// EncodeBatch is header lists held in C memory and encoded by libnghttp3
// pass after pass in one call (encodebatch.c), the loop bench measures
// its encoder with: no cgo crossing per section. It is freed only by
// Close.
type EncodeBatch struct {
	c *C.hc3batch
}

// NewEncodeBatch copies conns, the header lists of each connection, into
// C memory.
func NewEncodeBatch(conns [][][]Field) (*EncodeBatch, error) {
	var in fieldArrays
	var listLen, connLen []C.size_t
	for _, lists := range conns {
		connLen = append(connLen, C.size_t(len(lists)))
		for _, l := range lists {
			listLen = append(listLen, C.size_t(len(l)))
			in.append(l)
		}
	}
	c := C.hc3batch_new(in.dataPtr(), C.size_t(len(in.data)), in.lensPtr(), in.flagsPtr(), C.size_t(len(in.flags)),
		unsafe.SliceData(listLen), C.size_t(len(listLen)), unsafe.SliceData(connLen), C.size_t(len(connLen)))
	runtime.KeepAlive(in)
	if c == nil {
		return nil, &Error{Op: "NewEncodeBatch", Code: C.NGHTTP3_ERR_NOMEM, Reason: "out of memory"}
	}
	return &EncodeBatch{c: c}, nil
}

// Passes encodes every connection n times over (n >= 1), each on a fresh
// encoder of a MaxTableCapacity table with 100 blocked streams, each
// section that references the table acknowledged by a Section
// Acknowledgment right after it is written, and returns the octets of one
// pass: sections and encoder stream.
func (b *EncodeBatch) Passes(n int) (octets int, err error) {
	if b.c == nil {
		return 0, ErrClosed
	}
	var out C.size_t
	if rv := C.hc3batch_passes(b.c, C.size_t(n), &out); rv != 0 {
		return 0, newError("Passes", rv)
	}
	return int(out), nil
}

// Close frees the batch. It is safe to call more than once.
func (b *EncodeBatch) Close() {
	if b.c != nil {
		C.hc3batch_del(b.c)
		b.c = nil
	}
}
