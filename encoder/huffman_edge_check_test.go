//go:build unix

package encoder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/spec"
)

const edgeSentinel = 0x5a

// edgeChecker codes strings through every entry of the coder and compares
// with refHuffman.
type edgeChecker struct {
	t    *testing.T
	in   *guarded // s at the end of a page
	out  *guarded // room at the end of a page
	big  []byte   // room with spare sentinel bytes
	abuf []byte   // s at an alignment
	rng  *rand.Rand
}

func newEdgeChecker(t *testing.T, maxLen int) *edgeChecker {
	return &edgeChecker{
		t:    t,
		in:   newGuarded(t, maxLen+8),
		out:  newGuarded(t, 4*maxLen+64),
		big:  make([]byte, 4*maxLen+256),
		abuf: make([]byte, maxLen+8),
		rng:  rand.New(rand.NewPCG(71, 72)),
	}
}

// check codes s through huffmanString, AppendHuffmanString,
// AppendHuffman, appendHuffman, huffmanFast in segments, huffmanFinish and
// huffmanPad, with pending bits from a previous segment, and compares each
// with refHuffman; s sits once at the end of a page, once at a random
// alignment.
func (c *edgeChecker) check(s string) {
	t := c.t
	want := refHuffman(s)
	if len(want) != huffmanLen(s) {
		t.Fatalf("huffmanLen(%x) = %d; the reference codes %d octets", s, huffmanLen(s), len(want))
	}
	if len(s) > 0 && len(s) < 1<<12 {
		if dec, err := hpack.HuffmanDecodeToString(want); err != nil || dec != s {
			t.Fatalf("the reference coding of %x decodes to %x, %v", s, dec, err)
		}
	}
	// s at the end of its page: the coder may not read past it.
	gs := c.in.str(s)
	// s at a random alignment.
	align := c.rng.IntN(8)
	bs := c.abuf[:len(s)+align]
	copy(bs[align:], s)
	var as string
	if len(s) > 0 {
		as = unsafe.String(&bs[align], len(s))
	}
	for _, in := range []string{gs, as} {
		c.checkString(in, want)
		c.checkAppend(in, want)
		c.checkSegments(in, want)
		c.checkPending(in)
	}
}

// bound is what the callers of huffmanFast, huffmanFinish and
// huffmanString guarantee: room for 4 octets an octet and 8 more.
func bound(n, length int) int { return n + 4*length + 8 }

// checkString runs huffmanString with the room ending at the bound, at
// the end of a page, and with sentinel bytes past the bound.
func (c *edgeChecker) checkString(s string, want []byte) {
	t := c.t
	pairTablesOnce.Do(buildPairTables)
	room := c.out.tail(bound(0, len(s)))
	var n int
	catchFault(t, func() string { return fmt.Sprintf("huffmanString(room[%d], %x)", len(room), s) }, func() {
		n = huffmanString(room, s)
	})
	if !bytes.Equal(room[:n], want) {
		t.Fatalf("huffmanString(%x) = %x; want %x", s, room[:n], want)
	}
	room = c.big[:bound(0, len(s))+64]
	for i := range room {
		room[i] = edgeSentinel
	}
	n = huffmanString(room[:bound(0, len(s))], s)
	if !bytes.Equal(room[:n], want) {
		t.Fatalf("huffmanString(%x) = %x; want %x", s, room[:n], want)
	}
	for i := bound(0, len(s)); i < len(room); i++ {
		if room[i] != edgeSentinel {
			t.Fatalf("huffmanString(%x) wrote at room[%d], past the bound %d", s, i, bound(0, len(s)))
		}
	}
}

