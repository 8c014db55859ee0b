//go:build nghttp2

package libnghttp2

// #include "inflatebatch.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// InflateBatch is a recording of header blocks, grouped in connections,
// copied into C memory once and decoded by libnghttp2's inflater
// (nghttp2_hd_inflate_hd2, the public form of its field loop) in loops
// that run inside C: Passes and Hops are one cgo call each, whatever n, so
// that a benchmark charges no cgo crossing to nghttp2. Every connection of
// a pass is decoded on a new inflater (nghttp2 has no way to reset one),
// made with nghttp2's default allocator, as a program using nghttp2 would.
// An InflateBatch is not safe for concurrent use, and its C memory is
// freed only by Close.
type InflateBatch struct {
	c *C.hcinfbatch
}

// Tally is what a loop of InflateBatch was handed.
type Tally struct {
	Fields    int64 // fields decoded
	Octets    int64 // octets of their names and values
	Sensitive int64 // fields that arrived never indexed (RFC 7541 §6.2.3)
	Wire      int64 // Hops only: octets the deflater wrote
}

// Room bounds what one block of a hop holds once decoded: its fields, the
// octets of their names and values, and its wire octets encoded again
// (MaxBlockLen of its fields).
type Room struct {
	Fields, Octets, Out int
}

// NewInflateBatch copies conns, each a sequence of header blocks, into C
// memory, with the room a hop needs for any one block.
func NewInflateBatch(conns [][][]byte, room Room) (*InflateBatch, error) {
	var (
		in                    []byte
		blockStart, connStart []C.size_t
	)
	for _, conn := range conns {
		connStart = append(connStart, C.size_t(len(blockStart)))
		for _, block := range conn {
			blockStart = append(blockStart, C.size_t(len(in)))
			in = append(in, block...)
		}
	}
	nblocks := len(blockStart)
	blockStart = append(blockStart, C.size_t(len(in)))
	connStart = append(connStart, C.size_t(nblocks))
	b := &InflateBatch{}
	// The slices are Go memory without pointers, copied by C during the
	// call, as the cgo pointer rules allow.
	rv := C.hcinfbatch_new(&b.c, (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(in)),
		unsafe.SliceData(blockStart), C.size_t(nblocks), unsafe.SliceData(connStart), C.size_t(len(conns)),
		C.size_t(room.Fields), C.size_t(room.Octets), C.size_t(room.Out))
	if rv != 0 {
		return nil, fmt.Errorf("nghttp2: NewInflateBatch: %s", strerror(int(rv)))
	}
	return b, nil
}

// loopError turns what a loop of inflatebatch.c returned into nil or an
// error of op naming the connection and block where it failed.
func (b *InflateBatch) loopError(op string, rv C.int) error {
	var reason string
	switch rv {
	case 0:
		return nil
	case C.HCINFB_ERR_NO_PROGRESS:
		reason = "nghttp2 stopped without consuming input or finishing the block"
	case C.HCINFB_ERR_ROOM:
		reason = "the block decoded to more fields or octets than the Room given"
	default:
		reason = fmt.Sprintf("%s (nghttp2 error %d)", strerror(int(rv)), int(rv))
	}
	return fmt.Errorf("nghttp2: InflateBatch.%s: connection %d block %d: %s", op, int(b.c.fail_conn), int(b.c.fail_block), reason)
}

// tally returns the tally of the last loop.
func (b *InflateBatch) tally() Tally {
	t := b.c.tally
	return Tally{Fields: int64(t.fields), Octets: int64(t.octets), Sensitive: int64(t.sensitive), Wire: int64(t.wire)}
}

// Passes decodes every block n times, each connection on a new inflater,
// and returns what the n passes were handed.
func (b *InflateBatch) Passes(n int) (Tally, error) {
	if b.c == nil {
		return Tally{}, ErrClosed
	}
	err := b.loopError("Passes", C.hcinfbatch_passes(b.c, C.int64_t(n)))
	return b.tally(), err
}

// Hops is a proxy hop with libnghttp2 on both halves: Passes, with each
// block's fields copied out of the inflater (its views end at its next
// call) and encoded again by nghttp2_hd_deflate_hd on a deflater new for
// the connection, never-indexed fields sent never indexed.
func (b *InflateBatch) Hops(n int) (Tally, error) {
	if b.c == nil {
		return Tally{}, ErrClosed
	}
	err := b.loopError("Hops", C.hcinfbatch_hops(b.c, C.int64_t(n)))
	return b.tally(), err
}

// HeldBytes makes n inflaters at once and returns the C heap they hold
// (malloc_usable_size, so malloc's rounding counts) new and after
// inflater i has decoded connection i modulo the number of connections.
func (b *InflateBatch) HeldBytes(n int) (idle, used int64, err error) {
	if b.c == nil {
		return 0, 0, ErrClosed
	}
	var ci, cu C.int64_t
	err = b.loopError("HeldBytes", C.hcinfbatch_held(b.c, C.size_t(n), &ci, &cu))
	return int64(ci), int64(cu), err
}

// Close frees the recording and the room. It is safe to call more than
// once.
func (b *InflateBatch) Close() {
	if b.c != nil {
		C.hcinfbatch_del(b.c)
		b.c = nil
	}
}
