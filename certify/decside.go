package certify

import "github.com/hpackcert/hpackcert/certify/decoders"

// The decoder side lives in package certify/decoders; its names stay
// here, as aliases and thin wrappers, so that sources and commands name
// both sides through package certify.
type (
	// DecoderTarget is a decoder implementation under certification.
	DecoderTarget = decoders.DecoderTarget
	// Decoder is one HPACK decoding context.
	Decoder = decoders.Decoder
	// DecoderTableReader is a Decoder that can show its dynamic table.
	DecoderTableReader = decoders.DecoderTableReader
	// Rejection is a decoder's refusal of a header block.
	Rejection = decoders.Rejection
	// DecoderLacks is what a decoder declares its library cannot do.
	DecoderLacks = decoders.DecoderLacks
	// DecoderLacker is a DecoderTarget that declares lacks.
	DecoderLacker = decoders.DecoderLacker
	// FieldsHider is a Decoder that does not show the fields it decoded.
	FieldsHider = decoders.FieldsHider
	// DecodingErrorer is a refusal's error that tells whether it was
	// for a decoding error.
	DecodingErrorer = decoders.DecodingErrorer
	// CPUTimer is a Decoder that can tell its process's CPU time.
	CPUTimer = decoders.CPUTimer
	// DecoderOptions configures RunDecoders.
	DecoderOptions = decoders.DecoderOptions
	// DecoderStoryBlocksOf is the blocks of one dec/ case's stories.
	DecoderStoryBlocksOf = decoders.DecoderStoryBlocksOf
)

// The errors a decoder's source wraps (decoders.ErrSettingUnsupported,
// decoders.ErrAnswerTooLarge).
var (
	ErrSettingUnsupported = decoders.ErrSettingUnsupported
	ErrAnswerTooLarge     = decoders.ErrAnswerTooLarge
)

// Reject returns err as a *Rejection (decoders.Reject).
func Reject(err error) error { return decoders.Reject(err) }

// Rejected reports whether err is a decoder's refusal (decoders.Rejected).
func Rejected(err error) bool { return decoders.Rejected(err) }

// DecoderFunc adapts a constructor of decoding contexts to a
// DecoderTarget in this process (decoders.DecoderFunc).
func DecoderFunc(name string, newDecoder func() Decoder) DecoderTarget {
	return decoders.DecoderFunc(name, newDecoder)
}

// DeclareDecoder returns t declaring lacks (decoders.DeclareDecoder).
func DeclareDecoder(t DecoderTarget, lacks DecoderLacks) DecoderTarget {
	return decoders.DeclareDecoder(t, lacks)
}

// DecoderStoryBlocks returns the blocks of every dec/ case's stories
// (decoders.DecoderStoryBlocks).
func DecoderStoryBlocks() []DecoderStoryBlocksOf { return decoders.DecoderStoryBlocks() }

// DecoderCases returns every dec/ case, sorted by id.
func DecoderCases() []Case { return fromDecoderCases(decoders.DecoderCases()) }

// SelectDecoderCases returns the dec/ cases whose id starts with one of
// prefixes (all for none), sorted by id, or an error naming a prefix no
// dec/ case has.
func SelectDecoderCases(prefixes []string) ([]Case, error) {
	cases, err := decoders.SelectDecoderCases(prefixes)
	return fromDecoderCases(cases), err
}

// fromDecoderCases returns dec/ cases as the Report lists them.
func fromDecoderCases(cases []decoders.Case) []Case {
	if cases == nil {
		return nil
	}
	out := make([]Case, len(cases))
	for i, c := range cases {
		out[i] = Case{ID: c.ID, Section: c.Section, Title: c.Title, RFC: c.RFC, Violation: c.Violation}
	}
	return out
}
