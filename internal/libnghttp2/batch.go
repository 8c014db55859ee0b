//go:build nghttp2

package libnghttp2

// #include <stdlib.h>
// #include "batch.h"
import "C"

import (
	"unsafe"
)

// Batch is a workload of header blocks, grouped in connections, copied into
// C memory once and encoded by libnghttp2's deflater (nghttp2_hd_deflate_hd)
// in loops that run inside C: Steps and Passes are one cgo call each,
// whatever n, so that a benchmark charges no cgo crossing to nghttp2. A
// pass creates and deletes a deflater per connection, since nghttp2 has no
// way to reset one. A Batch is not safe for concurrent use, and its C
// memory is freed only by Close.
type Batch struct {
	c        *C.hcbatch
	connLen  []int // blocks per connection
	outBound []int // wire bound of each connection
}

// NewBatch copies conns, each a sequence of blocks, into C memory and
// makes the long-lived deflater of Steps.
func NewBatch[Conn ~[]Block, Block ~[]Field](conns []Conn) (*Batch, error) {
	var (
		in                    []byte
		blockStart, connStart []C.size_t
		nfields, maxBound     int
	)
	b := &Batch{}
	for _, conn := range conns {
		connStart = append(connStart, C.size_t(len(blockStart)))
		bound := 0
		for _, block := range conn {
			blockStart = append(blockStart, C.size_t(nfields))
			var err error
			if in, err = appendRecords(in, block); err != nil {
				return nil, err
			}
			nfields += len(block)
			maxBound = max(maxBound, MaxBlockLen(block))
			bound += MaxBlockLen(block)
		}
		b.connLen = append(b.connLen, len(conn))
		b.outBound = append(b.outBound, bound)
	}
	nblocks := len(blockStart)
	blockStart = append(blockStart, C.size_t(nfields))
	connStart = append(connStart, C.size_t(nblocks))
	// The slices are Go memory without pointers, copied by C during the
	// call, as the cgo pointer rules allow.
	rv := C.hcbatch_new(&b.c, (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(in)), C.size_t(nfields),
		unsafe.SliceData(blockStart), C.size_t(nblocks), unsafe.SliceData(connStart), C.size_t(len(conns)), C.size_t(maxBound))
	if rv != 0 {
		return nil, deflateError("NewBatch", int(rv))
	}
	return b, nil
}

// result turns what a loop of batch.c returned into a byte count or an
// error of op.
func result(op string, rv C.int64_t) (int, error) {
	if rv < 0 {
		return 0, deflateError(op, int(rv))
	}
	return int(rv), nil
}

// Steps encodes the next n blocks on one long-lived deflater, cycling
// through the blocks of every connection in order, and returns the wire
// bytes produced.
func (b *Batch) Steps(n int) (int, error) {
	if b.c == nil {
		return 0, ErrClosed
	}
	return result("Batch.Steps", C.hcbatch_steps(b.c, C.int64_t(n)))
}

// Passes encodes the whole workload n times, every connection on a new
// deflater, and returns the wire bytes produced.
func (b *Batch) Passes(n int) (int, error) {
	if b.c == nil {
		return 0, ErrClosed
	}
	return result("Batch.Passes", C.hcbatch_passes(b.c, C.int64_t(n)))
}

// Wire returns the encoded blocks of connection c, on a new deflater.
func (b *Batch) Wire(c int) ([][]byte, error) {
	if b.c == nil {
		return nil, ErrClosed
	}
	out := C.malloc(C.size_t(max(b.outBound[c], 1)))
	defer C.free(out)
	lens := (*C.size_t)(C.calloc(C.size_t(max(b.connLen[c], 1)), C.size_t(unsafe.Sizeof(C.size_t(0)))))
	defer C.free(unsafe.Pointer(lens))
	total, err := result("Batch.Wire", C.hcbatch_wire(b.c, C.size_t(c), (*C.uint8_t)(out), C.size_t(b.outBound[c]), lens))
	if err != nil {
		return nil, err
	}
	wire := C.GoBytes(out, C.int(total))
	blocks := make([][]byte, b.connLen[c])
	for i, n := range unsafe.Slice(lens, max(b.connLen[c], 1))[:b.connLen[c]] {
		blocks[i], wire = wire[:n:n], wire[n:]
	}
	return blocks, nil
}

// CAllocs returns the calls of the deflaters so far to malloc, calloc and
// realloc, and the bytes they asked for: the C side's allocations, which
// the Go benchmark's allocs/op cannot see.
func (b *Batch) CAllocs() (calls, bytes int64) {
	return int64(b.c.allocs), int64(b.c.alloc_bytes)
}

// Close frees the workload and the deflater. It is safe to call more than
// once.
func (b *Batch) Close() {
	if b.c != nil {
		C.hcbatch_del(b.c)
		b.c = nil
	}
}
