package qencoder

import "math/bits"

// Odd 64-bit multipliers for hashString: the fractional parts of the
// golden ratio and of the square root of 5.
const (
	hashMul0 = 0x9e3779b97f4a7c15
	hashMul1 = 0x3c6ef372fe94f82b
)

// hashString returns a 64-bit hash of s for the dynamic table's indexes
// and the fields seen once. It is unkeyed, so that the encoder's output,
// which the seen fields steer, is the same on every run; fields chosen
// to collide can at worst make a lookup scan the whole table, as a table
// without an index would. Each word of eight octets is folded in with a
// 64x64->128-bit multiply whose halves are xored; the last word is read
// whole, overlapping the one before, or, under eight octets, from two
// overlapping halves or from the first, middle and last octets.
func hashString(s string) uint64 {
	n := len(s)
	h := uint64(n) ^ hashMul0
	var last uint64
	switch {
	case n >= 8:
		for p := s; len(p) > 8; p = p[8:] {
			h = fold(h^load64(p), hashMul1)
		}
		last = load64(s[n-8:])
	case n >= 4:
		last = load32(s) | load32(s[n-4:])<<32
	case n > 0:
		last = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return fold(h^last, hashMul1)
}

// fold multiplies a and b into 128 bits and xors the halves.
func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// load64 and load32 return the first eight or four octets of s as a
// little-endian word; the compiler turns each into one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func load32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}
