//go:build unix

package encoder

import (
	"bytes"
	"strings"
	"testing"
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
//
// The reference coder is in huffman_ref_test.go, the guarded memory in
// guard_test.go, and the checker that runs every entry of the coder on one
// input in huffman_edge_check_test.go.

// edgeLight reports whether to run fewer cases: in -short mode and under
// the race detector, which makes them ten times slower.
func edgeLight() bool { return testing.Short() || raceEnabled }

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
