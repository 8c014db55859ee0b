// Package qencoder is the reference QPACK (RFC 9204) encoder, a sibling
// of package encoder (the HPACK one) that shares its prefix integers and
// Huffman code (RFC 9204 §4.1.1, §4.1.2): field sections are written with
// encoder.AppendInteger and encoder.AppendHuffmanString.
//
// This first version uses the static table only. Every field section has
// a Required Insert Count and a Base of 0 (§4.5.1), and no encoder-stream
// instruction is ever needed, so a decoder with any settings, including a
// dynamic table capacity of 0, decodes every section on arrival, in any
// order, and never blocks.
//
// # Indexing policy
//
// Each field is sent as the first of these that applies (§4.5.2-§4.5.6):
//   - a field equal to a static entry, unless sensitive: "Indexed Field
//     Line" of that entry (T=1);
//   - a field whose name is a static name: "Literal Field Line with Name
//     Reference" to the first entry of that name (T=1);
//   - otherwise "Literal Field Line with Literal Name".
//
// A literal line carries the N bit ("never indexed", §4.5.4-§4.5.6, §7.1.3)
// for a field marked Sensitive, and, as the HPACK encoder's DefaultPolicy
// does, for "authorization" and "proxy-authorization" at any length and
// for a "cookie" shorter than Config.ShortCookieLen octets: short cookies
// and credentials are easy to guess from compressed sizes once an
// intermediary indexes them. A sensitive field equal to a static entry is
// sent as a literal with a reference to that entry's name, so that the N
// bit travels with it. Names and values are sent as given: HTTP/3
// requires lowercase names, and checking them is the caller's affair.
//
// A string literal is Huffman coded when that is strictly shorter, as
// under encoder.HuffmanShorter.
//
// # Memory
//
// New allocates everything the encoder uses. AppendSection allocates
// nothing when dst has MaxSectionLen(fields) octets of room; otherwise it
// grows dst as append does.
//
// # Not done yet
//
// The dynamic table (Set Dynamic Table Capacity, inserts on the encoder
// stream, Required Insert Count and Base above 0, post-base references),
// the decoder stream (Section Acknowledgment, Stream Cancellation, Insert
// Count Increment) and the blocked-streams budget are left for a later
// version, which will add the stream ID to AppendSection's arguments.
//
// Files: encoder.go (Config, Encoder, AppendSection), static.go (the
// static table lookup) and huffman.go (the length of a Huffman code).
package qencoder

import (
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// First octets of the field line representations of RFC 9204 §4.5, with
// the bits of the integer prefix that follows each pattern.
const (
	indexedStatic      = 0xc0 // §4.5.2, 1T with T=1, 6-bit index
	nameRefStatic      = 0x50 // §4.5.4, 01NT with T=1, 4-bit index
	nameRefNever       = 0x20 // §4.5.4, the N bit
	literalName        = 0x20 // §4.5.6, 001N, H and a 3-bit name length
	literalNameNever   = 0x10 // §4.5.6, the N bit
	indexedPrefixBits  = 6
	nameRefPrefixBits  = 4
	nameLenPrefixBits  = 3
	valueLenPrefixBits = 7
)

// Config configures an Encoder.
type Config struct {
	// ShortCookieLen makes "cookie" fields whose value is shorter than
	// this many octets never indexed (the N bit). Zero means
	// encoder.DefaultPolicy.ShortCookieLen (20); a negative value turns
	// the rule off.
	ShortCookieLen int
}

// An Encoder writes QPACK field sections for one HTTP/3 connection. It is
// not safe for concurrent use.
type Encoder struct {
	shortCookieLen int
}

// New returns an encoder holding all the memory it will use.
func New(cfg Config) *Encoder {
	if cfg.ShortCookieLen == 0 {
		cfg.ShortCookieLen = encoder.DefaultPolicy.ShortCookieLen
	}
	return &Encoder{shortCookieLen: cfg.ShortCookieLen}
}

// AppendSection appends the field section (§4.5) carrying fields, in
// order, to dst and returns the extended buffer: the prefix, then one
// field line per field as the package doc's policy decides.
func (e *Encoder) AppendSection(dst []byte, fields []spec.Field) []byte {
	dst = qspec.AppendPrefix(dst, 0, 0, 0)
	for _, f := range fields {
		dst = e.appendLine(dst, f)
	}
	return dst
}

func (e *Encoder) appendLine(dst []byte, f spec.Field) []byte {
	nameIndex, hasName, fieldIndex, hasField := staticLookup(f.Name, f.Value)
	if hasField && !f.Sensitive {
		return encoder.AppendInteger(dst, indexedStatic, indexedPrefixBits, uint64(fieldIndex))
	}
	never := f.Sensitive || (!hasField && e.neverIndexed(f.Name, f.Value))
	if hasName {
		if hasField {
			nameIndex = fieldIndex
		}
		pattern := byte(nameRefStatic)
		if never {
			pattern |= nameRefNever
		}
		dst = encoder.AppendInteger(dst, pattern, nameRefPrefixBits, uint64(nameIndex))
		return appendString(dst, 0, valueLenPrefixBits, f.Value)
	}
	pattern := byte(literalName)
	if never {
		pattern |= literalNameNever
	}
	dst = appendString(dst, pattern, nameLenPrefixBits, f.Name)
	return appendString(dst, 0, valueLenPrefixBits, f.Value)
}

// neverIndexed reports whether the name rules of the package doc send
// name: value with the N bit.
func (e *Encoder) neverIndexed(name, value string) bool {
	switch name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(value) < e.shortCookieLen
	}
	return false
}

// appendString appends the string literal s (§4.1.2) whose H bit is the
// bit above a prefixBits-bit length prefix, the higher bits taken from
// pattern. It is Huffman coded when strictly shorter.
func appendString(dst []byte, pattern byte, prefixBits uint8, s string) []byte {
	if n := huffmanLen(s); n < len(s) {
		dst = encoder.AppendInteger(dst, pattern|1<<prefixBits, prefixBits, uint64(n))
		return encoder.AppendHuffmanString(dst, s)
	}
	dst = encoder.AppendInteger(dst, pattern, prefixBits, uint64(len(s)))
	return append(dst, s...)
}

// MaxSectionLen returns the most octets AppendSection appends for fields:
// room enough for it not to allocate.
func MaxSectionLen(fields []spec.Field) int {
	n := 2 // a prefix of two zero octets
	for _, f := range fields {
		// A literal name is the longest line: a static reference
		// takes at most 2 octets, and every static name at least 3.
		n += encoder.IntegerLen(nameLenPrefixBits, uint64(len(f.Name))) + len(f.Name) +
			encoder.IntegerLen(valueLenPrefixBits, uint64(len(f.Value))) + len(f.Value)
	}
	return n
}
