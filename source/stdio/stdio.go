// Package stdio is the hpack-stdio/1 source: Exec certifies an encoder
// program in any language speaking the protocol (package hpackstdio, its
// messages, client and server), and Serve makes a Go certify.Encoder
// speak it; ExecDecoder and ServeDecoder do the same for decoders.
//
// ExecQPACKEncoder, ExecQPACKDecoder, ServeQPACKEncoder and
// ServeQPACKDecoder do the same for QPACK (certify/qpack) over the
// protocol's QPACK mode.
//
// Files: stdio.go (the encoder side: Exec, Serve), decoder.go (the
// decoder side: ExecDecoder, ServeDecoder; a timeout ends a decoder
// target), convert.go (the one place where the protocol's types meet
// the certifier's: fields, lacks, errors, served encoders and decoders,
// HPACK and QPACK), qpack.go (the QPACK mode, both sides).
package stdio

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/tail"
)

// DefaultTimeout is how long Exec waits for each answer by default.
const DefaultTimeout = hpackstdio.DefaultTimeout

// stderrLimit is how much of a program's standard error is kept for the
// report: the last stderrLimit octets.
const stderrLimit = 16 << 10

// Exec starts command, a program speaking hpack-stdio/1, and asks its
// name; timeout bounds every request, 0 meaning DefaultTimeout. It is
// ExecWith with only a timeout.
func Exec(command string, timeout time.Duration) (certify.Target, error) {
	return ExecWith(command, ExecOptions{Timeout: timeout})
}

// ExecOptions configures ExecWith.
type ExecOptions struct {
	// Timeout bounds every request, from writing it to reading its answer;
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxWire bounds the header block of one encode answer, in octets;
	// 0 means hpackstdio.DefaultMaxWire, 1 MiB. A larger answer is refused
	// without being read whole, and kills the program, as a timeout does.
	// It applies to HPACK encoders, and to QPACK programs of both sides,
	// where it bounds the section and the stream octets of an answer.
	MaxWire int
	// MaxAnswer bounds the line of one decode answer, in octets; 0 means
	// hpackstdio.DefaultMaxAnswer, 16 MiB. A longer answer is refused
	// without being read whole, an *OversizeAnswerError, and kills the
	// program. It applies to decoders only (ExecDecoder, and
	// ExecQPACKDecoder for its answers carrying header lists).
	MaxAnswer int
}

