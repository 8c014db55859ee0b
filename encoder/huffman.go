package encoder

import (
	"encoding/binary"
	"slices"
)

// appendHuffman appends the Huffman coding of s (RFC 7541 §5.2) to dst,
// padded to a byte boundary with the most significant bits of EOS (all
// ones), if it takes at most limit bytes; otherwise it reports false and
// the contents of dst beyond its length are unspecified. It grows dst by
// at most limit bytes, and writes only within cap(dst).
//
// The coder keeps its pending bits right-aligned in a 64-bit accumulator.
// The fast path takes eight octets at a time: when their codes total at
// most 56 bits (eight codes of 7 bits or less, or a mix, as in most header
// text), they join the fewer than 8 pending bits without overflow, and one
// unaligned 8-byte store writes every whole byte at once; the partial byte
// stays pending. It needs 8 bytes of room past the output so far, which the
// capacity of dst usually gives. The rest is coded a code at a time with
// exact bounds, flushing 32 bits at a time; so is everything after the
// first eight octets whose codes total more (random or binary data, whose
// codes are mostly 20-30 bits long: there the pair lookups only cost).
// Whatever is written only grows, so the coding stops as soon as it must
// pass the limit.
func appendHuffman(dst []byte, s []byte, limit int) ([]byte, bool) {
	dst = slices.Grow(dst, limit)
	room := dst[len(dst):cap(dst)] // limit bytes or more
	n := 0
	var acc uint64 // pending bits in the low nbits bits; higher bits are stale
	var nbits uint
	for len(s) >= 8 && n+8 <= len(room) {
		// Every octet left takes at least 5 bits: give up as soon as
		// even that cannot fit, which for octets of long codes (random
		// or binary data) comes long before the output passes limit.
		if 8*n+int(nbits)+minCodeLen*len(s) > 8*limit {
			return dst, false
		}
		x := binary.LittleEndian.Uint64(s)
		p0, p1 := huffmanPairs[uint16(x)], huffmanPairs[uint16(x>>16)]
		p2, p3 := huffmanPairs[uint16(x>>32)], huffmanPairs[uint16(x>>48)]
		l0, l1, l2, l3 := uint(p0&pairLenMask), uint(p1&pairLenMask), uint(p2&pairLenMask), uint(p3&pairLenMask)
		total := l0 + l1 + l2 + l3
		if total > 56 {
			// Long codes (octets outside the usual text, as in
			// random or binary data): the rest of s goes one octet
			// at a time, without more pair lookups.
			break
		}
		s = s[8:]
		// Join the pairs two by two, so that the accumulator waits on
		// one shift and one or per eight octets.
		q0 := uint64(p0>>pairLenBits)<<(l1&63) | uint64(p1>>pairLenBits)
		q1 := uint64(p2>>pairLenBits)<<(l3&63) | uint64(p3>>pairLenBits)
		acc = acc<<(total&63) | q0<<((l2+l3)&63) | q1
		nbits += total
		binary.BigEndian.PutUint64(room[n:], acc<<((64-nbits)&63))
		n += int(nbits / 8)
		nbits %= 8
	}
	out := room[:limit]
	if n > limit {
		return dst, false
	}
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

// huffmanPairs holds the Huffman codes of every pair of octets, the first
// octet of the pair in the low byte of the index: the two codes one after
// the other, shifted left by pairLenBits, and their total length in bits
// in the low pairLenBits bits. A pair whose codes total more than
// maxPairLen bits holds a length of pairLenMask and no code, which sends
// the eight octets it is part of down the slow path. The table takes 256
// KiB; coding header text touches a small part of it.
var huffmanPairs [1 << 16]uint32

func init() {
	for i := range huffmanPairs {
		a, b := huffmanTable[byte(i)], huffmanTable[byte(i>>8)]
		length := a&0xff + b&0xff
		if length > maxPairLen {
			huffmanPairs[i] = pairLenMask
			continue
		}
		code := a>>8<<(b&0xff) | b>>8
		huffmanPairs[i] = uint32(code<<pairLenBits | length)
	}
}

const (
	minCodeLen  = 5 // bits of the shortest code of Appendix B
	pairLenBits = 6
	pairLenMask = 1<<pairLenBits - 1
	maxPairLen  = 32 - pairLenBits
)
