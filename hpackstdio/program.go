package hpackstdio

import (
	"errors"
	"fmt"
	"time"
)

// Roles of a program, as the messages name it.
const (
	roleEncoder = "encoder"
	roleDecoder = "decoder"
)

// program is one running program speaking hpack-stdio/1, the part a
// Client and a DecoderClient share: the process, the count of requests
// and why it was stopped.
type program struct {
	role    string // roleEncoder or roleDecoder
	argv    []string
	timeout time.Duration
	proc    *process
	// requests counts the requests sent to the program, and lastOp is the
	// operation of the last one.
	requests int
	lastOp   string
	err      error // why the program was stopped; nil while it runs
	// afterAnswer, when set, is called once each answer line was read,
	// or refused for its length, while the program still runs.
	afterAnswer func(op string)
}

// startProgram starts argv as a program of role; it does not say hello.
func startProgram(role string, argv []string, opts Options) (program, error) {
	if len(argv) == 0 {
		return program{}, errors.New("no program to start")
	}
	p, err := startProcess(argv, opts.Stderr, role)
	if err != nil {
		return program{}, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	g := program{role: role, argv: argv, timeout: opts.Timeout, proc: p}
	if g.timeout <= 0 {
		g.timeout = DefaultTimeout
	}
	return g, nil
}

// exchangeRule says how to read the answer to one request: its line
// bound, the error of a line over it, and the checks of the line.
type exchangeRule struct {
	// limit bounds the answer line, in octets.
	limit int
	// overLimit returns the error behind the breakdown of a line over
	// limit, or nil for the plain message.
	overLimit func() error
	// parse checks the line against the request it answers.
	parse func(line []byte) (answer, *lineError)
}

// message is a request of either codec: an HPACK *Request or a QPACK
// *QRequest.
type message interface {
	operation() string
	MarshalJSON() ([]byte, error)
}

// roundTrip sends m and returns its answer, checked by rule. Any
// failure stops the program and is a *BreakdownError, except an error
// answer, an *AnswerError, and a request that could not be written as
// JSON, which the program never saw.
func (g *program) roundTrip(m message, rule exchangeRule) (answer, error) {
	decoder := g.role == roleDecoder
	req := struct{ Op string }{m.operation()}
	if g.err != nil {
		return answer{}, fmt.Errorf("no %s request sent: %w", req.Op, g.err)
	}
	line, err := m.MarshalJSON()
	if err != nil {
		return answer{}, err
	}
	if extra, ok := g.proc.extra(); ok {
		broke := &BreakdownError{Decoder: decoder, Request: g.requests, Op: g.lastOp,
			What: "the " + g.role + " wrote more than one line in answer to " + g.lastOp + ", the next",
			Line: cut(extra, MaxQuotedLine), LineLen: len(extra)}
		if len(extra) == 0 {
			broke.What += " empty"
		}
		return answer{}, g.stop(broke)
	}
	g.requests++
	g.lastOp = req.Op
	broke := &BreakdownError{Decoder: decoder, Request: g.requests, Op: req.Op}
	reply, err := g.proc.exchange(req.Op, line, rule.limit, g.timeout)
	var lost *lostAnswerError
	if g.afterAnswer != nil && (err == nil || errors.Is(err, errTooLong)) {
		g.afterAnswer(req.Op)
	}
	switch {
	case errors.Is(err, errTooLong):
		broke.What = fmt.Sprintf("an answer to %s of more than %d octets", req.Op, rule.limit)
		if rule.overLimit != nil {
			broke.Err = rule.overLimit()
			broke.What = broke.Err.Error()
		}
		return answer{}, g.stop(broke)
	case errors.As(err, &lost):
		broke.What = lost.what
		broke.Line, broke.LineLen = cut(lost.line, MaxQuotedLine), len(lost.line)
		return answer{}, g.stop(broke)
	case err != nil:
		broke.What = err.Error()
		if errors.Is(err, ErrTimeout) {
			broke.Err = err
		}
		return answer{}, g.stop(broke)
	}
	a, le := rule.parse(reply)
	if le != nil {
		broke.What, broke.Err = le.what, le.err
		broke.Line, broke.LineLen = cut(reply, MaxQuotedLine), len(reply)
		return answer{}, g.stop(broke)
	}
	if a.errorText != nil {
		if req.Op == OpHello {
			// A program that cannot say hello is of no use.
			g.stop(fmt.Errorf("the %s answered hello with an error", g.role))
		}
		return answer{}, &AnswerError{Decoder: decoder, Request: g.requests, Op: req.Op, Text: *a.errorText, Code: a.code}
	}
	return a, nil
}

// hello sends hello with rule and, on failure, names the program in the
// error; the program is stopped then.
func (g *program) hello(rule exchangeRule) (answer, error) {
	a, err := g.roundTrip(&Request{Op: OpHello}, rule)
	if err != nil {
		g.stop(err)
		return answer{}, fmt.Errorf("%s: %w", g.argv[0], err)
	}
	return a, nil
}

// close kills the program, if it still runs, remembering that its user
// closed it.
func (g *program) close() {
	g.stop(fmt.Errorf("the %s program was closed", g.role))
}

// stop kills the program, remembering err as the reason unless it was
// stopped already, and returns err.
func (g *program) stop(err error) error {
	if g.err == nil {
		g.err = err
		g.proc.kill()
	}
	return err
}
