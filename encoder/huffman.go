package encoder

import "encoding/binary"

// huffmanLen returns the length in bytes of the Huffman coding of s
// (RFC 7541 §5.2), padding included.
func huffmanLen(s []byte) int {
	var n uint64
	for _, c := range s {
		n += huffmanTable[c] & 0xff
	}
	return int((n + 7) / 8)
}

// appendHuffman appends the Huffman coding of s (RFC 7541 §5.2) to dst,
// padded to a byte boundary with the most significant bits of EOS (all
// ones), and returns the extended buffer.
//
// Codes are at most 30 bits long, so a 64-bit accumulator holding fewer
// than 32 pending bits always has room for the next code; it is flushed 32
// bits at a time.
func appendHuffman(dst []byte, s []byte) []byte {
	var acc uint64 // pending bits in the low nbits bits
	var nbits uint
	for _, c := range s {
		code := huffmanTable[c]
		length := uint(code & 0xff)
		acc = acc<<(length&63) | code>>8
		nbits += length
		if nbits >= 32 {
			nbits -= 32
			dst = binary.BigEndian.AppendUint32(dst, uint32(acc>>(nbits&63)))
		}
	}
	if pad := (8 - nbits%8) % 8; pad != 0 {
		acc = acc<<(pad&63) | (1<<pad - 1)
		nbits += pad
	}
	for nbits > 0 {
		nbits -= 8
		dst = append(dst, byte(acc>>(nbits&63)))
	}
	return dst
}
