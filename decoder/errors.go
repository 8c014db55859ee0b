package decoder

import "fmt"

// Error is a decoding error: the rule of RFC 7541 (or RFC 9113) the input
// broke, and the offset of the octet where it did so, counted from the start
// of the input the failing call was given.
type Error struct {
	// Offset is the 0-based offset of the offending octet.
	Offset int
	// Rule names what was wrong, with the section of the RFC that says so.
	Rule string
}

// set records an error in e and returns e. The decoder's errors are set in
// an Error it owns, so that an error allocates nothing.
func (e *Error) set(offset int, rule string) *Error {
	e.Offset, e.Rule = offset, rule
	return e
}

// Error formats the offset and the rule.
func (e *Error) Error() string {
	return fmt.Sprintf("hpack decoder: offset %d: %s", e.Offset, e.Rule)
}

// The rules an Error names. They are constants so that a test can tell
// which rule an input broke without matching text.
const (
	RuleHuffmanEOS        = "Huffman string contains EOS (RFC 7541 §5.2)"
	RuleHuffmanPadLength  = "Huffman padding longer than 7 bits (RFC 7541 §5.2)"
	RuleHuffmanPadOnes    = "Huffman padding is not the most significant bits of EOS (RFC 7541 §5.2)"
	RuleIntegerTruncated  = "integer truncated (RFC 7541 §5.1)"
	RuleIntegerOverflow   = "integer larger than 2^32-1 (RFC 7541 §5.1)"
	RuleIntegerTooLong    = "integer has more than 5 continuation octets (RFC 7541 §5.1)"
	RuleStringTruncated   = "string literal runs past the end of the block (RFC 7541 §5.2)"
	RuleStringTooLong     = "string literal longer than the maximum string length"
	RuleIndexZero         = "index 0 (RFC 7541 §6.1)"
	RuleIndexRange        = "index past the end of the dynamic table (RFC 7541 §2.3.3)"
	RuleSizeUpdateLimit   = "dynamic table size update above the acknowledged setting (RFC 7541 §4.2)"
	RuleSizeUpdatePlace   = "dynamic table size update after a field (RFC 7541 §4.2)"
	RuleSizeUpdateMissing = "the acknowledged setting went down: the block must begin with a size update to at most its smallest value (RFC 7541 §4.2)"
	RuleHeaderListSize    = "header list larger than the maximum header list size (RFC 9113 §6.5.2)"
)

// Keep returns err, as Decode or DecodeFragment returned it, or a copy of
// it when it is the decoder's own *Error, which the decoder overwrites at
// its next call: for a caller that keeps an error past that call. The copy
// also holds nothing of the decoder.
func Keep(err error) error {
	if e, ok := err.(*Error); ok {
		return &Error{Offset: e.Offset, Rule: e.Rule}
	}
	return err
}