// checkAppend runs AppendHuffmanString and AppendHuffman into a buffer
// with a prefix and every kind of capacity: the exact coding, the coding
// and 8, the bound minus one, the bound, more; at the end of a page.
func (c *edgeChecker) checkAppend(s string, want []byte) {
	t := c.t
	const prefix = 3
	for _, spare := range []int{
		len(want), len(want) + 7, len(want) + 8, len(want) + 9,
		bound(0, len(s)) - 1, bound(0, len(s)), bound(0, len(s)) + 1,
		len(want) + c.rng.IntN(bound(0, len(s))-len(want)+16),
	} {
		buf := c.out.tail(prefix + spare)
		for i := range buf {
			buf[i] = edgeSentinel
		}
		buf[0], buf[1], buf[2] = 0xa1, 0xa2, 0xa3
		dst := buf[:prefix]
		var got []byte
		catchFault(t, func() string { return fmt.Sprintf("AppendHuffmanString(cap %d, %x)", spare, s) }, func() {
			got = AppendHuffmanString(dst, s)
		})
		if !bytes.Equal(got[:prefix], []byte{0xa1, 0xa2, 0xa3}) || !bytes.Equal(got[prefix:], want) {
			t.Fatalf("AppendHuffmanString(%x, spare %d) = %x; want a1a2a3 %x", s, spare, got, want)
		}
		if spare >= len(want) && &got[0] != &buf[0] {
			t.Fatalf("AppendHuffmanString(%x, spare %d) reallocated", s, spare)
		}
		if len(s) > 0 && len(s) < 1<<12 {
			if dec, err := hpack.HuffmanDecodeToString(got[prefix:]); err != nil || dec != s {
				t.Fatalf("AppendHuffmanString(%x) = %x, which decodes to %x, %v", s, got[prefix:], dec, err)
			}
		}
		for i := prefix + bound(0, len(s)); i < len(buf); i++ {
			if buf[i] != edgeSentinel {
				t.Fatalf("AppendHuffmanString(%x, spare %d) wrote at dst[%d], past the bound", s, spare, i)
			}
		}
		got = AppendHuffman(buf[:prefix], []byte(s))
		if !bytes.Equal(got[prefix:], want) {
			t.Fatalf("AppendHuffman(%x, spare %d) = %x; want %x", s, spare, got[prefix:], want)
		}
		// appendHuffman with the limit at the coding's length and one
		// below.
		for i := range buf {
			buf[i] = edgeSentinel
		}
		got, ok := []byte(nil), false
		catchFault(t, func() string { return fmt.Sprintf("appendHuffman(cap %d, %x)", spare, s) }, func() {
			got, ok = appendHuffman(buf[:prefix], s, len(want))
		})
		if !ok || !bytes.Equal(got[prefix:], want) {
			t.Fatalf("appendHuffman(%x, spare %d, limit %d) = %x, %v; want %x, true", s, spare, len(want), got[prefix:], ok, want)
		}
		if len(want) > 0 {
			catchFault(t, func() string { return fmt.Sprintf("appendHuffman(cap %d, %x, limit %d)", spare, s, len(want)-1) }, func() {
				_, ok = appendHuffman(buf[:prefix], s, len(want)-1)
			})
			if ok {
				t.Fatalf("appendHuffman(%x, spare %d, limit %d) took a coding of %d octets", s, spare, len(want)-1, len(want))
			}
		}
	}
}

