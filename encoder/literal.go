package encoder

import "slices"

// AppendStringLiteral appends s as a string literal (RFC 7541 §5.2) whose
// length has a prefixBits-bit prefix, 1 to 7 (other values are taken as
// 7), with the H bit the bit above it and the higher bits of the first
// octet taken from pattern, and returns the extended buffer. s is Huffman
// coded when that is strictly shorter, as under HuffmanShorter. QPACK's
// literals are of this form with prefixes of 3, 5 and 7 bits (RFC 9204
// §4.1.2); HPACK's have a 7-bit prefix.
func AppendStringLiteral(dst []byte, pattern byte, prefixBits uint8, s string) []byte {
	prefixBits = min(prefixBits-1, 6) + 1 // 0 wraps around to 7
	return appendStringLiteral(dst, pattern, prefixBits, s, len(s)-1)
}

// appendStringLiteral is AppendStringLiteral coding s when its Huffman
// code takes at most limit octets (never when limit is negative). It
// clears the low bits of pattern itself, so that AppendStringLiteral is
// small enough to inline.
//
// It codes in one pass: the Huffman coding goes after room for the raw
// length's prefix and gives up once it is too long; a shorter length
// prefix then moves the coding back.
func appendStringLiteral(dst []byte, pattern byte, prefixBits uint8, s string, limit int) []byte {
	// No code of Appendix B is shorter than 5 bits: strings of one or two
	// octets never code strictly shorter, and are not tried.
	const shortestCode = 5
	pattern &^= 2<<prefixBits - 1
	if len(s) > 0 && shortestCode*len(s) <= 8*limit {
		start := len(dst)
		if len(s) < 1<<prefixBits-1 {
			// The length, raw or coded, fits in the prefix: one
			// octet, the common case, written without integerLen
			// and appendInteger, whose prefix is not a constant here.
			coded, ok := appendHuffman(append(dst, 0), s, limit)
			if ok {
				coded[start] = pattern | 1<<prefixBits | byte(len(coded)-start-1)
				return coded
			}
			// dst grows here as the caller's buffer, not a new one.
			dst = coded[:start]
			dst = append(dst, pattern|byte(len(s)))
			return append(dst, s...)
		}
		prefixLen := integerLen(prefixBits, uint64(len(s)))
		// Room for the prefix, written below once the coding's length
		// is known: nothing needs clearing.
		if cap(dst)-len(dst) < prefixLen {
			dst = slices.Grow(dst, prefixLen)
		}
		dst = dst[:len(dst)+prefixLen]
		coded, ok := appendHuffman(dst, s, limit)
		dst = coded[:start]
		if ok {
			n := len(coded) - start - prefixLen
			if codedPrefixLen := integerLen(prefixBits, uint64(n)); codedPrefixLen < prefixLen {
				copy(coded[start+codedPrefixLen:], coded[start+prefixLen:])
				coded = coded[:start+codedPrefixLen+n]
			}
			appendInteger(dst, pattern|1<<prefixBits, prefixBits, uint64(n))
			return coded
		}
	}
	dst = appendInteger(dst, pattern, prefixBits, uint64(len(s)))
	return append(dst, s...)
}
