package hpackstdio

import (
	"math"
)

// QEncoderClient is one running QPACK encoder program speaking the QPACK
// mode of hpack-stdio/1. It checks every answer against the request it
// answers as Client does: any failure other than an error answer (a
// timeout, an exit, an answer that is not of the protocol, or over its
// bound) is a *BreakdownError, "encoder broke hpack-stdio at request N:
// ...", and kills the program with its process group. An error answer is
// an *AnswerError, Code its "code"; QPACKRefusal tells a refusal from a
// failure. A QEncoderClient is not safe for concurrent use.
type QEncoderClient struct {
	qprogram
}

// QDecoderClient is one running QPACK decoder program, checked as a
// QEncoderClient is, its messages saying "decoder".
type QDecoderClient struct {
	qprogram
}

// qprogram is what the two QPACK clients share: the program and what its
// hello said.
type qprogram struct {
	program
	maxWire   int
	maxAnswer int
	name      string
	binary    bool
}

// StartQPACKEncoder starts the QPACK encoder program argv[0] with the
// arguments argv[1:] and asks its name with hello, which must say
// "qpack":true: a program that does not speaks HPACK, and its hello is a
// breakdown saying so. Options.MaxWire bounds the section and the
// encoder-stream octets of one answer, and the answer line holding them
// (twice as many hex digits and 64 KiB); the program is killed then.
func StartQPACKEncoder(argv []string, opts Options) (*QEncoderClient, error) {
	q, err := startQPACK(roleEncoder, argv, opts)
	if err != nil {
		return nil, err
	}
	return &QEncoderClient{q}, nil
}

// StartQPACKDecoder starts the QPACK decoder program argv[0] with the
// arguments argv[1:] and asks its name with hello, which must say
// "qpack":true. Options.MaxWire bounds the decoder-stream octets of one
// answer; Options.MaxAnswer, when larger, the line of an answer to decode
// or encoder_stream, which carries header lists (an
// *OversizeAnswerError past it).
func StartQPACKDecoder(argv []string, opts Options) (*QDecoderClient, error) {
	q, err := startQPACK(roleDecoder, argv, opts)
	if err != nil {
		return nil, err
	}
	return &QDecoderClient{q}, nil
}

func startQPACK(role string, argv []string, opts Options) (qprogram, error) {
	g, err := startProgram(role, argv, opts)
	if err != nil {
		return qprogram{}, err
	}
	q := qprogram{program: g, maxWire: opts.MaxWire, maxAnswer: opts.MaxAnswer}
	if q.maxWire <= 0 {
		q.maxWire = DefaultMaxWire
	}
	if q.maxAnswer <= 0 {
		q.maxAnswer = DefaultMaxAnswer
	}
	// The line limits must be ints, with room for readLine's two octets.
	q.maxWire = min(q.maxWire, (math.MaxInt-answerAllowance-2)/2)
	q.maxAnswer = min(q.maxAnswer, math.MaxInt-2)
	a, err := q.hello(q.rule(OpHello))
	if err != nil {
		return qprogram{}, err
	}
	q.name, q.binary = a.name, a.binary
	return q, nil
}

// Name returns the program's answer to hello.
func (q *qprogram) Name() string { return q.name }

// Binary reports whether the program offered the binary form in its
// answer to hello: names and values then travel as hex, both ways.
func (q *qprogram) Binary() bool { return q.binary }

// Err returns why the program was stopped, or nil while it runs.
func (q *qprogram) Err() error { return q.err }

// Close kills the program, if it still runs, with its process group, as
// Client.Close does. It always returns nil.
func (q *qprogram) Close() error {
	q.close()
	return nil
}

// New opens a fresh connection whose decoder announced s: an empty
// dynamic table of capacity 0. An error answer is an *AnswerError.
func (q *qprogram) New(s QSettings) error {
	_, err := q.roundTrip(&QRequest{Op: OpNew, Decoder: q.role == roleDecoder, Settings: s})
	return err
}

