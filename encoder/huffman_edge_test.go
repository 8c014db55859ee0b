//go:build unix

package encoder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The tests in this file check the Huffman coder (huffman_amd64.s, or
// huffman_generic.go in the purego build and on other architectures)
// against a bit-by-bit coder written from spec.HuffmanCodes and
// spec.HuffmanCodeLens, on inputs chosen to reach every path of the
// assembly: eight-octet steps whose codes total 57 bits and 58, pairs of
// 32 bits and 33 (the longest the pair tables hold), four-octet steps
// that fail, two-octet steps of two 30-bit codes, and every count of
// octets left at the end. The strings sit at the end of a page followed by
// an inaccessible page, and the output room ends at one too, so that a
// read past s or a store past the room faults; the room's spare bytes
// hold a sentinel, so that a store past the bound the callers guarantee
// (n+4*len(s)+8) is seen even when it stays within the page.

// refBits is a bit-by-bit writer, most significant bit first.
type refBits struct {
	out   []byte
	nbits uint // bits in out's last octet, 0 when it is full
}

func (w *refBits) bit(b uint32) {
	if w.nbits == 0 {
		w.out = append(w.out, 0)
	}
	w.out[len(w.out)-1] |= byte(b&1) << (7 - w.nbits)
	w.nbits = (w.nbits + 1) % 8
}

func (w *refBits) code(code uint32, length uint8) {
	for i := int(length) - 1; i >= 0; i-- {
		w.bit(code >> uint(i))
	}
}

// pad fills the last octet with the most significant bits of EOS.
func (w *refBits) pad() {
	eos := spec.HuffmanCodes[256]
	for i := 0; w.nbits != 0; i++ {
		w.bit(eos >> (uint(spec.HuffmanCodeLens[256]) - 1 - uint(i)))
	}
}

// refHuffman is the padded Huffman coding of s, bit by bit.
func refHuffman(s string) []byte {
	var w refBits
	for i := range len(s) {
		w.code(spec.HuffmanCodes[s[i]], spec.HuffmanCodeLens[s[i]])
	}
	w.pad()
	return w.out
}

// edgeOctetsByLen lists the octets by the length of their codes.
func edgeOctetsByLen() map[int][]byte {
	m := map[int][]byte{}
	for c := range 256 {
		l := int(spec.HuffmanCodeLens[c])
		m[l] = append(m[l], byte(c))
	}
	return m
}

// guarded is memory followed by an inaccessible page.
type guarded struct {
	mem []byte // the accessible pages
}

func newGuarded(t testing.TB, size int) *guarded {
	t.Helper()
	page := os.Getpagesize()
	pages := (size + page - 1) / page
	mem, err := syscall.Mmap(-1, 0, (pages+1)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[pages*page:], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		t.Skipf("mprotect: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	return &guarded{mem: mem[:pages*page]}
}

// tail returns the last n accessible bytes, with no capacity beyond.
func (g *guarded) tail(n int) []byte {
	return g.mem[len(g.mem)-n : len(g.mem) : len(g.mem)]
}

// str copies s to the end of g and returns that copy.
func (g *guarded) str(s string) string {
	if len(s) == 0 {
		return ""
	}
	b := g.tail(len(s))
	copy(b, s)
	return unsafe.String(&b[0], len(b))
}

// catchFault runs f, turning a fault (a read or store in the guard page)
// into a test failure that names the input.
func catchFault(t *testing.T, what func() string, f func()) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: %v", what(), r)
		}
	}()
	f()
}

const edgeSentinel = 0x5a

// edgeLight reports whether to run fewer cases: in -short mode and under
// the race detector, which makes them ten times slower.
func edgeLight() bool { return testing.Short() || raceEnabled }

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

// TestHuffmanEdgeEveryOctet codes every octet in runs of every length
// up to 40, and some octets (short codes, 0x00, 0xff and the 30-bit codes)
// in runs of every length up to 300 (fewer in light mode, edgeLight).
func TestHuffmanEdgeEveryOctet(t *testing.T) {
	c := newEdgeChecker(t, 600)
	c.check("")
	runs := 41
	if edgeLight() {
		runs = 20
	}
	for o := range 256 {
		for l := range runs {
			c.check(strings.Repeat(string([]byte{byte(o)}), l))
		}
	}
	maxLen := 300
	if edgeLight() {
		maxLen = 80
	}
	for _, o := range []byte{'a', 'x', 0x00, 0xff, 0x0a, 0x0d, 0x16, 0xfe, 0x80} {
		for l := range maxLen + 1 {
			c.check(strings.Repeat(string([]byte{o}), l))
		}
	}
}

