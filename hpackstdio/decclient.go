package hpackstdio

import (
	"fmt"
	"math"
	"time"

	"github.com/hpackcert/hpackcert/internal/cputime"
)

// DefaultMaxAnswer bounds the line of a decode answer when Options do
// not say: 16 MiB, room for a header list of 2 MiB whose every octet
// JSON escapes as \u00XX, with its table. The certifier keeps the
// SETTINGS_MAX_HEADER_LIST_SIZE of its stories far below it, so that only
// a decoder that expanded a block past that limit, a decompression bomb,
// writes a longer one.
const DefaultMaxAnswer = 16 << 20

// OversizeAnswerError is the error inside the *BreakdownError of a decode
// answer whose line is longer than Options.MaxAnswer: the decoder
// expanded the block into more than the client reads, as a decoder does
// that expands a decompression bomb (a block of many references to a
// large entry) instead of refusing its header list (RFC 9113 §6.5.2,
// RFC 7541 §7.3). The line was refused unread past the bound, and the
// program killed. It is a breakdown like any line over its bound; the
// certifier finds it (errors.As) to grade the expansion rather than the
// breakdown.
type OversizeAnswerError struct {
	// Limit is the bound of the answer line, in octets.
	Limit int
}

// Error says how long the answer was and why that matters.
func (e *OversizeAnswerError) Error() string {
	return fmt.Sprintf("an answer to decode of more than %s octets, the bound of a decode answer: the decoder expanded the block beyond any header list the certifier accepts", groupDigits(e.Limit))
}

// Decoded is a decoder's answer to decode.
type Decoded struct {
	// Fields are the fields of the block, in order, Sensitive set on
	// those the decoder reported as never indexed.
	Fields []Field
	// Table is the dynamic table after the block, newest first, when
	// HasTable is set: the decoder shows its table.
	Table    []Field
	HasTable bool
}

// DecoderClient is one running decoder program speaking the decoder side
// of hpack-stdio/1. Like a Client, it checks every answer against the
// request it answers; any failure other than an error answer is a
// *BreakdownError ("decoder broke hpack-stdio at request N: ...") and
// kills the program, with its process group. An error answer to decode
// is the decoder refusing the block, a decoding error: an *AnswerError
// whose Op is OpDecode, after which the context is dead, and the client
// sends no decode request until New opened the next. A DecoderClient is
// not safe for concurrent use.
type DecoderClient struct {
	program
	maxAnswer int
	name      string
	lacks     []string
	// open is set while a context is open: after New, until the decoder
	// refuses a block; refusal is then that refusal.
	open    bool
	refusal *AnswerError
	peak    int64 // the program's peak resident set, in octets, after its last answer
	hasPeak bool
}

// StartDecoder starts the decoder program argv[0] with the arguments
// argv[1:] and asks its name with hello, which must say "decoder":true
// (a program that does not is an encoder, and its hello a breakdown). Its
// "lacks" are what it declares its library cannot do or show, among
// DecoderLackNames; an unknown one is a breakdown of hello. An error
// means the program could not be started or did not answer hello so; the
// program is killed then. Options.MaxWire does not apply to a decoder;
// Options.MaxAnswer does.
func StartDecoder(argv []string, opts Options) (*DecoderClient, error) {
	g, err := startProgram(roleDecoder, argv, opts)
	if err != nil {
		return nil, err
	}
	d := &DecoderClient{program: g, maxAnswer: opts.MaxAnswer}
	if d.maxAnswer <= 0 {
		d.maxAnswer = DefaultMaxAnswer
	}
	// readLine holds limit+2 octets.
	d.maxAnswer = min(d.maxAnswer, math.MaxInt-2)
	d.afterAnswer = d.readPeak
	a, err := d.hello(d.rule(OpHello))
	if err != nil {
		return nil, err
	}
	d.name, d.lacks = a.name, a.decoderLacks
	return d, nil
}

// Name returns the decoder's answer to hello.
func (d *DecoderClient) Name() string { return d.name }

// Lacks returns what the decoder declared in its answer to hello that its
// library cannot do or show, by the names of DecoderLackNames.
func (d *DecoderClient) Lacks() []string { return d.lacks }

