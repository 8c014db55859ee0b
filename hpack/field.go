package hpack

import "fmt"

// A HeaderField is a name-value pair, as golang.org/x/net/http2/hpack's
// HeaderField: the same fields, in the same order, with the same methods.
// Both types have the same underlying type, so a field decoded by x/net's
// Decoder converts to this one, and back, with a plain conversion:
// hpack.HeaderField(f).
type HeaderField struct {
	Name, Value string

	// Sensitive means that this header field should never be indexed:
	// it is sent "Never Indexed" (RFC 7541 §6.2.3).
	Sensitive bool
}

// IsPseudo reports whether the header field is an HTTP/2 pseudo-header
// field: whether its name starts with a colon. It does not check that the
// name is a valid pseudo-header name.
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}

// String returns the field as x/net's HeaderField.String does: its name
// and value quoted, and " (sensitive)" after them when Sensitive is set.
func (hf HeaderField) String() string {
	var suffix string
	if hf.Sensitive {
		suffix = " (sensitive)"
	}
	return fmt.Sprintf("header field %q = %q%s", hf.Name, hf.Value, suffix)
}

// Size returns the size of the field's entry in a dynamic table as RFC
// 7541 §4.1 defines it: the lengths of the name and the value, without
// Huffman coding, plus 32. Like x/net's, it wraps around for a field whose
// size does not fit in 32 bits.
func (hf HeaderField) Size() uint32 {
	return uint32(len(hf.Name) + len(hf.Value) + 32)
}
