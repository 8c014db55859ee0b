// Package wire splits an HPACK header block (RFC 7541) into its
// representations without decoding any field against a table. It keeps
// what a decoder throws away: how many octets each integer took and
// whether that was the fewest (§5.1), whether each string literal was
// Huffman-coded and how its last octet was padded (§5.2). Checks of an
// encoder's output need exactly that, and a decoder cannot report it.
//
// Walk reads a whole block; ReadInt and ReadString read one primitive;
// DecodeHuffman and HuffmanLen decode and measure the Huffman code of
// Appendix B. The certifier and the fuzz targets share this one walker.
//
// Files: wire.go (Walk, ReadInt, ReadString, Representation and Error) and
// huffman.go (DecodeHuffman, a state machine that reads the code four bits
// at a time, and HuffmanLen).
package wire

import "fmt"

// Kind is the kind of a representation in a header block (RFC 7541 §6).
type Kind uint8

// The representations of RFC 7541 §6, told apart by the first octet's
// high bits.
const (
	Indexed         Kind = iota // "Indexed Header Field Representation" (§6.1), pattern 1xxxxxxx
	Incremental                 // "Literal Header Field with Incremental Indexing" (§6.2.1), pattern 01xxxxxx
	WithoutIndexing             // "Literal Header Field without Indexing" (§6.2.2), pattern 0000xxxx
	NeverIndexed                // "Literal Header Field Never Indexed" (§6.2.3), pattern 0001xxxx
	SizeUpdate                  // "Dynamic Table Size Update" (§6.3), pattern 001xxxxx
)

var kindNames = [...]string{
	Indexed:         "indexed (§6.1)",
	Incremental:     "literal with incremental indexing (§6.2.1)",
	WithoutIndexing: "literal without indexing (§6.2.2)",
	NeverIndexed:    "literal never indexed (§6.2.3)",
	SizeUpdate:      "dynamic table size update (§6.3)",
}

// String returns the kind's short name with its section, as reports print
// it, such as "indexed (§6.1)".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Int is one integer as it was encoded with an N-bit prefix (RFC 7541
// §5.1).
type Int struct {
	// Offset is the offset of the integer's first octet, the one that
	// holds the prefix, in the block.
	Offset int
	// Value is the integer's value.
	Value uint64
	// Prefix is N, the number of bits of the first octet the integer
	// uses: 7 for an indexed field and a string length, 6 for the name
	// index of a literal with incremental indexing, 5 for a size update,
	// 4 for the name index of a literal without indexing or never indexed.
	Prefix uint8
	// Octets is the number of octets the integer took.
	Octets int
	// Minimal reports whether the integer took the fewest octets its value
	// needs: its last continuation octet is not a redundant zero. A single
	// zero continuation octet is minimal: it encodes a value of exactly
	// 2^N-1.
	Minimal bool
}

// String is one string literal as it was encoded (RFC 7541 §5.2). Its
// octets are block[Length.Offset+Length.Octets:][:Encoded].
type String struct {
	// Length is the string length, a 7-bit prefix integer whose first
	// octet also holds the H bit.
	Length Int
	// Huffman reports the H bit: the octets are Huffman-coded.
	Huffman bool
	// Encoded is the number of octets after the length, as they stand on
	// the wire: Length.Value.
	Encoded int
	// Text is the string's decoded octets; for a Huffman-coded string
	// with a problem, as far as decoding got.
	Text string
	// PadErr describes the first problem of a Huffman-coded string, as
	// DecodeHuffman does: padding longer than 7 bits or not all ones, EOS
	// inside the string, an invalid code. It is "" for a well-formed
	// string and for every raw string.
	PadErr string
}

// Representation is one header field representation or table size update
// of a header block (RFC 7541 §6).
type Representation struct {
	Kind Kind
	// Offset is the offset of the representation's first octet in the
	// block.
	Offset int
	// Index is the index of an indexed field, the name index of a literal
	// (0 when the name is a literal of its own), or the new maximum size
	// of a size update.
	Index Int
	// Name is the name literal, nil when the name is indexed or the
	// representation has no name.
	Name *String
	// Value is the value literal, nil for indexed fields and size updates.
	Value *String
}

// Error reports a block the walker could not split: an integer or a
// string literal that runs past the end of the block, or an integer
// larger than 64 bits.
type Error struct {
	// Offset is the offset in the block of the integer or string literal
	// at fault.
	Offset int
	// Reason says what is wrong with it.
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("hpack: offset %d: %s", e.Offset, e.Reason)
}