// checkSegments codes s through huffmanFast in segments split at random
// points, each call with the room cut to the bound the callers guarantee
// for its segment (and spare sentinel bytes after it), and pads the end,
// and compares with one call.
func (c *edgeChecker) checkSegments(s string, want []byte) {
	t := c.t
	full := c.big[:bound(0, len(s))+64]
	for i := range full {
		full[i] = edgeSentinel
	}
	var n int
	var acc uint64
	var nbits uint
	rest := s
	for len(rest) > 0 {
		var m int
		switch c.rng.IntN(4) {
		case 0:
			m = 1 + c.rng.IntN(len(rest))
		case 1:
			m = 1 + c.rng.IntN(min(len(rest), 9))
		case 2:
			m = min(len(rest), 8*(1+c.rng.IntN(4)))
		default:
			m = len(rest)
		}
		seg := rest[:m]
		lim := bound(n, len(seg))
		after := bytes.Clone(full[lim:])
		room := full[:lim:lim]
		n0, nbits0 := n, nbits
		n, acc, nbits = huffmanFast(room, n, acc, nbits, seg)
		if nbits > 7 || n < n0 || n > lim-8 {
			t.Fatalf("huffmanFast(n %d, nbits %d, %x) = n %d, nbits %d", n0, nbits0, seg, n, nbits)
		}
		if !bytes.Equal(full[lim:], after) {
			t.Fatalf("huffmanFast(n %d, nbits %d, %x) with room[%d] wrote past it", n0, nbits0, seg, lim)
		}
		rest = rest[m:]
	}
	var got int
	lim := bound(n, 0)
	after := bytes.Clone(full[lim:])
	if c.rng.IntN(2) == 0 {
		got = huffmanPad(full[:lim:lim], n, acc, nbits)
	} else {
		got = huffmanFinish(full[:lim:lim], n, acc, nbits, "")
	}
	if !bytes.Equal(full[:got], want) {
		t.Fatalf("huffmanFast in segments coded %x as %x; want %x", s, full[:got], want)
	}
	if !bytes.Equal(full[lim:], after) {
		t.Fatalf("padding (n %d, nbits %d) wrote past room[%d]", n, nbits, lim)
	}
	// The last segment through huffmanFinish, at the end of a page.
	if len(s) > 0 {
		k := c.rng.IntN(len(s) + 1)
		room := c.out.tail(bound(0, len(s)))
		n, acc, nbits := huffmanFast(room[:bound(0, k)], 0, 0, 0, s[:k])
		var got int
		catchFault(t, func() string { return fmt.Sprintf("huffmanFinish(%d, %d, %x)", n, nbits, s[k:]) }, func() {
			got = huffmanFinish(room[:bound(n, len(s)-k)], n, acc, nbits, s[k:])
		})
		if !bytes.Equal(room[:got], want) {
			t.Fatalf("huffmanFast(%x) then huffmanFinish(%x) = %x; want %x", s[:k], s[k:], room[:got], want)
		}
	}
}

// checkPending codes s after n octets and nbits pending bits (with
// garbage above them in acc, which the coder must ignore) through
// huffmanFinish and huffmanFast, with the room ending at the bound at the
// end of a page.
func (c *edgeChecker) checkPending(s string) {
	t := c.t
	n0 := c.rng.IntN(5)
	for nbits0 := range uint(8) {
		var w refBits
		prefix := make([]byte, n0)
		for i := range prefix {
			prefix[i] = byte(c.rng.Uint32())
			w.code(uint32(prefix[i]), 8)
		}
		pending := c.rng.Uint64() & (1<<nbits0 - 1)
		w.code(uint32(pending), uint8(nbits0))
		acc := c.rng.Uint64()<<nbits0 | pending
		for i := range len(s) {
			w.code(spec.HuffmanCodes[s[i]], spec.HuffmanCodeLens[s[i]])
		}
		w.pad()
		want := w.out

		room := c.out.tail(bound(n0, len(s)))
		copy(room, prefix)
		var got int
		catchFault(t, func() string { return fmt.Sprintf("huffmanFinish(n %d, nbits %d, %x)", n0, nbits0, s) }, func() {
			got = huffmanFinish(room, n0, acc, nbits0, s)
		})
		if !bytes.Equal(room[:got], want) {
			t.Fatalf("huffmanFinish(n %d, acc %#x, nbits %d, %x) = %x; want %x", n0, acc, nbits0, s, room[:got], want)
		}
		copy(room, prefix)
		var n int
		var acc1 uint64
		var nbits1 uint
		catchFault(t, func() string { return fmt.Sprintf("huffmanFast(n %d, nbits %d, %x)", n0, nbits0, s) }, func() {
			n, acc1, nbits1 = huffmanFast(room, n0, acc, nbits0, s)
		})
		got = huffmanPad(room, n, acc1, nbits1)
		if !bytes.Equal(room[:got], want) {
			t.Fatalf("huffmanFast+huffmanPad(n %d, acc %#x, nbits %d, %x) = %x; want %x", n0, acc, nbits0, s, room[:got], want)
		}
	}
}
