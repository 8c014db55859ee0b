package encoder

import "math/bits"

// Odd 64-bit constants for hashString: the fractional parts of the square
// roots of 2 and 3.
const (
	hashK0 = 0x6a09e667f3bcc909
	hashK1 = 0xbb67ae8584caa73b
)

// hashString returns a keyed 64-bit hash of b for the dynamic table
// indexes. It folds b sixteen bytes at a time with a 64x64->128-bit
// multiply whose halves are xored (mix); every step mixes in the key, a
// random value per encoder that a peer does not know, so it cannot pick
// fields that collide. Short inputs, most header names and values, take
// one or two multiplies and no call.
func hashString(key uint64, b string) uint64 {
	n := len(b)
	h := key ^ uint64(n)*hashK0
	var x, y uint64
	switch {
	case n > 16:
		for p := b; len(p) > 16; p = p[16:] {
			h = mix(load64(p)^hashK1, load64(p[8:])^h)
		}
		// The last 16 bytes, which may overlap the loop's.
		x, y = load64(b[n-16:]), load64(b[n-8:])
	case n >= 8:
		x, y = load64(b), load64(b[n-8:])
	case n >= 4:
		x, y = load32(b), load32(b[n-4:])
	case n > 0:
		x = uint64(b[0])<<16 | uint64(b[n/2])<<8 | uint64(b[n-1])
	}
	return mix(x^hashK1^key, y^h)
}

// mix multiplies a and b into 128 bits and xors the halves.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// load64 returns the first 8 bytes of s as a little-endian word. The
// compiler makes the expression one load, with one bounds check.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// load32 returns the first 4 bytes of s as a little-endian word.
func load32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}
