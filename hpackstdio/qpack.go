package hpackstdio

import (
	"errors"
	"slices"
)

// The QPACK mode of hpack-stdio/1 (docs/STDIO.md, "QPACK mode"): a
// program that answers hello with "qpack":true is a QPACK (RFC 9204)
// encoder or decoder, which side being the certifier's command's to say.
// Its requests carry the settings of a connection, stream ids, field
// sections and the octets of the encoder and decoder streams, all octets
// in lowercase hex; its answers say what the program wrote on its own
// stream and, from a decoder, the header lists it decoded.
//
// The types below mirror the certifier's (certify/qpack) so that package
// source/stdio converts between the two in one place; this package
// imports none of the certifier.

// The operations of the QPACK mode beyond hello, new, encode and decode.
const (
	OpEncoderStream = "encoder_stream" // hands a decoder encoder-stream octets
	OpDecoderStream = "decoder_stream" // hands an encoder decoder-stream octets
	OpCancel        = "cancel"         // tells a decoder a stream was reset
)

// qpackHelloError is what a QPACK client says of a program whose hello
// does not say "qpack":true.
const qpackHelloError = `the program speaks HPACK, not QPACK (no "qpack":true in its hello answer)`

// QSettings are the settings of one QPACK connection, what its decoder
// announced: SETTINGS_QPACK_MAX_TABLE_CAPACITY,
// SETTINGS_QPACK_BLOCKED_STREAMS and SETTINGS_MAX_FIELD_SECTION_SIZE
// (RFC 9114 §4.2.2, 0 for none; sent to decoders only).
type QSettings struct {
	MaxTableCapacity    uint64
	BlockedStreams      uint64
	MaxFieldSectionSize uint64
}

// QSection is a field section a QPACK decoder decoded, or holds blocked:
// the request stream it came on and, unless Blocked, its header list,
// Sensitive set on each field line that carried the N bit.
type QSection struct {
	Stream  uint64
	Blocked bool
	Fields  []Field
}

// QEncoder is the QPACK encoder of one connection, as a QServer drives
// it: certify/qpack's Encoder, in this package's terms.
type QEncoder interface {
	// EncodeSection encodes fields as the field section of stream and
	// returns it with the encoder-stream octets written meanwhile. An
	// error is the encoder's breakdown, answered without a code unless
	// it wraps a *CodedError.
	EncodeSection(stream uint64, fields []Field) (section, encoderStream []byte, err error)
	// DecoderStream takes decoder-stream octets and returns the
	// encoder-stream octets written in answer. An error wrapping a
	// *CodedError is the encoder refusing them; any other error is its
	// breakdown, which ends QServer.Serve.
	DecoderStream(data []byte) (encoderStream []byte, err error)
}

// QDecoder is the QPACK decoder of one connection, as a QServer drives
// it: certify/qpack's Decoder, in this package's terms. An error wrapping
// a *CodedError is the decoder refusing the input; any other error is
// its breakdown, which ends QServer.Serve.
type QDecoder interface {
	EncoderStream(data []byte) (unblocked []QSection, decoderStream []byte, err error)
	DecodeSection(stream uint64, section []byte) (d QSection, decoderStream []byte, err error)
	Cancel(stream uint64) (decoderStream []byte, err error)
}

// CodedError is a QPACK connection error with its code, such as
// "QPACK_DECOMPRESSION_FAILED": what a served encoder or decoder returns
// to refuse its input, answered {"error": Reason, "code": Code}.
type CodedError struct {
	Code   string
	Reason string
	// Err is the implementation's own error, when there is one.
	Err error
}

func (e *CodedError) Error() string {
	if e.Code == "" {
		return e.Reason
	}
	return e.Code + ": " + e.Reason
}

func (e *CodedError) Unwrap() error { return e.Err }

// refusingOps are the QPACK requests whose every error answer is the
// program refusing its input, a connection error, with or without a code.
var refusingOps = []string{OpDecode, OpEncoderStream, OpDecoderStream, OpCancel}

// QPACKRefusal returns the *AnswerError err wraps when it is a QPACK
// program refusing its input, a QPACK connection error rather than a
// breakdown, or nil: an error answer with a "code", or any error answer
// to decode, encoder_stream, decoder_stream or cancel. An error answer to
// hello or new, even with a code, is the program failing, not refusing.
func QPACKRefusal(err error) *AnswerError {
	var ae *AnswerError
	if !errors.As(err, &ae) || ae.Op == OpHello || ae.Op == OpNew {
		return nil
	}
	if ae.Code != "" || slices.Contains(refusingOps, ae.Op) {
		return ae
	}
	return nil
}
