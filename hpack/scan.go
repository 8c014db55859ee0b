package hpack

// chunkFields is the most field representations one DecodeFragment call
// is given: it bounds the fields staged before they are emitted, and so
// the memory a Write holds, whatever the input.
const chunkFields = 64

// fieldKind says how a field representation (RFC 7541 §6) touches the
// dynamic table, which is what the Decoder needs to keep its strings in
// step with the table of package decoder.
type fieldKind uint8

const (
	kindIndexed  fieldKind = iota // "Indexed Header Field" (§6.1)
	kindIndexing                  // "Literal Header Field with Incremental Indexing" (§6.2.1)
	kindLiteral                   // without indexing (§6.2.2) or never indexed (§6.2.3)
)

// pendingField is one field of the chunk being decoded: its kind and index
// as scan read them, then its name and value as the decoder's callback
// found them, until flush emits it.
type pendingField struct {
	kind fieldKind
	// index is the §6.1 index, or a literal's name index (0 for a
	// literal name).
	index     uint32
	sensitive bool
	// name and value are set when they are the static table's, the
	// string table's, or strings of their own; textName and textValue
	// say they are instead the chunk's text from nameAt to valueAt and
	// from valueAt to end.
	name, value          string
	textName, textValue  bool
	nameAt, valueAt, end int
}

// scanResult is what scan found in its input.
type scanResult struct {
	// end is the length of the complete representations scanned.
	end int
	// longest is the longest wire length of a string in them.
	longest uint64
	// cut is set when input[end:] is a representation cut by the end of
	// the input; cutLength is then the longest string length it declares.
	cut       bool
	cutLength uint64
}

// scan reads the representations at the start of input without decoding
// them, up to chunkFields fields or one cut by input's end, and records
// each field's kind and index in d.fields. It is as lenient as package
// decoder about integers and reads no further than a malformed one: it
// then reports the rest as complete, for the decoder to name the error.
func (d *Decoder) scan(input []byte) scanResult {
	d.fields = d.fields[:0]
	var r scanResult
	i := 0
	for i < len(input) && len(d.fields) < chunkFields {
		start := i
		b := input[i]
		kind, prefix, update := kindLiteral, uint8(4), false
		switch {
		case b&0x80 != 0:
			kind, prefix = kindIndexed, 7
		case b&0xc0 == 0x40:
			kind, prefix = kindIndexing, 6
		case b&0xe0 == 0x20: // "Dynamic Table Size Update" (§6.3)
			prefix, update = 5, true
		}
		index, next, st := readInt(input, i, prefix)
		if st != intComplete {
			return r.stop(st, start, len(input), 0)
		}
		i = next
		if update {
			continue
		}
		if kind != kindIndexed {
			strings := 1
			if index == 0 {
				strings = 2
			}
			var declared uint64
			for ; strings > 0; strings-- {
				n, next, st := readInt(input, i, 7)
				declared = max(declared, uint64(n))
				if st == intComplete && uint64(n) > uint64(len(input)-next) {
					st = intCut
				}
				if st != intComplete {
					return r.stop(st, start, len(input), declared)
				}
				i = next + int(n)
			}
			r.longest = max(r.longest, declared)
		}
		d.fields = append(d.fields, pendingField{kind: kind, index: index})
	}
	r.end = i
	return r
}

// stop ends a scan at the representation starting at start: cut there,
// declaring strings up to declared octets long, or malformed, when the
// whole input, inputLen octets, goes to the decoder to report it.
func (r scanResult) stop(st intStatus, start, inputLen int, declared uint64) scanResult {
	if st == intCut {
		r.end, r.cut, r.cutLength = start, true, declared
		return r
	}
	r.end = inputLen
	return r
}

// literalIndex returns the name index of the literal representation (RFC
// 7541 §6.2) starting rep, or 0 when rep starts another representation or
// its index is not all there.
func literalIndex(rep []byte) uint32 {
	prefix := uint8(4)
	switch b := rep[0]; {
	case b&0x80 != 0, b&0xe0 == 0x20:
		return 0
	case b&0xc0 == 0x40:
		prefix = 6
	}
	idx, _, st := readInt(rep, 0, prefix)
	if st != intComplete {
		return 0
	}
	return idx
}

// intStatus is how readInt found an integer.
type intStatus uint8

const (
	intComplete  intStatus = iota
	intCut                 // cut by the end of the input
	intMalformed           // refused by package decoder's bounds
)

// readInt reads the integer with an N-bit prefix at p[i] (RFC 7541 §5.1)
// within package decoder's bounds: a value above 2^32-1 or more than 5
// continuation octets is malformed, as it is there, unless the input ends
// first.
func readInt(p []byte, i int, prefixBits uint8) (uint32, int, intStatus) {
	limit := uint64(1)<<prefixBits - 1
	if i >= len(p) {
		return 0, i, intCut
	}
	v := uint64(p[i]) & limit
	i++
	if v < limit {
		return uint32(v), i, intComplete
	}
	for k, shift := 0, uint(0); ; k, shift = k+1, shift+7 {
		if i >= len(p) {
			return 0, i, intCut
		}
		if k == 5 {
			return 0, i, intMalformed
		}
		b := p[i]
		v += uint64(b&0x7f) << shift
		if v > 1<<32-1 {
			return 0, i, intMalformed
		}
		i++
		if b&0x80 == 0 {
			return uint32(v), i, intComplete
		}
	}
}