// Walk splits block into its representations (RFC 7541 §6). It checks the
// wire format only: an index of 0, an index past the tables, a size update
// after a field or above the acknowledged setting all walk. On an error it
// returns the representations read before the one at fault and an *Error.
func Walk(block []byte) ([]Representation, error) {
	return WalkLimit(block, 0)
}

// WalkLimit is Walk reading at most max representations (none when max is
// 0 or less): past them it returns the first max and an *Error at the
// offset of the next one. A caller that bounds the header list a block may
// decode to (every field adds at least 32 octets to its size, RFC 7541
// §4.1) bounds the representations it needs to read, and with them the
// memory a block of tiny representations can take.
func WalkLimit(block []byte, max int) ([]Representation, error) {
	var reps []Representation
	for p := 0; p < len(block); {
		if max > 0 && len(reps) == max {
			return reps, &Error{p, fmt.Sprintf("more than %d representations in the block, the most the header-list limit leaves room for", max)}
		}
		b := block[p]
		rep := Representation{Offset: p}
		var prefix uint8
		switch {
		case b&0x80 != 0:
			rep.Kind, prefix = Indexed, 7
		case b&0xc0 == 0x40:
			rep.Kind, prefix = Incremental, 6
		case b&0xe0 == 0x20:
			rep.Kind, prefix = SizeUpdate, 5
		case b&0xf0 == 0x10:
			rep.Kind, prefix = NeverIndexed, 4
		default:
			rep.Kind, prefix = WithoutIndexing, 4
		}
		var err error
		if rep.Index, p, err = ReadInt(block, p, prefix); err != nil {
			return reps, err
		}
		if rep.Kind != Indexed && rep.Kind != SizeUpdate {
			if rep.Index.Value == 0 {
				if rep.Name, p, err = ReadString(block, p); err != nil {
					return reps, err
				}
			}
			if rep.Value, p, err = ReadString(block, p); err != nil {
				return reps, err
			}
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// ReadInt reads an integer with a prefix of the given number of bits, 1 to
// 8, whose first octet is b[p] (RFC 7541 §5.1), ignoring the bits above
// the prefix. It returns the integer and the offset after it. It reads any
// value up to 2^64-1, redundant zero continuation octets included (they
// make Minimal false), and returns an *Error for an integer that runs past
// the end of b or past 2^64-1.
func ReadInt(b []byte, p int, prefix uint8) (Int, int, error) {
	in := Int{Offset: p, Prefix: prefix, Minimal: true}
	if p >= len(b) {
		return in, p, &Error{p, "block ends before an integer"}
	}
	limit := uint64(1)<<prefix - 1
	in.Value = uint64(b[p]) & limit
	p++
	if in.Value < limit {
		in.Octets = 1
		return in, p, nil
	}
	for shift := uint(0); ; shift += 7 {
		if p >= len(b) {
			return in, p, &Error{in.Offset, "integer runs past the end of the block"}
		}
		c := b[p]
		p++
		group := uint64(c & 0x7f)
		if shift > 63 || group<<(shift&63)>>(shift&63) != group || in.Value+group<<(shift&63) < in.Value {
			return in, p, &Error{in.Offset, "integer longer than 64 bits"}
		}
		in.Value += group << (shift & 63)
		if c&0x80 == 0 {
			// A last continuation octet of zero adds nothing, except when
			// it is the only one (the value is exactly 2^N-1).
			in.Minimal = c != 0 || shift == 0
			in.Octets = p - in.Offset
			return in, p, nil
		}
	}
}

// ReadString reads a string literal whose first octet is b[p] (RFC 7541
// §5.2), decoding it if it is Huffman-coded, and returns it with the
// offset after it. A Huffman-coded string whose code is not well formed is
// returned with PadErr set, not as an error; the error, an *Error, is for
// a literal that runs past the end of b.
func ReadString(b []byte, p int) (*String, int, error) {
	if p >= len(b) {
		return nil, p, &Error{p, "block ends before a string literal"}
	}
	s := &String{Huffman: b[p]&0x80 != 0}
	var err error
	if s.Length, p, err = ReadInt(b, p, 7); err != nil {
		return nil, p, err
	}
	if left := len(b) - p; s.Length.Value > uint64(left) {
		return nil, p, &Error{s.Length.Offset, fmt.Sprintf("string of %d octets runs past the end of the block (%d left)", s.Length.Value, left)}
	}
	raw := b[p : p+int(s.Length.Value)]
	s.Encoded = len(raw)
	if s.Huffman {
		s.Text, s.PadErr = DecodeHuffman(raw)
	} else {
		s.Text = string(raw)
	}
	return s, p + len(raw), nil
}
