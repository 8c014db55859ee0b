package encoder

import "github.com/hpackcert/hpackcert/internal/spec"

// AppendSizeUpdates appends the pending "Dynamic Table Size Update"
// representations (RFC 7541 §6.3) to dst and returns the extended buffer:
// the smallest size set by SetMaxDynamicTableSize since the last field, then
// the final size if different, or nothing when no update is due.
//
// AppendField does this by itself before the first field of a block. Call
// AppendSizeUpdates at the start of a header block that may carry no fields
// (an empty trailer block, say): §4.2 requires the update at the beginning
// of the first header block after the change, fields or not. It appends at
// most 12 bytes.
func (e *Encoder) AppendSizeUpdates(dst []byte) []byte {
	if !e.pending {
		return dst
	}
	return e.appendSizeUpdates(dst)
}

// AppendInteger appends v as an HPACK integer (RFC 7541 §5.1) with an
// N-bit prefix, N = prefixBits, using the fewest octets, and returns the
// extended buffer. The high 8-N bits of the first octet are taken from
// pattern; its low N bits are ignored. prefixBits must be 1 to 8: other
// values are taken as 8.
func AppendInteger(dst []byte, pattern byte, prefixBits uint8, v uint64) []byte {
	prefixBits = validPrefix(prefixBits)
	return appendInteger(dst, pattern&^byte(1<<prefixBits-1), prefixBits, v)
}

// IntegerLen returns the number of octets AppendInteger appends for v with
// a prefixBits-bit prefix.
func IntegerLen(prefixBits uint8, v uint64) int {
	return integerLen(validPrefix(prefixBits), v)
}

func validPrefix(prefixBits uint8) uint8 {
	if prefixBits == 0 || prefixBits > 8 {
		return 8
	}
	return prefixBits
}

// AppendHuffman appends the Huffman coding of s (RFC 7541 §5.2, Appendix
// B), padded to an octet boundary with the most significant bits of EOS, to
// dst and returns the extended buffer. It grows dst at most once, by
// HuffmanLen(s) octets.
func AppendHuffman(dst, s []byte) []byte {
	return AppendHuffmanString(dst, readOnlyString(s))
}

// AppendHuffmanString is AppendHuffman for a string argument; it does not
// convert s and does not allocate beyond growing dst.
func AppendHuffmanString(dst []byte, s string) []byte {
	room := dst[len(dst):cap(dst)]
	if len(s) < 8 && len(room) >= 8 {
		if n, ok := huffmanShort(room, s); ok {
			return dst[:len(dst)+n]
		}
	}
	pairTablesOnce.Do(buildPairTables)
	// No code is longer than 30 bits: with room for 4 octets an octet
	// and 8 more for the last 8-byte store, huffmanFast codes and pads
	// all of s without its length being counted first.
	if len(room)/4 >= len(s)+2 {
		return dst[:len(dst)+huffmanString(room, s)]
	}
	return appendHuffmanLen(dst, s, huffmanLen(s))
}

// HuffmanLen returns the number of octets of the Huffman coding of s,
// padding included.
func HuffmanLen(s []byte) int {
	return huffmanLen(s)
}

// huffmanLen is HuffmanLen for a string or a byte slice, so that neither
// is converted to the other (a copy in the purego build).
func huffmanLen[S ~string | ~[]byte](s S) int {
	// Four independent sums over eight octets at a time.
	var n0, n1, n2, n3 uint
	for ; len(s) >= 8; s = s[8:] {
		_ = s[7] // one bounds check for the eight reads
		n0 += uint(spec.HuffmanCodeLens[s[0]]) + uint(spec.HuffmanCodeLens[s[4]])
		n1 += uint(spec.HuffmanCodeLens[s[1]]) + uint(spec.HuffmanCodeLens[s[5]])
		n2 += uint(spec.HuffmanCodeLens[s[2]]) + uint(spec.HuffmanCodeLens[s[6]])
		n3 += uint(spec.HuffmanCodeLens[s[3]]) + uint(spec.HuffmanCodeLens[s[7]])
	}
	for i := range len(s) {
		n0 += uint(spec.HuffmanCodeLens[s[i]])
	}
	return int((n0 + n1 + n2 + n3 + 7) / 8)
}