// Err returns why the program was stopped, or nil while it runs.
func (d *DecoderClient) Err() error { return d.err }

// New asks for a fresh decoding context: an empty dynamic table, table
// size 4096 and no header-list limit. An error answer is returned as an
// *AnswerError and leaves the program running, with no context open.
func (d *DecoderClient) New() error {
	d.open, d.refusal = false, nil
	if _, err := d.roundTrip(&Request{Op: OpNew}); err != nil {
		return err
	}
	d.open = true
	return nil
}

// Decode asks the decoder to decode wire, one complete header block,
// with tableSize the SETTINGS_HEADER_TABLE_SIZE in force for it and
// maxHeaderList the SETTINGS_MAX_HEADER_LIST_SIZE, 0 for none (see the
// decode request in docs/STDIO.md). An error answer is an *AnswerError,
// the decoder refusing the block; it leaves the program running and the
// context dead. Decode before New, or after a refusal, sends nothing and
// returns an error saying so, leaving the program running.
func (d *DecoderClient) Decode(wire []byte, tableSize, maxHeaderList uint32) (Decoded, error) {
	switch {
	case d.err != nil:
	case d.refusal != nil:
		return Decoded{}, fmt.Errorf("no decode request sent: the context is dead since the decoder refused the block of request %d; new opens the next", d.refusal.Request)
	case !d.open:
		return Decoded{}, fmt.Errorf("no decode request sent: no context is open; new opens one")
	}
	if wire == nil {
		wire = []byte{}
	}
	a, err := d.roundTrip(&Request{Op: OpDecode, Wire: wire, TableSize: tableSize, MaxHeaderList: maxHeaderList})
	if ae, ok := err.(*AnswerError); ok {
		d.refusal = ae
	}
	if err != nil {
		return Decoded{}, err
	}
	return Decoded{Fields: a.fields, Table: a.table, HasTable: a.hasTable}, nil
}

// PeakMemory returns the peak resident set size of the decoder program,
// in octets, as Linux reported it (VmHWM of /proc/PID/status) after its
// last answer, and whether it is known: false where there is no /proc,
// and before an answer was read. It is the program's own peak since it
// started, not its descendants': a wrapper script should exec its
// runtime. An answer refused for its length is measured too, before the
// program is killed.
func (d *DecoderClient) PeakMemory() (int64, bool) { return d.peak, d.hasPeak }

// readPeak records the program's peak resident set size, if /proc has
// it.
func (d *DecoderClient) readPeak(string) {
	if n, ok := peakRSS(d.proc.group.Cmd.Process.Pid); ok {
		d.peak, d.hasPeak = n, true
	}
}

// CPUTime returns the CPU time the decoder program has used since it
// started, summed over its threads as Linux reports it (the first field
// of /proc/PID/task/*/schedstat), and whether it is known: false where
// there is no /proc, and once the program was stopped. Like PeakMemory it
// counts the program itself, not its descendants. A thread that ended is
// no longer counted, so a second reading can be lower than the first.
func (d *DecoderClient) CPUTime() (time.Duration, bool) {
	if d.err != nil {
		return 0, false
	}
	return cputime.Process(d.proc.group.Cmd.Process.Pid)
}

// Close kills the program, if it still runs, with its process group, as
// Client.Close does. It always returns nil.
func (d *DecoderClient) Close() error {
	d.close()
	return nil
}

// roundTrip sends req and returns its answer, checked (program.roundTrip).
func (d *DecoderClient) roundTrip(req *Request) (answer, error) {
	return d.program.roundTrip(req, d.rule(req.Op))
}

// rule returns how the answer to op is read: 64 KiB for hello and new,
// MaxAnswer for decode, a longer line being an *OversizeAnswerError.
func (d *DecoderClient) rule(op string) exchangeRule {
	r := exchangeRule{limit: maxSmallAnswer, parse: func(line []byte) (answer, *lineError) {
		return parseDecoderAnswer(op, line, d.lacks)
	}}
	if op == OpDecode {
		r.limit = d.maxAnswer
		r.overLimit = func() error { return &OversizeAnswerError{Limit: d.maxAnswer} }
	}
	return r
}
