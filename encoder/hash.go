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
			h = mix(load64At(p, 0)^hashK1, load64At(p, 8)^h)
		}
		// The last 16 bytes, which may overlap the loop's.
		x, y = load64At(b, n-16), load64At(b, n-8)
	case n >= 8:
		x, y = load64At(b, 0), load64At(b, n-8)
	case n >= 4:
		x, y = load32At(b, 0), load32At(b, n-4)
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
