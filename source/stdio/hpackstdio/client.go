package hpackstdio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/hpackcert/hpackcert/certify"
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
	// 0 means DefaultMaxWire. An answer line longer than such a block
	// needs in hex, 2*MaxWire octets, plus 64 KiB for the rest of the
	// line, is refused once that many octets are read, without reading or
	// holding more of it, and so is a shorter answer whose wire is over
	// MaxWire octets: either is a *WireLimitError, and kills the program.
	MaxWire int
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
	argv    []string
	timeout time.Duration
	maxWire int
	name    string
	binary  bool
	lacks   certify.Lacks
	proc    *process
	// requests counts the requests sent to the program, and lastOp is the
	// operation of the last one.
	requests int
	lastOp   string
	err      error // why the program was stopped; nil while it runs
}

// errClosed stops a program closed by its Client's user, and errNoHello
// one that answered hello with an error.
var (
	errClosed  = errors.New("the encoder program was closed")
	errNoHello = errors.New("the encoder answered hello with an error")
)

// Start starts the program argv[0] with the arguments argv[1:] and asks
// its name with hello. An error means the program could not be started or
// did not answer hello with a name; the program is killed then.
func Start(argv []string, opts Options) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("hpackstdio: no program to start")
	}
	p, err := startProcess(argv, opts.Stderr)
	if err != nil {
		return nil, fmt.Errorf("hpackstdio: starting %s: %w", argv[0], err)
	}
	c := &Client{argv: argv, timeout: opts.Timeout, maxWire: opts.MaxWire, proc: p}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxWire <= 0 {
		c.maxWire = DefaultMaxWire
	}
	// The line limit, 2*maxWire plus the allowance, must be an int.
	c.maxWire = min(c.maxWire, (math.MaxInt-answerAllowance-2)/2)
	a, err := c.roundTrip(&Request{Op: OpHello})
	if err != nil {
		return nil, fmt.Errorf("hpackstdio: %s: %w", argv[0], err)
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
func (c *Client) Lacks() certify.Lacks { return c.lacks }

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
	c.stop(errClosed)
	return nil
}

// roundTrip sends req and returns its answer, checked. Any failure stops
// the program and is a *BreakdownError, except an error answer, an
// *AnswerError, and a request that could not be written as JSON, which
// the program never saw.
func (c *Client) roundTrip(req *Request) (answer, error) {
	if c.err != nil {
		return answer{}, fmt.Errorf("no %s request sent: %w", req.Op, c.err)
	}
	line, err := req.MarshalJSON()
	if err != nil {
		return answer{}, err
	}
	if extra, ok := c.proc.extra(); ok {
		broke := &BreakdownError{Request: c.requests, Op: c.lastOp,
			What: "the encoder wrote more than one line in answer to " + c.lastOp + ", the next",
			Line: cut(extra, MaxQuotedLine), LineLen: len(extra)}
		if len(extra) == 0 {
			broke.What += " empty"
		}
		return answer{}, c.stop(broke)
	}
	c.requests++
	c.lastOp = req.Op
	broke := &BreakdownError{Request: c.requests, Op: req.Op}
	limit := maxSmallAnswer
	if req.Op == OpEncode {
		limit = 2*c.maxWire + answerAllowance
	}
	reply, err := c.proc.exchange(req.Op, line, limit, c.timeout)
	switch {
	case errors.Is(err, errTooLong) && req.Op == OpEncode:
		wle := &WireLimitError{Line: limit, Limit: c.maxWire}
		broke.What, broke.Err = wle.Error(), wle
		return answer{}, c.stop(broke)
	case errors.Is(err, errTooLong):
		broke.What = fmt.Sprintf("an answer to %s of more than %d octets", req.Op, limit)
		return answer{}, c.stop(broke)
	case err != nil:
		broke.What = err.Error()
		if errors.Is(err, ErrTimeout) {
			broke.Err = err
		}
		return answer{}, c.stop(broke)
	}
	a, le := parseAnswer(req.Op, reply, c.maxWire)
	if le != nil {
		broke.What, broke.Err = le.what, le.err
		broke.Line, broke.LineLen = cut(reply, MaxQuotedLine), len(reply)
		return answer{}, c.stop(broke)
	}
	if a.errorText != nil {
		if req.Op == OpHello {
			// A program that cannot say hello is of no use.
			c.stop(errNoHello)
		}
		return answer{}, &AnswerError{Request: c.requests, Op: req.Op, Text: *a.errorText}
	}
	return a, nil
}

// stop kills the program, remembering err as the reason unless it was
// stopped already, and returns err.
func (c *Client) stop(err error) error {
	if c.err == nil {
		c.err = err
		c.proc.kill()
	}
	return err
}
