// Package qpack is what the QPACK (RFC 9204) sources and the two QPACK
// sides of the certifier share, as package transcript is for HPACK: the
// settings of a connection, the interfaces a QPACK encoder or decoder
// target implements, and the transcript of an encoder — what it wrote on
// its encoder stream and in its field sections, what it was told on the
// decoder stream, and when the certifier, playing the decoder, received
// each part. It imports no engine and no oracle, so that a source
// (source/inprocess, source/stdio, source/recorded, a live capture) can
// produce targets and transcripts without them.
//
// The qenc/ side (certify/qencoders) plays an EncoderTarget: for each
// scenario it opens an Encoder with the scenario's Settings, hands it
// header lists, holds back or delivers what it wrote by the scenario's
// schedule, feeds the strict decoder's decoder-stream octets back, and
// logs all of it as a Transcript; a target that cannot be driven (a
// recording, a capture) implements Player and hands its transcripts
// instead. Either way the transcript is judged the same way. The qdec/
// side (certify/qdecoders) plays a DecoderTarget on encoder-stream and
// field-section input of its own.
package qpack

import (
	"errors"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// Field is the module's one header-field type; Sensitive asks an encoder
// for the never-indexed N bit (RFC 9204 §4.5.4-§4.5.6, §7.1.3) and, from
// a decoder, says a field line carried it.
type Field = spec.Field

// Settings are what the decoder of a connection announced (RFC 9204 §5,
// RFC 9114 §4.2.2, §7.2.4.1).
type Settings struct {
	// MaxTableCapacity is SETTINGS_QPACK_MAX_TABLE_CAPACITY.
	MaxTableCapacity uint64
	// BlockedStreams is SETTINGS_QPACK_BLOCKED_STREAMS.
	BlockedStreams uint64
	// MaxFieldSectionSize is SETTINGS_MAX_FIELD_SECTION_SIZE (RFC 9114
	// §4.2.2), the size of a header list counted as the sum of name,
	// value and 32 per field; 0 means none was sent.
	MaxFieldSectionSize uint64
}

// The RFC 9204 §6 error codes, and RFC 9114's for a field section over
// the limit.
const (
	DecompressionFailed  = "QPACK_DECOMPRESSION_FAILED"
	EncoderStreamError   = "QPACK_ENCODER_STREAM_ERROR"
	DecoderStreamError   = "QPACK_DECODER_STREAM_ERROR"
	FieldSectionTooLarge = "FIELD_SECTION_TOO_LARGE"
)

// EncoderTarget is a QPACK encoder under certification (the qenc/
// cases).
type EncoderTarget interface {
	// Name identifies the implementation in reports.
	Name() string
	// NewEncoder returns the encoder of a fresh HTTP/3 connection whose
	// decoder sent settings s: an empty dynamic table of capacity 0, no
	// section outstanding.
	NewEncoder(s Settings) (Encoder, error)
	// Close releases what the target holds (a child process, C memory).
	Close() error
}

// Encoder is the QPACK encoder of one HTTP/3 connection.
type Encoder interface {
	// EncodeSection encodes fields as the field section of request
	// stream stream (a client-initiated bidirectional stream id: 0, 4,
	// 8, ...). It returns the section and the encoder-stream octets it
	// wrote while encoding it; the caller owns both. An error is a
	// breakdown (the target's one failure): encoding a valid header
	// list has no other outcome.
	EncodeSection(stream uint64, fields []Field) (section, encoderStream []byte, err error)
	// DecoderStream hands the encoder the next octets of the decoder
	// stream (Section Acknowledgment, Stream Cancellation, Insert Count
	// Increment, §4.4) and returns the encoder-stream octets it wrote in
	// answer (none is usual). An error wrapping a *ConnectionError is the
	// encoder refusing the octets (QPACK_DECODER_STREAM_ERROR, §4.4):
	// the connection is then closed. Any other error is a breakdown.
	DecoderStream(data []byte) (encoderStream []byte, err error)
}

// DecoderTarget is a QPACK decoder under certification (the qdec/
// cases).
type DecoderTarget interface {
	// Name identifies the implementation in reports.
	Name() string
	// NewDecoder returns the decoder of a fresh HTTP/3 connection that
	// sent settings s: an empty dynamic table of capacity 0.
	NewDecoder(s Settings) (Decoder, error)
	// Close releases what the target holds.
	Close() error
}

// Decoder is the QPACK decoder of one HTTP/3 connection. After a call
// returns an error wrapping a *ConnectionError, no other is made on it.
type Decoder interface {
	// EncoderStream hands the decoder the next octets of the encoder
	// stream (an instruction may be cut anywhere). It returns the
	// sections the new insertions unblocked, decoded, and the
	// decoder-stream octets the decoder wrote (a Section Acknowledgment
	// for each unblocked section that references the dynamic table,
	// Insert Count Increments). An error wrapping a *ConnectionError is
	// the decoder refusing the stream or an unblocked section; any
	// other error is a breakdown.
	EncoderStream(data []byte) (unblocked []Decoded, decoderStream []byte, err error)
	// DecodeSection decodes the field section of request stream stream
	// and returns the decoder-stream octets written for it (its Section
	// Acknowledgment when it references the dynamic table). Blocked says
	// the section waits for inserts (§2.2.1); it is then returned by a
	// later EncoderStream. An error wrapping a *ConnectionError is the
	// decoder refusing the section.
	DecodeSection(stream uint64, section []byte) (d Decoded, decoderStream []byte, err error)
	// Cancel says stream was reset: a blocked section of it is
	// abandoned, and the decoder-stream octets written (a Stream
	// Cancellation, §4.4.2, when the section was blocked or referenced
	// the dynamic table) are returned.
	Cancel(stream uint64) (decoderStream []byte, err error)
}

// Decoded is a field section a decoder decoded, or holds blocked.
type Decoded struct {
	// Stream is the request stream of the section.
	Stream uint64
	// Blocked is set when the section waits for inserts; Fields is
	// then empty.
	Blocked bool
	// Fields is the header list, Sensitive set on each field line that
	// carried the N bit.
	Fields []Field
}

// ConnectionError is an encoder or decoder reporting a QPACK connection
// error: the certifier's octets broke RFC 9204 in its judgment.
type ConnectionError struct {
	// Code is the error code, such as DecompressionFailed; "" when the
	// implementation does not say which.
	Code string
	// Reason is what the implementation said.
	Reason string
	// Err is its own error, when there is one.
	Err error
}

func (e *ConnectionError) Error() string {
	s := "connection error"
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// AsConnectionError returns the *ConnectionError err wraps, or nil.
func AsConnectionError(err error) *ConnectionError {
	var ce *ConnectionError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// Player is implemented by an EncoderTarget the certifier cannot drive (a
// recording, a live capture): it hands the transcripts it has, each
// judged as a played one is. NewEncoder of such a target returns an
// error.
type Player interface {
	Transcripts() ([]*Transcript, error)
}

// Transcript is what a QPACK encoder did on one connection, in the order
// it happened.
type Transcript struct {
	// Name names the connection in reports: the scenario, or the
	// recorded file.
	Name string
	// Settings are what the decoder announced.
	Settings Settings
	// Lists are the header lists the encoder was given, indexed by
	// Event.List; nil when the source does not know them (the grading
	// then cannot compare what was decoded).
	Lists [][]Field
	// Events are what the encoder wrote and was told, and what the
	// decoder received, in order.
	Events []Event
	// AssumedCapacity, when set, is the table capacity a recording's
	// encoder assumed without sending Set Dynamic Table Capacity (the
	// QPACK drafts' initial capacity): the missing instruction is
	// reported once, and the rest graded as if it had been sent.
	AssumedCapacity uint64
	// ToldAtOnce is set when the transcript has no Told events of its
	// own (a recording): the judge then hands the encoder side the
	// decoder-stream octets of its strict decoder as soon as they are
	// written, the feedback the encoder is taken to have had.
	ToldAtOnce bool
}

// EventKind is what an Event records.
type EventKind uint8

const (
	// Wrote: the encoder wrote Data on its encoder stream.
	Wrote EventKind = iota + 1
	// Section: the encoder wrote Data as the field section of Stream,
	// the header list Lists[List] (List -1: unknown).
	Section
	// Told: the encoder was handed Data on the decoder stream; Refused
	// is set when it answered with a *ConnectionError, Code its code.
	Told
	// DeliverEncoderStream: the decoder received the next Count octets
	// of the encoder stream.
	DeliverEncoderStream
	// DeliverSection: the decoder received the field section of
	// Stream (the oldest of that stream not yet delivered).
	DeliverSection
	// Reset: the decoder abandoned Stream (the stream was reset): it
	// owes a Stream Cancellation.
	Reset
)

// Event is one step of a Transcript.
type Event struct {
	Kind   EventKind
	Stream uint64
	Data   []byte
	List   int
	Count  int
	// Refused and Code, for a Told event.
	Refused bool
	Code    string
}

// Deliver returns the transcript's events with every write delivered at
// once, in the order written: the encoder-stream octets of each Wrote
// event and each section right after it was written. It is the delivery
// of a recording, whose file gives no other.
func Deliver(events []Event) []Event {
	out := make([]Event, 0, 2*len(events))
	for _, e := range events {
		out = append(out, e)
		switch e.Kind {
		case Wrote:
			out = append(out, Event{Kind: DeliverEncoderStream, Count: len(e.Data)})
		case Section:
			out = append(out, Event{Kind: DeliverSection, Stream: e.Stream})
		}
	}
	return out
}
