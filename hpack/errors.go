package hpack

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/decoder"
)

// A DecodingError is a header block that breaks a rule of RFC 7541, as
// x/net's DecodingError. Err says which: an InvalidIndexError, a
// *decoder.Error naming the rule and the offset of the octet at fault
// (counted from the first octet the failing Write decoded, which includes
// any octets it carried over from the previous Write), or errTruncated.
type DecodingError struct {
	Err error
}

// Error formats Err as x/net's DecodingError does.
func (de DecodingError) Error() string {
	return fmt.Sprintf("decoding error: %v", de.Err)
}

// Unwrap returns Err, so that errors.As finds the *decoder.Error or the
// InvalidIndexError in a DecodingError (x/net's has no Unwrap).
func (de DecodingError) Unwrap() error { return de.Err }

// An InvalidIndexError is an index (RFC 7541 §2.3.3) naming no entry: 0,
// or past the end of the dynamic table. It comes wrapped in a
// DecodingError, as from x/net.
type InvalidIndexError int

// Error says which index was invalid.
func (e InvalidIndexError) Error() string {
	return fmt.Sprintf("hpack: index %d names no table entry", int(e))
}

// ErrStringLength is returned by Write, Close and DecodeFull for a string
// longer than SetMaxStringLength's limit, as declared on the wire or
// decoded, as x/net's ErrStringLength is.
var ErrStringLength = errors.New("hpack: string longer than the maximum string length")

// ErrInvalidHuffman is returned for a Huffman coded string that is not a
// valid code (RFC 7541 §5.2): one containing EOS, or padded with more than
// 7 bits or with bits other than EOS's first, as x/net's ErrInvalidHuffman
// is.
var ErrInvalidHuffman = errors.New("hpack: invalid Huffman code in a string literal")

// errTruncated is DecodingError's Err when a block ends inside a field.
var errTruncated = errors.New("hpack: the header block ends inside a field")

// errOutOfStep is DecodingError's Err should scan and package decoder
// ever disagree on where a field ends: an error, never a panic.
var errOutOfStep = errors.New("hpack: internal error: the field scan and the decoder disagree")

// decodingError maps an error of package decoder, met decoding input, to
// the kind x/net returns for the same fault; other errors (the callback's
// ErrStringLength) pass unchanged. The *decoder.Error is the decoder's
// own, so it is copied, its offset moved by base, input's offset in what
// the Write decodes.
func decodingError(err error, input []byte, base int) error {
	de, ok := err.(*decoder.Error)
	if !ok {
		return err
	}
	switch de.Rule {
	case decoder.RuleHuffmanEOS, decoder.RuleHuffmanPadLength, decoder.RuleHuffmanPadOnes:
		return ErrInvalidHuffman
	case decoder.RuleStringTooLong:
		return ErrStringLength
	case decoder.RuleIndexZero, decoder.RuleIndexRange:
		return DecodingError{InvalidIndexError(indexAt(input, de.Offset))}
	}
	return DecodingError{&decoder.Error{Offset: base + de.Offset, Rule: de.Rule}}
}

// indexAt returns the index of the representation starting at input[i]:
// a §6.1 index or a literal's name index.
func indexAt(input []byte, i int) uint32 {
	prefix := uint8(4)
	switch b := input[i]; {
	case b&0x80 != 0:
		prefix = 7
	case b&0xc0 == 0x40:
		prefix = 6
	}
	idx, _, _ := readInt(input, i, prefix)
	return idx
}
