//go:build nghttp2

package libnghttp2

import "golang.org/x/net/http2/hpack"

// xnetTable reads the dynamic table of an x/net decoder that should hold n
// entries, without changing it: one block of indexed field representations
// of 62 to 61+n (RFC 7541 §6.1), which do not insert, then index 62+n, which
// must be out of range. It reports false when the table does not hold
// exactly n entries. The failed probe leaves the decoder inside a block
// (DecodeFull skips Close on error), so Close ends it: otherwise x/net
// would refuse a size update at the start of the next block.
func xnetTable(dec *hpack.Decoder, n int) ([]Field, bool) {
	var probe []byte
	for index := range n {
		probe = appendInt(probe, 0x80, 7, uint64(62+index))
	}
	fields, err := dec.DecodeFull(probe)
	if err != nil {
		dec.Close()
		return nil, false
	}
	if _, err := dec.DecodeFull(appendInt(nil, 0x80, 7, uint64(62+n))); err == nil {
		return nil, false
	}
	dec.Close()
	table := make([]Field, n)
	for i, f := range fields {
		table[i] = Field{Name: f.Name, Value: f.Value}
	}
	return table, true
}

// appendInt appends v as an RFC 7541 §5.1 integer with an n-bit prefix,
// the bits above the prefix taken from first.
func appendInt(dst []byte, first byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(limit))
	for v -= limit; v >= 128; v >>= 7 {
		dst = append(dst, byte(v&0x7f)|0x80)
	}
	return append(dst, byte(v))
}
