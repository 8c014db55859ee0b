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
// without an index would. Each 16 octets are folded in with one
// 64x64->128-bit multiply of their two words, the hash so far xored into
// one, whose halves are xored: half the multiplies of a word at a time,
// on a chain that is the cost of hashing a long value (two chains past 64
// octets). The last 16 octets
// are read whole, overlapping those before; under 16, the words are the
// first and last eight, or under eight, two overlapping halves or the
// first, middle and last octets.
func hashString(s string) uint64 {
	n := len(s)
	h := uint64(n) ^ hashMul0
	switch {
	case n > 16:
		p := s
		if n > 64 {
			// Two chains, of the first and the second 16 octets of
			// each 32, overlap their multiplies.
			h1 := h ^ hashMul1
			for ; len(p) > 32; p = p[32:] {
				h = fold(load64(p)^hashMul1, load64(p[8:])^h)
				h1 = fold(load64(p[16:])^hashMul0, load64(p[24:])^h1)
			}
			h ^= h1
		}
		for ; len(p) > 16; p = p[16:] {
			h = fold(load64(p)^hashMul1, load64(p[8:])^h)
		}
		return fold(load64(s[n-16:])^hashMul1, load64(s[n-8:])^h)
	case n >= 8:
		return fold(load64(s)^hashMul1, load64(s[n-8:])^h)
	case n >= 4:
		h ^= load32(s) | load32(s[n-4:])<<32
	case n > 0:
		h ^= uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return fold(h, hashMul1)
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
