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
	// Four codes of at most 8 bits each (most printable octets) fit
	// beside fewer than 32 pending bits, so they need one flush check.
	for ; len(s) >= 4; s = s[4:] {
		_ = s[3] // one bounds check for the four loads below
		c0, c1, c2, c3 := huffmanTable[s[0]], huffmanTable[s[1]], huffmanTable[s[2]], huffmanTable[s[3]]
		l0, l1, l2, l3 := uint(c0&0xff), uint(c1&0xff), uint(c2&0xff), uint(c3&0xff)
		if l0+l1+l2+l3 > 32 {
			var ok bool
			if acc, nbits, n, ok = appendCodes(out, n, acc, nbits, s[:4]); !ok {
				return dst, false
			}
			continue
		}
		acc = acc<<(l0&63) | c0>>8
		acc = acc<<(l1&63) | c1>>8
		acc = acc<<(l2&63) | c2>>8
		acc = acc<<(l3&63) | c3>>8
		nbits += l0 + l1 + l2 + l3
		if nbits >= 32 {
			if n+4 > len(out) {
				return dst, false
			}
			nbits -= 32
			binary.BigEndian.PutUint32(out[n:], uint32(acc>>(nbits&63)))
			n += 4
		}
	}
	acc, nbits, n, ok := appendCodes(out, n, acc, nbits, s)
	if !ok {
		return dst, false
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

// appendCodes adds the codes of s one at a time to the nbits < 32 pending
// bits in acc, flushing 32 bits to out[n:] whenever there are 32. It
// reports false if a flush would pass the end of out.
func appendCodes(out []byte, n int, acc uint64, nbits uint, s []byte) (uint64, uint, int, bool) {
	for _, c := range s {
		code := huffmanTable[c]
		length := uint(code & 0xff)
		acc = acc<<(length&63) | code>>8
		nbits += length
		if nbits >= 32 {
			if n+4 > len(out) {
				return acc, nbits, n, false
			}
			nbits -= 32
			binary.BigEndian.PutUint32(out[n:], uint32(acc>>(nbits&63)))
			n += 4
		}
	}
	return acc, nbits, n, true
}
