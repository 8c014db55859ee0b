package hpackstdio

import (
	"fmt"
	"io"
	"math"
	"time"
)

// Options configures Start.
type Options struct {
	// Timeout bounds every request, from writing it to reading its answer;
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// Stderr receives the program's standard error, from a goroutine of
	// its own, in writes of at most 32 KiB; nil discards it. What it keeps
	// is its own affair: a program may write without end.
	Stderr io.Writer
	// MaxWire bounds the header block of one encode answer, in octets;
	// 0 means DefaultMaxWire (encoders only). An answer line longer than
	// such a block needs in hex, 2*MaxWire octets, plus 64 KiB for the
	// rest of the line, is refused once that many octets are read, without reading or
	// holding more of it, and so is a shorter answer whose wire is over
	// MaxWire octets: either is a *WireLimitError, and kills the program.
	MaxWire int
	// MaxAnswer bounds the line of one decode answer, in octets; 0 means
	// DefaultMaxAnswer (decoders only). A longer line is refused once that
	// many octets are read, without reading or holding more of it: an
	// *OversizeAnswerError, which kills the program.
	MaxAnswer int
}

// DefaultMaxWire is the largest header block, in octets, that a Client
// accepts in an encode answer when its Options do not say.
const DefaultMaxWire = 1 << 20

// Bounds of an answer line, in octets: an answer to hello or new, and
// what an answer to encode may hold beyond the hex of its block.
const (
	maxSmallAnswer  = 64 << 10
	answerAllowance = 64 << 10
)

// WireLimitError is the error of an encode answer refused for its size:
// its block, or the line carrying it, is larger than Options.MaxWire
// allows. The program is killed.
type WireLimitError struct {
	// Line is the length in octets the answer line exceeded, when it was
	// refused unread past that; 0 when the line was read whole.
	Line int
	// Wire is the length of the block in the answer, when Line is 0.
	Wire int
	// Limit is the per-block limit, Options.MaxWire.
	Limit int
}

// Error says how long the answer was and what the limit is.
func (e *WireLimitError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("an answer of more than %d octets: the block exceeds the per-block limit of %d octets", e.Line, e.Limit)
	}
	return fmt.Sprintf("an answer with a block of %d octets: the block exceeds the per-block limit of %d octets", e.Wire, e.Limit)
}

// Client is one running encoder program speaking hpack-stdio/1. Any
// failure other than an error answer (a timeout, an exit, an answer that
// is not of the protocol or over its bound) is a *BreakdownError and
// kills the program: Err then says why, and every later request fails. A
// Client is not safe for concurrent use.
//
// On Unix the program leads a process group of its own, and it is killed
// with the whole group: on any failure, on Close, and as soon as it exits
// by itself, so that no descendant it started outlives it or holds its
// pipes; KillAll kills every group at once. A descendant that leaves the
// group (setsid) escapes the kill, but not the closing of the pipes.
// Elsewhere only the program itself is killed.
type Client struct {
	program
	maxWire int
	name    string
	binary  bool
	lacks   Lacks
}

// Start starts the program argv[0] with the arguments argv[1:] and asks
// its name with hello. An error means the program could not be started or
// did not answer hello with a name; the program is killed then. A program
// whose hello says "decoder":true is a decoder (StartDecoder), and its
// hello a breakdown here.
func Start(argv []string, opts Options) (*Client, error) {
	g, err := startProgram(roleEncoder, argv, opts)
	if err != nil {
		return nil, err
	}
	c := &Client{program: g, maxWire: opts.MaxWire}
	if c.maxWire <= 0 {
		c.maxWire = DefaultMaxWire
	}
	// The line limit, 2*maxWire plus the allowance, must be an int.
	c.maxWire = min(c.maxWire, (math.MaxInt-answerAllowance-2)/2)
	a, err := c.hello(c.rule(OpHello))
	if err != nil {
		return nil, err
	}
	c.name, c.binary, c.lacks = a.name, a.binary, a.lacks
	return c, nil
}

// Name returns the encoder's answer to hello.
func (c *Client) Name() string { return c.name }

// Binary reports whether the encoder offered the binary-safe form in its
// answer to hello. When it did, every encode request is sent in that form
// and carries any octets; when it did not, names and values must be valid
// UTF-8.
func (c *Client) Binary() bool { return c.binary }

// Lacks returns what the encoder declared in its answer to hello that its
// library cannot express: the lacks named in its "lacks" member and the
// octets of its "refuses" ranges. A name the protocol does not define, or
// a range that is not one, is a breakdown of hello, so Start fails.
func (c *Client) Lacks() Lacks { return c.lacks }

// Err returns why the program was stopped, or nil while it runs.
func (c *Client) Err() error { return c.err }

// New asks for a fresh encoding context. An error answer is returned as
// an *AnswerError and leaves the program running.
func (c *Client) New() error {
	_, err := c.roundTrip(&Request{Op: OpNew})
	return err
}

// Encode asks for the header block of fields, after the table sizes
// acknowledged since the previous block, and appends it to dst. An error
// answer is returned as an *AnswerError, and {"unsupported":reason} as an
// *UnsupportedError; both leave the program running, as does a name or
// value that the encoder could not be sent (invalid UTF-8 for an encoder
// that did not offer the binary form).
func (c *Client) Encode(dst []byte, tableSizes []uint32, fields []Field) ([]byte, error) {
	a, err := c.roundTrip(&Request{Op: OpEncode, Binary: c.binary, TableSizes: tableSizes, Fields: fields})
	switch {
	case err != nil:
		return dst, err
	case a.unsupported != nil:
		return dst, &UnsupportedError{Reason: *a.unsupported}
	}
	return append(dst, a.wire...), nil
}

// Close kills the program, if it still runs, with its process group, and
// waits a bounded time for it to be reaped; whatever still holds its pipes
// then has them closed under it. It always returns nil.
func (c *Client) Close() error {
	c.close()
	return nil
}

// roundTrip sends req and returns its answer, checked (program.roundTrip).
func (c *Client) roundTrip(req *Request) (answer, error) {
	return c.program.roundTrip(req, c.rule(req.Op))
}

// rule returns how the answer to op is read: 64 KiB for hello and new,
// and for encode what maxWire allows, a longer line being a
// *WireLimitError.
func (c *Client) rule(op string) exchangeRule {
	r := exchangeRule{limit: maxSmallAnswer, parse: func(line []byte) (answer, *lineError) {
		return parseAnswer(op, line, c.maxWire)
	}}
	if op == OpEncode {
		r.limit = 2*c.maxWire + answerAllowance
		r.overLimit = func() error { return &WireLimitError{Line: r.limit, Limit: c.maxWire} }
	}
	return r
}
