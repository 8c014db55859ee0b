// Package qspec holds the data and the wire format of RFC 9204 (QPACK), as
// package spec does for RFC 7541: the static table, the field section
// prefix and a walker that splits field sections and encoder- and
// decoder-stream instructions into their parts without decoding any field
// against a dynamic table. QPACK's prefix integers and Huffman code are
// HPACK's (RFC 9204 §4.1.1, §4.1.2), so the walker reads them with
// wire.ReadInt and wire.DecodeHuffman.
//
// Every malformed input gives an *Error naming the offset and the RFC 9204
// section at fault. A field section arrives whole, so one cut short is an
// error; a stream arrives in pieces, so an instruction cut short at the end
// of the octets read so far gives ErrIncomplete instead.
//
// Files: qspec.go (Kind, Error, ErrIncomplete and the integer and string
// primitives), static_table.go (StaticTable, transcribed by hand),
// prefix.go (the field section prefix, §4.5.1), section.go (field lines,
// §4.5.2-§4.5.6) and stream.go (encoder and decoder instructions, §4.3,
// §4.4).
package qspec

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/internal/wire"
)

// MaxInt is the largest integer the walker accepts, 2^62-1: QPACK
// implementations must decode integers of up to 62 bits (§4.1.1), and no
// QUIC stream ID, capacity or count can exceed it. A larger value is an
// *Error.
const MaxInt = 1<<62 - 1

// EntryOverhead is the number of octets RFC 9204 §3.2.1 adds to the length
// of a field's name and value to get the size of its dynamic table entry;
// it is HPACK's.
const EntryOverhead = 32

// ErrIncomplete reports that the octets of a stream end inside an
// instruction: it is not malformed, the rest has not arrived yet.
var ErrIncomplete = errors.New("qpack: instruction incomplete: more stream octets needed")

// Error reports malformed QPACK input: where, which section of RFC 9204
// the input breaks, and how.
type Error struct {
	// Offset is the offset of the octet at fault in the input.
	Offset int
	// Section is the section of RFC 9204 that the input breaks, such as
	// "§4.5.1.1".
	Section string
	// Reason says what is wrong.
	Reason string
	// truncated marks an integer or string literal cut by the end of the
	// input, which the stream readers turn into ErrIncomplete.
	truncated bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("qpack: offset %d: %s (RFC 9204 %s)", e.Offset, e.Reason, e.Section)
}

// Kind is the kind of a field line representation (§4.5.2-§4.5.6) or of
// an encoder- or decoder-stream instruction (§4.3, §4.4).
type Kind uint8

// The field line representations and stream instructions of RFC 9204.
const (
	Indexed              Kind = iota + 1 // "Indexed Field Line" (§4.5.2), 1Txxxxxx
	IndexedPostBase                      // "Indexed Field Line with Post-Base Index" (§4.5.3), 0001xxxx
	LiteralNameRef                       // "Literal Field Line with Name Reference" (§4.5.4), 01NTxxxx
	LiteralPostBaseRef                   // "Literal Field Line with Post-Base Name Reference" (§4.5.5), 0000Nxxx
	LiteralName                          // "Literal Field Line with Literal Name" (§4.5.6), 001NHxxx
	SetCapacity                          // "Set Dynamic Table Capacity" (§4.3.1), 001xxxxx
	InsertNameRef                        // "Insert with Name Reference" (§4.3.2), 1Txxxxxx
	InsertLiteralName                    // "Insert with Literal Name" (§4.3.3), 01Hxxxxx
	Duplicate                            // "Duplicate" (§4.3.4), 000xxxxx
	SectionAck                           // "Section Acknowledgment" (§4.4.1), 1xxxxxxx
	StreamCancel                         // "Stream Cancellation" (§4.4.2), 01xxxxxx
	InsertCountIncrement                 // "Insert Count Increment" (§4.4.3), 00xxxxxx
)

