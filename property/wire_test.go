package property

import (
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The block walker below reads the representations of RFC 7541 §6 without
// decoding them against a table. The oracles decode; the walker answers the
// questions about form that a decoder does not surface: was each integer the
// shortest one (§5.1), was Huffman used exactly when it is shorter (§5.2),
// which representation carried each field.

// repKind is the representation of one item of a header block.
type repKind int

const (
	repIndexed     repKind = iota // §6.1 Indexed Header Field
	repIncremental                // §6.2.1 Literal with Incremental Indexing
	repWithout                    // §6.2.2 Literal without Indexing
	repNever                      // §6.2.3 Literal Never Indexed
	repSizeUpdate                 // §6.3 Dynamic Table Size Update
)

func (k repKind) String() string {
	switch k {
	case repIndexed:
		return "indexed"
	case repIncremental:
		return "literal-incremental"
	case repWithout:
		return "literal-without-indexing"
	case repNever:
		return "literal-never-indexed"
	case repSizeUpdate:
		return "size-update"
	}
	return fmt.Sprintf("repKind(%d)", int(k))
}

// wireInt is one integer as it appeared on the wire (§5.1).
type wireInt struct {
	value  uint64
	prefix uint8
	octets int // octets used, the prefix octet included
}

// wireString is one string literal as it appeared on the wire (§5.2).
type wireString struct {
	huffman bool
	length  wireInt
	payload []byte // still Huffman-coded when huffman is set
}

// rep is one representation in a block.
type rep struct {
	kind   repKind
	offset int
	index  wireInt // §6.1 index, §6.2 name index (0: literal name), §6.3 new size
	name   *wireString
	value  wireString
}

// readInt reads an integer with an n-bit prefix from b (§5.1).
func readInt(b []byte, n uint8) (wireInt, error) {
	if len(b) == 0 {
		return wireInt{}, fmt.Errorf("integer: no octets")
	}
	limit := uint64(1)<<n - 1
	v := uint64(b[0]) & limit
	if v < limit {
		return wireInt{value: v, prefix: n, octets: 1}, nil
	}
	var shift uint
	for i := 1; i < len(b); i++ {
		if shift > 56 {
			return wireInt{}, fmt.Errorf("integer: more than 64 bits")
		}
		v += uint64(b[i]&0x7f) << shift
		shift += 7
		if b[i]&0x80 == 0 {
			return wireInt{value: v, prefix: n, octets: i + 1}, nil
		}
	}
	return wireInt{}, fmt.Errorf("integer: truncated after %d octets", len(b))
}

// intLen is the length of the shortest encoding of v with an n-bit prefix,
// computed from the definition in §5.1 rather than by encoding.
func intLen(v uint64, n uint8) int {
	limit := uint64(1)<<n - 1
	if v < limit {
		return 1
	}
	octets := 2
	for rest := v - limit; rest >= 128; rest >>= 7 {
		octets++
	}
	return octets
}

// minimal reports whether i used the shortest encoding of its value.
func (i wireInt) minimal() bool { return i.octets == intLen(i.value, i.prefix) }

// readString reads a string literal from b (§5.2).
func readString(b []byte) (wireString, int, error) {
	if len(b) == 0 {
		return wireString{}, 0, fmt.Errorf("string: no octets")
	}
	n, err := readInt(b, 7)
	if err != nil {
		return wireString{}, 0, fmt.Errorf("string length: %v", err)
	}
	end := uint64(n.octets) + n.value
	if end > uint64(len(b)) {
		return wireString{}, 0, fmt.Errorf("string: length %d runs past the block", n.value)
	}
	return wireString{huffman: b[0]&0x80 != 0, length: n, payload: b[n.octets:end]}, int(end), nil
}

// walkBlock splits a header block into its representations.
func walkBlock(b []byte) ([]rep, error) {
	var reps []rep
	for off := 0; off < len(b); {
		r := rep{offset: off}
		var prefix uint8
		switch c := b[off]; {
		case c&0x80 != 0:
			r.kind, prefix = repIndexed, 7
		case c&0xc0 == 0x40:
			r.kind, prefix = repIncremental, 6
		case c&0xe0 == 0x20:
			r.kind, prefix = repSizeUpdate, 5
		case c&0xf0 == 0x10:
			r.kind, prefix = repNever, 4
		default:
			r.kind, prefix = repWithout, 4
		}
		idx, err := readInt(b[off:], prefix)
		if err != nil {
			return nil, fmt.Errorf("offset %d: %s: %v", off, r.kind, err)
		}
		r.index = idx
		p := off + idx.octets
		if r.kind != repIndexed && r.kind != repSizeUpdate {
			if idx.value == 0 {
				name, n, err := readString(b[p:])
				if err != nil {
					return nil, fmt.Errorf("offset %d: %s name: %v", p, r.kind, err)
				}
				r.name = &name
				p += n
			}
			value, n, err := readString(b[p:])
			if err != nil {
				return nil, fmt.Errorf("offset %d: %s value: %v", p, r.kind, err)
			}
			r.value = value
			p += n
		}
		reps = append(reps, r)
		off = p
	}
	return reps, nil
}

// onlyField returns the representation of a block that must hold one
// field and nothing else (no size update).
func onlyField(reps []rep) (rep, error) {
	if len(reps) != 1 || reps[0].kind == repSizeUpdate {
		kinds := make([]string, len(reps))
		for i, r := range reps {
			kinds[i] = r.kind.String()
		}
		return rep{}, fmt.Errorf("block holds %v; want one field and nothing else", kinds)
	}
	return reps[0], nil
}

// onlyLiteral is onlyField for a literal with a new name.
func onlyLiteral(reps []rep) (rep, error) {
	r, err := onlyField(reps)
	if err == nil && (r.kind == repIndexed || r.name == nil) {
		err = fmt.Errorf("block holds a %s with name index %d; want a literal with a new name", r.kind, r.index.value)
	}
	return r, err
}

// huffmanLen is the length in octets of the Huffman coding of s: the sum of
// its code lengths from Appendix B, padded to a whole octet.
func huffmanLen(s []byte) int {
	bits := 0
	for _, c := range s {
		bits += int(spec.HuffmanCodeLens[c])
	}
	return (bits + 7) / 8
}

// checkForm checks the form rules of every representation in a block: each
// integer is the shortest encoding (§5.1); a string is Huffman coded exactly
// when the policy's mode says (by default: when strictly shorter), and then
// has exactly the computed length (§5.2); size updates come first, at most
// two of them (§4.2). plain holds the name and value each field must carry,
// to compute Huffman lengths from.
func checkForm(reps []rep, plain [][2]string, mode encoder.HuffmanMode) error {
	fields := 0
	for i, r := range reps {
		if !r.index.minimal() {
			return fmt.Errorf("offset %d: %s: integer %d takes %d octets with a %d-bit prefix; shortest is %d (RFC 7541 §5.1)",
				r.offset, r.kind, r.index.value, r.index.octets, r.index.prefix, intLen(r.index.value, r.index.prefix))
		}
		if r.kind == repSizeUpdate {
			if fields > 0 || i > 1 {
				return fmt.Errorf("offset %d: size update as item %d of the block, after %d fields (RFC 7541 §4.2 allows at most two, first)", r.offset, i, fields)
			}
			continue
		}
		if fields >= len(plain) {
			return fmt.Errorf("offset %d: %s: more fields on the wire than decoded (%d)", r.offset, r.kind, len(plain))
		}
		if r.kind != repIndexed {
			if r.name != nil {
				if err := checkString(*r.name, plain[fields][0], mode); err != nil {
					return fmt.Errorf("offset %d: %s name: %v", r.offset, r.kind, err)
				}
			}
			if err := checkString(r.value, plain[fields][1], mode); err != nil {
				return fmt.Errorf("offset %d: %s value: %v", r.offset, r.kind, err)
			}
		}
		fields++
	}
	if fields != len(plain) {
		return fmt.Errorf("%d fields on the wire, %d decoded", fields, len(plain))
	}
	return nil
}

// checkString checks one string literal against the plain string it
// carries, under the policy's Huffman mode.
func checkString(w wireString, plain string, mode encoder.HuffmanMode) error {
	if !w.length.minimal() {
		return fmt.Errorf("length %d takes %d octets; shortest is %d (RFC 7541 §5.1)", w.length.value, w.length.octets, intLen(w.length.value, 7))
	}
	hl := huffmanLen([]byte(plain))
	var coded bool
	var rule string
	switch mode {
	case encoder.HuffmanNever:
		coded, rule = false, "HuffmanNever: never Huffman"
	case encoder.HuffmanNotLonger:
		coded, rule = plain != "" && hl <= len(plain), "HuffmanNotLonger: Huffman when not longer"
	default:
		coded, rule = hl < len(plain), "HuffmanShorter: Huffman only when strictly shorter"
	}
	switch {
	case w.huffman && !coded:
		return fmt.Errorf("Huffman-coded %s in %d octets; raw is %d (%s)", short(plain), hl, len(plain), rule)
	case !w.huffman && coded:
		return fmt.Errorf("raw %s in %d octets; Huffman is %d (%s)", short(plain), len(plain), hl, rule)
	case w.huffman && len(w.payload) != hl:
		return fmt.Errorf("Huffman coding of %s is %d octets; the code lengths add up to %d", short(plain), len(w.payload), hl)
	case !w.huffman && string(w.payload) != plain:
		return fmt.Errorf("raw payload %s; want %s", short(string(w.payload)), short(plain))
	}
	return nil
}
