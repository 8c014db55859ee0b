package encoder

import (
	"encoding/binary"
	"slices"
)

// appendHuffman appends the Huffman coding of s (RFC 7541 §5.2) to dst,
// padded to a byte boundary with the most significant bits of EOS (all
// ones), if it takes at most limit bytes; otherwise it reports false and
// the contents of dst beyond its length are unspecified. It never writes
// more than limit bytes past len(dst), so it grows dst by at most limit.
//
// Codes are at most 30 bits long, so a 64-bit accumulator holding fewer
// than 32 pending bits always has room for the next code; it is flushed 32
// bits at a time. Whatever follows a flush only adds bytes, so the coding
// can stop as soon as a flush would pass the limit.
func appendHuffman(dst []byte, s []byte, limit int) ([]byte, bool) {
	dst = slices.Grow(dst, limit)
	out := dst[len(dst) : len(dst)+limit]
	n := 0
	var acc uint64 // pending bits in the low nbits bits
	var nbits uint
	for _, c := range s {
		code := huffmanTable[c]
		length := uint(code & 0xff)
		acc = acc<<(length&63) | code>>8
		nbits += length
		if nbits >= 32 {
			if n+4 > len(out) {
				return dst, false
			}
			nbits -= 32
			binary.BigEndian.PutUint32(out[n:], uint32(acc>>(nbits&63)))
			n += 4
		}
	}
	if n+int(nbits+7)/8 > len(out) {
		return dst, false
	}
	if pad := (8 - nbits%8) % 8; pad != 0 {
		acc = acc<<(pad&63) | (1<<pad - 1)
		nbits += pad
	}
	for nbits > 0 {
		nbits -= 8
		out[n] = byte(acc >> (nbits & 63))
		n++
	}
	return dst[:len(dst)+n], true
}