// ExecWith starts command, a program speaking hpack-stdio/1, and asks its
// name. The command line is split into words by the POSIX shell's
// quoting rules (package internal/shell: quotes and backslashes), but no
// shell runs. An error means the program
// could not be started or did not answer hello: the run cannot go on.
//
// The program is killed and started again, with a new hello, at the start
// of every scenario and after any breakdown (a timeout, an exit, an answer
// that is not hpack-stdio/1 or is over its bound: a
// *hpackstdio.BreakdownError, "encoder broke hpack-stdio at request N:
// ..."; an error answer, a *hpackstdio.AnswerError, leaves it running),
// so one breakdown costs the rest of one scenario, never the run; what it
// wrote to its standard error meanwhile goes into the report. On Unix it runs in a process group of
// its own, killed whole each time, so that nothing it started outlives
// it; Close kills the last one, and KillPrograms all of them at once.
// When its first answer to hello offers the binary-safe form, every octet
// of every scenario is sent; when it does not, the certifier leaves out
// the octets that valid UTF-8 never contains and says so in the report.
// What that answer declares the encoder's library cannot express (its
// "lacks" and "refuses") the Target returns as a certify.Lacker, and the
// certifier builds every scenario from what is left.
func ExecWith(command string, opts ExecOptions) (certify.Target, error) {
	argv, err := shell.Split(command)
	if err != nil {
		return nil, fmt.Errorf("certify: command %q: %w", command, err)
	}
	if len(argv) == 0 {
		return nil, errors.New("certify: empty encoder command")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	t := &execTarget{argv: argv, opts: opts, stderr: tail.New(stderrLimit)}
	if err := t.start(); err != nil {
		return nil, fmt.Errorf("%w%s", err, stderrNote(t.stderr))
	}
	t.name, t.binary = t.client.Name(), t.client.Binary()
	if t.lacks, err = certifyLacks(t.client.Lacks()); err != nil {
		t.kill()
		return nil, err
	}
	return t, nil
}

// KillPrograms kills every program that Exec and ExecWith started and
// that still runs, each with its process group. It only sends signals,
// so it may be called from any goroutine, such as a signal handler that
// is about to exit: programs in process groups of their own do not get
// the terminal's interrupt. The Targets must still be closed.
func KillPrograms() { hpackstdio.KillAll() }

// execTarget is a program speaking hpack-stdio/1; it is a Restarter, a
// StderrTail, a UTF8Only and a certify.Lacker.
type execTarget struct {
	argv   []string
	opts   ExecOptions
	name   string        // the first answer to hello
	binary bool          // whether the first answer to hello offered the binary form
	lacks  certify.Lacks // what the first answer to hello declared
	stderr *tail.Buffer
	client *hpackstdio.Client // nil after Restart, until the next NewEncoder
}

func (t *execTarget) Name() string {
	if t.name != "" {
		return t.name
	}
	return filepath.Base(t.argv[0])
}

// start starts the program and says hello.
func (t *execTarget) start() error {
	c, err := hpackstdio.Start(t.argv, hpackstdio.Options{Timeout: t.opts.Timeout, MaxWire: t.opts.MaxWire, Stderr: t.stderr})
	if err != nil {
		return certifyError(err)
	}
	t.client = c
	return nil
}

// UTF8Only reports whether names and values must be valid UTF-8: true
// when the program did not offer the binary-safe form in its first
// answer to hello.
func (t *execTarget) UTF8Only() bool { return !t.binary }

// Lacks returns what the program declared in its first answer to hello
// that its library cannot express.
func (t *execTarget) Lacks() certify.Lacks { return t.lacks }

// Restart kills the program, to be started again with empty stderr by the
// next NewEncoder, at the start of each scenario.
func (t *execTarget) Restart() {
	t.kill()
	t.stderr.Reset()
}

func (t *execTarget) kill() {
	if t.client != nil {
		t.client.Close()
		t.client = nil
	}
}

// StderrTail returns the end of what the program wrote to its standard
// error since the last Restart.
func (t *execTarget) StderrTail() string { return t.stderr.String() }

// NewEncoder asks for a fresh context, starting the program first if it
// is not running.
func (t *execTarget) NewEncoder() (certify.Encoder, error) {
	if t.client == nil || t.client.Err() != nil {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	if err := t.client.New(); err != nil {
		return nil, certifyError(err)
	}
	return &stdioEncoder{t: t, c: t.client}, nil
}

func (t *execTarget) Close() error {
	t.kill()
	return nil
}

// stdioEncoder is one context of a program speaking hpack-stdio/1.
type stdioEncoder struct {
	t       *execTarget
	c       *hpackstdio.Client
	pending []uint32
	fields  []hpackstdio.Field
}

func (e *stdioEncoder) SetMaxDynamicTableSize(n uint32) error {
	e.pending = append(e.pending, n)
	return nil
}

func (e *stdioEncoder) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	if e.c != e.t.client {
		return dst, errors.New("the encoder process was restarted; this context is gone")
	}
	e.fields = protocolFields(e.fields[:0], fields)
	sizes := e.pending
	e.pending = nil
	wire, err := e.c.Encode(dst, sizes, e.fields)
	return wire, certifyError(err)
}

// A ServeOption configures the hpackstdio.Server that Serve runs, after
// Serve has set its Name and NewEncoder. To offer the binary-safe form,
// which lets the certifier send every octet value, and to declare a
// library without a never-index API:
//
//	stdio.Serve(os.Stdin, os.Stdout, name, newEncoder,
//		func(s *hpackstdio.Server) { s.Binary = true },
//		stdio.DeclareLacks(certify.Lacks{NeverIndex: true}))
type ServeOption func(*hpackstdio.Server)

// Serve speaks the encoder side of hpack-stdio/1 for a Go
// certify.Encoder: it reads requests from r and writes one answer line per request to w until
// r ends. name is the answer to hello; newEncoder opens each context.
// Without options the answer to hello does not offer the binary-safe form
// (see ServeOption); requests of both forms are accepted. It returns nil
// at the end of r and an error only when reading or writing fails.
func Serve(r io.Reader, w io.Writer, name string, newEncoder func() certify.Encoder, opts ...ServeOption) error {
	s := &hpackstdio.Server{
		Name:       name,
		NewEncoder: func() hpackstdio.Encoder { return &servedEncoder{enc: newEncoder()} },
	}
	for _, o := range opts {
		o(s)
	}
	return s.Serve(r, w)
}
