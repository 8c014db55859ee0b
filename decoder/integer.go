package decoder

// maxContinuation is the number of continuation octets an integer may
// have: five carry 35 bits, enough for any value up to 2^32-1 after the
// prefix. A longer integer (with leading zero groups) is refused rather
// than read on, so that no input makes the decoder loop per octet.
const maxContinuation = 5

// decodeInt decodes the integer with a prefix of prefixBits bits (1-8)
// starting at src[i] (RFC 7541 §5.1) and returns it with the offset just
// past it. A value above 2^32-1, more than maxContinuation continuation
// octets or an integer cut by the end of src is an error, e set to name
// the offset of the octet at fault.
func decodeInt(src []byte, i int, prefixBits uint8, e *Error) (uint32, int, error) {
	if i >= len(src) {
		return 0, i, e.set(i, RuleIntegerTruncated)
	}
	limit := uint64(1)<<prefixBits - 1
	v := uint64(src[i]) & limit
	i++
	if v < limit {
		return uint32(v), i, nil
	}
	shift := uint(0)
	for k := 0; ; k++ {
		if i >= len(src) {
			return 0, i, e.set(i, RuleIntegerTruncated)
		}
		if k == maxContinuation {
			return 0, i, e.set(i, RuleIntegerTooLong)
		}
		b := src[i]
		v += uint64(b&0x7f) << shift
		if v > 1<<32-1 {
			return 0, i, e.set(i, RuleIntegerOverflow)
		}
		i++
		if b&0x80 == 0 {
			return uint32(v), i, nil
		}
		shift += 7
	}
}
