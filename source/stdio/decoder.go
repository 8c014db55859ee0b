package stdio

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/tail"
)

// OversizeAnswerError is the error, wrapped in a breakdown, that
// DecodeBlock of an ExecDecoder target returns when the decoder answered
// with a line longer than ExecOptions.MaxAnswer: it expanded the block
// into more than any header list the certifier accepts, as a decoder does
// that expands a decompression bomb instead of refusing its header list
// (RFC 9113 §6.5.2, RFC 7541 §7.3). The program was killed, as for any
// breakdown; a case grading header-list limits (dec/7.3/1) finds it with
// errors.As and grades the expansion rather than the breakdown.
type OversizeAnswerError = hpackstdio.OversizeAnswerError

// ErrNoTable is returned by DecoderTable of an ExecDecoder context whose
// last decode answer had no "table", though the decoder showed its table
// when ExecDecoder asked: answers that show it only sometimes break the
// protocol.
var ErrNoTable = errors.New("stdio: the decoder showed no table in its last answer, though it showed one at the start")

// ExecDecoder starts command, a decoder program speaking the decoder side
// of hpack-stdio/1, and asks its name. The command line is split as
// ExecWith splits it. An error means the program could not be started or
// did not answer hello as a decoder ("decoder":true; an encoder's hello
// is refused, saying so): the run cannot go on.
//
// Every context the target opens (NewDecoder) is a new request to the
// program; every block is a decode request carrying the block and the two
// settings in force for it, SETTINGS_HEADER_TABLE_SIZE (the last value
// given to SetMaxDynamicTableSize, 4096 until then) and
// SETTINGS_MAX_HEADER_LIST_SIZE (the last given to SetMaxHeaderListSize,
// 0 for no limit). Of several table sizes given between two blocks the
// last is sent: the protocol has one table_size a block.
//
// An error answer to decode is the decoder refusing the block: DecodeBlock
// returns a *certify.Rejection holding its text, and the context is dead.
// Anything else that goes wrong (a timeout, matching certify.ErrTimeout,
// an exit, an answer that is not hpack-stdio/1 or over its bound: a
// *hpackstdio.BreakdownError, "decoder broke hpack-stdio at request N:
// ...") is a breakdown, a plain error, and kills the program; the next
// NewDecoder starts it again, so that a crash costs the rest of one
// story, never the run. A timeout is different: a program that stopped
// answering would most likely stop again, and each story would wait for
// a timeout of its own, so the first request not answered in time ends
// the target. No program is started after it: every later NewDecoder
// fails at once, sending nothing, Restart no longer restarts, and
// Breakdown returns that timeout, so that a decoder that hangs costs one
// timeout, not one a story. The target is a certify.Restarter, which
// kills the program for a fresh one when asked, and keeps the end of its
// standard error for the report (StderrTail): after a timeout, the tail
// of the program that stopped answering. What the hello declares the
// library lacks the target returns as a certify.DecoderLacker.
//
// To learn whether the decoder shows its dynamic table (the table of a
// decode answer is optional), ExecDecoder opens a context and decodes the
// empty block once, right after hello. When the answer has a table, every
// context is a certify.DecoderTableReader: DecoderTable returns the table
// of the last decode answer, or ErrNoTable when it had none; otherwise
// no context is one, and the cases judge the fields alone. A probe that
// fails leaves the decoder taken as showing no table, and its failure to
// the first story. The contexts also have PeakMemory() (int64, bool): the peak resident set size of the
// program in octets, as Linux reports it (VmHWM) after each answer, and
// whether it is known; it counts the program itself since it started,
// not its descendants; and CPUTime() (time.Duration, bool), the CPU time
// the program has used, by which dec/7.3/2 times a decoding
// (certify.CPUTimer).
func ExecDecoder(command string, opts ExecOptions) (certify.DecoderTarget, error) {
	argv, err := shell.Split(command)
	if err != nil {
		return nil, fmt.Errorf("certify: command %q: %w", command, err)
	}
	if len(argv) == 0 {
		return nil, errors.New("certify: empty decoder command")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	t := &execDecoderTarget{argv: argv, opts: opts, stderr: tail.New(stderrLimit)}
	if err := t.start(); err != nil {
		return nil, fmt.Errorf("%w%s", err, stderrNote(t.stderr))
	}
	t.name = t.client.Name()
	if t.lacks, err = certifyDecoderLacks(t.client.Lacks()); err != nil {
		t.kill()
		return nil, err
	}
	t.showsTable = t.probeTable()
	return t, nil
}

// probeTable decodes the empty block in a fresh context and reports
// whether the answer showed a table.
func (t *execDecoderTarget) probeTable() bool {
	if t.failed(t.client.New()) != nil {
		return false
	}
	got, err := t.client.Decode([]byte{}, hpackstdio.InitialTableSize, 0)
	return t.failed(err) == nil && got.HasTable
}

// execDecoderTarget is a decoder program speaking hpack-stdio/1; it is a
// certify.Restarter, a certify.StderrTail and a certify.DecoderLacker.
type execDecoderTarget struct {
	argv  []string
	opts  ExecOptions
	name  string               // the first answer to hello
	lacks certify.DecoderLacks // what the first answer to hello declared
	// showsTable is whether the decoder showed its table when asked to
	// decode the empty block at the start.
	showsTable bool
	stderr     *tail.Buffer
	client     *hpackstdio.DecoderClient // nil after Restart, until the next NewDecoder
	// broken is the timeout that ended the target, nil before it: no
	// program is started after it.
	broken error
}

func (t *execDecoderTarget) Name() string {
	if t.name != "" {
		return t.name
	}
	return filepath.Base(t.argv[0])
}

// start starts the program and says hello.
func (t *execDecoderTarget) start() error {
	c, err := hpackstdio.StartDecoder(t.argv, hpackstdio.Options{Timeout: t.opts.Timeout, MaxAnswer: t.opts.MaxAnswer, Stderr: t.stderr})
	if err != nil {
		return certifyError(t.failed(err))
	}
	t.client = c
	return nil
}

// DecoderLacks returns what the program declared in its first answer to
// hello that its library cannot do or show.
func (t *execDecoderTarget) DecoderLacks() certify.DecoderLacks { return t.lacks }

// Restart kills the program, to be started again with empty stderr by the
// next NewDecoder; after a timeout it does nothing, keeping the tail of
// the program that stopped answering.
func (t *execDecoderTarget) Restart() {
	if t.broken != nil {
		return
	}
	t.kill()
	t.stderr.Reset()
}

// Breakdown returns the timeout that ended the target, or nil while
// programs are started: the target's one failure as a whole.
func (t *execDecoderTarget) Breakdown() error { return t.broken }

// failed makes err, an error of the program, the target's end when it
// is a timeout, and returns it.
func (t *execDecoderTarget) failed(err error) error {
	if t.broken == nil && errors.Is(err, hpackstdio.ErrTimeout) {
		t.broken = certifyError(err)
	}
	return err
}

func (t *execDecoderTarget) kill() {
	if t.client != nil {
		t.client.Close()
		t.client = nil
	}
}

// StderrTail returns the end of what the program wrote to its standard
// error since the last Restart.
func (t *execDecoderTarget) StderrTail() string { return t.stderr.String() }

// NewDecoder asks for a fresh context, starting the program first if it
// is not running, unless a timeout ended the target.
func (t *execDecoderTarget) NewDecoder() (certify.Decoder, error) {
	if t.broken != nil {
		return nil, fmt.Errorf("no request sent: the decoder is not started again since it stopped answering (%w)", t.broken)
	}
	if t.client == nil || t.client.Err() != nil {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	if err := t.client.New(); err != nil {
		return nil, certifyError(t.failed(err))
	}
	d := &stdioDecoder{t: t, c: t.client, tableSize: hpackstdio.InitialTableSize}
	if t.showsTable {
		return &stdioTableDecoder{d}, nil
	}
	return d, nil
}

func (t *execDecoderTarget) Close() error {
	t.kill()
	return nil
}

// stdioDecoder is one context of a decoder program: the settings in
// force and the table of the last answer.
type stdioDecoder struct {
	t             *execDecoderTarget
	c             *hpackstdio.DecoderClient
	tableSize     uint32
	maxHeaderList uint32
	last          hpackstdio.Decoded
}

func (d *stdioDecoder) SetMaxDynamicTableSize(n uint32) error {
	d.tableSize = n
	return nil
}

func (d *stdioDecoder) SetMaxHeaderListSize(n uint32) error {
	d.maxHeaderList = n
	return nil
}

// DecodeBlock sends the block with the settings in force; an error
// answer becomes what certifyDecodeError makes of it (a refusal, or a
// setting the program does not support), anything else a breakdown.
func (d *stdioDecoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	if d.c != d.t.client {
		return nil, errors.New("the decoder process was restarted; this context is gone")
	}
	d.last = hpackstdio.Decoded{}
	got, err := d.c.Decode(block, d.tableSize, d.maxHeaderList)
	if err != nil {
		return nil, certifyDecodeError(d.t.failed(err))
	}
	d.last = got
	return certifyFields(make([]certify.Field, 0, len(got.Fields)), got.Fields), nil
}

// stdioTableDecoder is a context of a decoder that shows its table.
type stdioTableDecoder struct{ *stdioDecoder }

// DecoderTable returns the table of the last decode answer, newest
// first, or ErrNoTable when it had none.
func (d *stdioTableDecoder) DecoderTable() ([]certify.Field, error) {
	if !d.last.HasTable {
		return nil, ErrNoTable
	}
	return certifyFields(make([]certify.Field, 0, len(d.last.Table)), d.last.Table), nil
}

// PeakMemory returns the peak resident set size of the decoder program,
// in octets, as Linux reported it after the program's last answer, and
// whether it is known (hpackstdio.DecoderClient.PeakMemory).
func (d *stdioDecoder) PeakMemory() (int64, bool) { return d.c.PeakMemory() }

// CPUTime returns the CPU time the decoder program has used, and whether
// it is known (hpackstdio.DecoderClient.CPUTime): dec/7.3/2 times a
// decoding by it (certify.CPUTimer).
func (d *stdioDecoder) CPUTime() (time.Duration, bool) { return d.c.CPUTime() }

// ServeDecoder speaks the decoder side of hpack-stdio/1 for a Go
// certify.Decoder: it reads requests from r and writes one answer line
// per request to w until r ends. name is the answer to hello; newDecoder
// opens each context. A block the decoder refuses with an error wrapping
// a *certify.Rejection (certify.Reject) is answered with an error, a
// decoding error; the decoder's table is shown when it is a
// certify.DecoderTableReader. To declare lacks:
//
//	stdio.ServeDecoder(os.Stdin, os.Stdout, name, newDecoder,
//		stdio.DeclareDecoderLacks(certify.DecoderLacks{NeverIndexed: true}))
//
// It returns nil at the end of r, and an error when reading or writing
// fails or when the decoder breaks down (any other error, a panic): the
// program should then exit with a failing status, which the certifier
// takes as the breakdown it is.
func ServeDecoder(r io.Reader, w io.Writer, name string, newDecoder func() certify.Decoder, opts ...ServeOption) error {
	s := &hpackstdio.Server{Name: name, NewDecoder: func() hpackstdio.Decoder { return servedDecoder(newDecoder()) }}
	for _, o := range opts {
		o(s)
	}
	return s.Serve(r, w)
}

// stderrNote returns the end of a program's standard error for an error
// message, or "" when it wrote nothing.
func stderrNote(stderr *tail.Buffer) string {
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return "; stderr: " + s
	}
	return ""
}