// TestHuffmanEdgePositions puts one or two octets with long codes at
// every position of strings of short codes, so that the eight-octet, the
// four-octet and the two-octet steps fail at every alignment and with
// every number of octets left.
func TestHuffmanEdgePositions(t *testing.T) {
	c := newEdgeChecker(t, 600)
	byLen := edgeOctetsByLen()
	fills := []byte{'a', '%', 'z', '&'} // 5, 6, 7, 8 bits
	longs := []byte{0x0a, 0x0d, 0x16, 0xff, 0x00, 0xfe}
	for _, l := range []int{13, 19, 22, 23, 24, 25, 26, 27, 28} {
		longs = append(longs, byLen[l][0])
	}
	maxLen := 26
	if edgeLight() {
		fills, maxLen = fills[:1], 18
	}
	for _, fill := range fills {
		for length := 1; length <= maxLen; length++ {
			for p := range length {
				for _, x := range longs {
					b := bytes.Repeat([]byte{fill}, length)
					b[p] = x
					c.check(string(b))
					// A second long code at every later position.
					if fill == 'a' && (x == 0x0a || x == 0xff || x == byLen[27][0]) {
						for q := p + 1; q < length; q++ {
							b2 := bytes.Clone(b)
							b2[q] = 0x16
							c.check(string(b2))
						}
					}
				}
			}
		}
	}
}

// TestHuffmanEdgeTotals builds groups of eight octets whose codes total
// 50 to 64 bits, pairs of 32 and 33 bits, four octets of 57 and 58, and
// two octets of 57 and 58 (27+30 and 28+30), and strings of them, at
// every offset from the start.
func TestHuffmanEdgeTotals(t *testing.T) {
	c := newEdgeChecker(t, 600)
	byLen := edgeOctetsByLen()
	var lens []int
	for l := range byLen {
		lens = append(lens, l)
	}
	pick := func(l int) byte { return byLen[l][c.rng.IntN(len(byLen[l]))] }
	// group returns k octets whose code lengths total total, or false.
	group := func(k, total int) ([]byte, bool) {
		for range 1000 {
			ls := make([]int, k)
			sum := 0
			for i := range k - 1 {
				ls[i] = lens[c.rng.IntN(len(lens))]
				if c.rng.IntN(3) > 0 {
					ls[i] = 5 + c.rng.IntN(4)
				}
				sum += ls[i]
			}
			ls[k-1] = total - sum
			if len(byLen[ls[k-1]]) == 0 {
				continue
			}
			c.rng.Shuffle(k, func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
			g := make([]byte, k)
			for i, l := range ls {
				g[i] = pick(l)
			}
			return g, true
		}
		return nil, false
	}
	text := []byte("abcdefghijklmnopqrstuvwxyz0123456789-_./")
	iters := 400
	if edgeLight() {
		iters = 80
	}
	for range iters {
		var b []byte
		for lead := range 8 {
			b = b[:0]
			for range lead {
				b = append(b, text[c.rng.IntN(len(text))])
			}
			for range 1 + c.rng.IntN(6) {
				var g []byte
				var ok bool
				switch c.rng.IntN(4) {
				case 0:
					g, ok = group(8, 50+c.rng.IntN(15))
				case 1:
					g, ok = group(2, 31+c.rng.IntN(4))
				case 2:
					g, ok = group(4, 55+c.rng.IntN(5))
				default:
					g = []byte{pick(27 + c.rng.IntN(2)), pick(30)}
					ok = true
				}
				if ok {
					b = append(b, g...)
				}
				for range c.rng.IntN(9) {
					b = append(b, text[c.rng.IntN(len(text))])
				}
			}
			c.check(string(b))
		}
	}
}

// TestHuffmanEdgeRandom codes random strings of up to 600 octets: uniform
// octets, header text, text with high octets mixed in, and runs.
func TestHuffmanEdgeRandom(t *testing.T) {
	c := newEdgeChecker(t, 600)
	iters := 3000
	if edgeLight() {
		iters = 500
	}
	text := "abcdefghijklmnopqrstuvwxyz0123456789-_./;=ABCDEFGHIJKLMNOPQRSTUVWXYZ (),\"~{"
	for i := range iters {
		length := c.rng.IntN(601)
		if i%2 == 0 {
			length = c.rng.IntN(40)
		}
		b := make([]byte, length)
		switch i % 5 {
		case 0:
			for j := range b {
				b[j] = byte(c.rng.Uint32())
			}
		case 1:
			for j := range b {
				b[j] = text[c.rng.IntN(len(text))]
			}
		case 2:
			p := c.rng.Float64() / 2
			for j := range b {
				if c.rng.Float64() < p {
					b[j] = byte(0x80 + c.rng.IntN(128))
				} else {
					b[j] = text[c.rng.IntN(len(text))]
				}
			}
		case 3:
			runOf := []byte{0x00, 0xff, 0x0a, 'a', 0x16}
			for j := 0; j < len(b); {
				o := runOf[c.rng.IntN(len(runOf))]
				for k := c.rng.IntN(20); k >= 0 && j < len(b); k-- {
					b[j] = o
					j++
				}
			}
		case 4:
			// Control octets (mostly 28- and 30-bit codes) and text.
			for j := range b {
				if c.rng.IntN(3) == 0 {
					b[j] = byte(c.rng.IntN(32))
				} else {
					b[j] = text[c.rng.IntN(len(text))]
				}
			}
		}
		c.check(string(b))
	}
}