var kindNames = [...]string{
	Indexed:              "indexed field line (§4.5.2)",
	IndexedPostBase:      "indexed field line with post-base index (§4.5.3)",
	LiteralNameRef:       "literal field line with name reference (§4.5.4)",
	LiteralPostBaseRef:   "literal field line with post-base name reference (§4.5.5)",
	LiteralName:          "literal field line with literal name (§4.5.6)",
	SetCapacity:          "set dynamic table capacity (§4.3.1)",
	InsertNameRef:        "insert with name reference (§4.3.2)",
	InsertLiteralName:    "insert with literal name (§4.3.3)",
	Duplicate:            "duplicate (§4.3.4)",
	SectionAck:           "section acknowledgment (§4.4.1)",
	StreamCancel:         "stream cancellation (§4.4.2)",
	InsertCountIncrement: "insert count increment (§4.4.3)",
}

// String returns the kind's short name with its section, such as
// "indexed field line (§4.5.2)".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// String is one string literal as it stood on the wire (§4.1.2).
type String struct {
	// Offset is the offset of the octet holding the H bit and the first
	// bits of the length.
	Offset int
	// Huffman reports the H bit.
	Huffman bool
	// Raw is the literal's octets after the length, as sent; it aliases
	// the input.
	Raw []byte
	// Text is the string: Raw itself, or Raw Huffman-decoded.
	Text string
}

// readInt reads an integer with an N-bit prefix whose first octet is b[p]
// (§4.1.1) and returns its value and the offset after it. section names
// the representation being read, for the error.
func readInt(b []byte, p int, prefix uint8, section string) (uint64, int, error) {
	in, next, err := wire.ReadInt(b, p, prefix)
	switch {
	case err != nil && intCut(b, p):
		return 0, p, &Error{Offset: p, Section: section, Reason: "input ends inside an integer", truncated: true}
	case err != nil:
		return 0, p, &Error{Offset: p, Section: section, Reason: "integer longer than 64 bits"}
	case in.Value > MaxInt:
		return 0, p, &Error{Offset: p, Section: section, Reason: fmt.Sprintf("integer %d is above 2^62-1 (§4.1.1)", in.Value)}
	}
	return in.Value, next, nil
}

// maxContinuation is the most continuation octets wire.ReadInt reads
// before it reports an integer longer than 64 bits.
const maxContinuation = 10

// intCut reports whether the integer at b[p] is cut by the end of b rather
// than too long: the input ends before its last octet, and with fewer
// continuation octets than make an integer too long.
func intCut(b []byte, p int) bool {
	if p >= len(b) {
		return true
	}
	rest := b[p+1:]
	for _, c := range rest {
		if c&0x80 == 0 {
			return false
		}
	}
	return len(rest) < maxContinuation
}

// readString reads a string literal whose H bit is the bit above an N-bit
// length prefix in b[p] (§4.1.2), and returns it with the offset after it.
// A Huffman code that is not well formed (RFC 7541 §5.2) is an error.
func readString(b []byte, p int, prefix uint8, section string) (String, int, error) {
	if p >= len(b) {
		return String{}, p, &Error{Offset: p, Section: section, Reason: "input ends before a string literal", truncated: true}
	}
	s := String{Offset: p, Huffman: b[p]&(1<<prefix) != 0}
	n, next, err := readInt(b, p, prefix, section)
	if err != nil {
		return s, p, err
	}
	if left := uint64(len(b) - next); n > left {
		return s, p, &Error{Offset: p, Section: section, Reason: fmt.Sprintf("string literal of %d octets runs past the end of the input (%d left)", n, left), truncated: true}
	}
	s.Raw = b[next : next+int(n)]
	if !s.Huffman {
		s.Text = string(s.Raw)
		return s, next + int(n), nil
	}
	text, problem := wire.DecodeHuffman(s.Raw)
	if problem != "" {
		return s, p, &Error{Offset: next, Section: "§4.1.2", Reason: "Huffman-coded string: " + problem}
	}
	s.Text = text
	return s, next + int(n), nil
}