// roundTrip sends req and returns its answer, checked.
func (q *qprogram) roundTrip(req *QRequest) (answer, error) {
	req.Binary = req.Op == OpEncode && q.binary
	return q.program.roundTrip(req, q.rule(req.Op))
}

// rule returns how the answer to op is read: 64 KiB for hello and new;
// for an answer carrying octets, their hex at the per-block limit and 64
// KiB, a longer line being a *WireLimitError; for a decoder's answer
// carrying header lists, at least MaxAnswer, a longer line being an
// *OversizeAnswerError.
func (q *qprogram) rule(op string) exchangeRule {
	words := qEncoderWords
	if q.role == roleDecoder {
		words = qDecoderWords
	}
	rules := qAnswerRules{words: words, binary: q.binary, maxWire: q.maxWire}
	r := exchangeRule{limit: maxSmallAnswer, parse: func(line []byte) (answer, *lineError) {
		return parseQAnswer(op, line, rules)
	}}
	switch op {
	case OpHello, OpNew:
	case OpDecode, OpEncoderStream:
		r.limit = max(q.maxAnswer, 2*q.maxWire+answerAllowance)
		r.overLimit = func() error { return &OversizeAnswerError{Limit: r.limit} }
	default:
		r.limit = 2*q.maxWire + answerAllowance
		r.overLimit = func() error { return &WireLimitError{Line: r.limit, Limit: q.maxWire} }
	}
	return r
}

// Encode asks for the field section of stream carrying fields, and
// returns it with the encoder-stream octets written meanwhile. A name or
// value that is not valid UTF-8, for an encoder that did not offer the
// binary form, is an error naming it, and nothing is sent.
func (c *QEncoderClient) Encode(stream uint64, fields []Field) (section, encoderStream []byte, err error) {
	a, err := c.roundTrip(&QRequest{Op: OpEncode, Stream: stream, Fields: fields})
	if err != nil {
		return nil, nil, err
	}
	return a.section, a.encoderStream, nil
}

// DecoderStream hands the encoder decoder-stream octets and returns the
// encoder-stream octets it wrote in answer. An error answer is an
// *AnswerError, the encoder refusing the octets (QPACKRefusal).
func (c *QEncoderClient) DecoderStream(data []byte) (encoderStream []byte, err error) {
	a, err := c.roundTrip(&QRequest{Op: OpDecoderStream, Data: data})
	return a.encoderStream, err
}

// EncoderStream hands the decoder encoder-stream octets and returns the
// sections they unblocked, decoded, and the decoder-stream octets it
// wrote. An error answer is an *AnswerError, the decoder refusing the
// octets or an unblocked section.
func (c *QDecoderClient) EncoderStream(data []byte) (unblocked []QSection, decoderStream []byte, err error) {
	a, err := c.roundTrip(&QRequest{Op: OpEncoderStream, Data: data})
	return a.unblocked, a.decoderStream, err
}

// DecodeSection asks the decoder to decode the field section of stream,
// and returns it (Blocked set, and no fields, when it waits for inserts)
// with the decoder-stream octets written. An error answer is an
// *AnswerError, the decoder refusing the section.
func (c *QDecoderClient) DecodeSection(stream uint64, section []byte) (QSection, []byte, error) {
	a, err := c.roundTrip(&QRequest{Op: OpDecode, Stream: stream, Data: section})
	if err != nil {
		return QSection{}, nil, err
	}
	return QSection{Stream: stream, Blocked: a.blocked, Fields: a.fields}, a.decoderStream, nil
}

// Cancel tells the decoder stream was reset, and returns the
// decoder-stream octets it wrote (its Stream Cancellation).
func (c *QDecoderClient) Cancel(stream uint64) (decoderStream []byte, err error) {
	a, err := c.roundTrip(&QRequest{Op: OpCancel, Stream: stream})
	return a.decoderStream, err
}
