package stdio

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/tail"
)

// ExecQPACKEncoder starts command, a QPACK encoder program speaking the
// QPACK mode of hpack-stdio/1 (docs/STDIO.md), and asks its name: its
// hello must say "qpack":true. The command line is split as ExecWith
// splits it; ExecOptions.MaxWire bounds the section and the
// encoder-stream octets of one answer. An error means the program could
// not be started or did not answer hello so: the run cannot go on.
//
// Each connection (NewEncoder) is a new request carrying the decoder's
// settings; the program is started again, with a new hello, after
// Restart (which the certifier calls at the start of each scenario, as
// for HPACK) and after any breakdown. An error answer to decoder_stream,
// or any error answer with a "code", is the encoder refusing its input:
// a *qpack.ConnectionError holding the code and the text. Anything else
// that goes wrong (an error answer to encode without a code, a timeout
// matching certify.ErrTimeout, an exit, an answer that is not of the
// protocol or over its bound: "encoder broke hpack-stdio at request N:
// ...") is a breakdown, a plain error ending with the tail of the
// program's standard error, and kills the program. As for ExecDecoder,
// the first timeout ends the target: no program is started after it, so
// that a program that hangs costs one timeout, not one a scenario. The
// target keeps the end of the program's standard error (StderrTail).
func ExecQPACKEncoder(command string, opts ExecOptions) (qpack.EncoderTarget, error) {
	t, err := execQPACK(command, opts, "encoder")
	if err != nil {
		return nil, err
	}
	return &qpackEncoderTarget{t}, nil
}

// ExecQPACKDecoder starts command, a QPACK decoder program speaking the
// QPACK mode of hpack-stdio/1, and asks its name, as ExecQPACKEncoder
// does. ExecOptions.MaxAnswer bounds the line of an answer carrying
// header lists (to decode and encoder_stream). Every error answer to
// encoder_stream, decode or cancel is the decoder refusing its input, a
// *qpack.ConnectionError with the answer's "code" ("" when it has none);
// the rest is as for ExecQPACKEncoder.
func ExecQPACKDecoder(command string, opts ExecOptions) (qpack.DecoderTarget, error) {
	t, err := execQPACK(command, opts, "decoder")
	if err != nil {
		return nil, err
	}
	return &qpackDecoderTarget{t}, nil
}

// qpackClient is what the two QPACK targets need of a running program.
type qpackClient interface {
	Name() string
	Err() error
	New(hpackstdio.QSettings) error
	Close() error
}

// qpackTarget is a QPACK program of either side: a certify.Restarter and
// a certify.StderrTail, as the HPACK targets are.
type qpackTarget struct {
	argv   []string
	opts   ExecOptions
	side   string // "encoder" or "decoder"
	name   string // the first answer to hello
	stderr *tail.Buffer
	client qpackClient // nil after Restart, until the next connection
	// broken is the timeout that ended the target, nil before it.
	broken error
}

// execQPACK starts the program of command for side and says hello.
func execQPACK(command string, opts ExecOptions, side string) (*qpackTarget, error) {
	argv, err := shell.Split(command)
	if err != nil {
		return nil, fmt.Errorf("certify: command %q: %w", command, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("certify: empty QPACK %s command", side)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	t := &qpackTarget{argv: argv, opts: opts, side: side, stderr: tail.New(stderrLimit)}
	if err := t.start(); err != nil {
		return nil, err
	}
	t.name = t.client.Name()
	return t, nil
}

// start starts the program and says hello.
func (t *qpackTarget) start() error {
	o := hpackstdio.Options{Timeout: t.opts.Timeout, MaxWire: t.opts.MaxWire, MaxAnswer: t.opts.MaxAnswer, Stderr: t.stderr}
	var c qpackClient
	var err error
	if t.side == "decoder" {
		c, err = hpackstdio.StartQPACKDecoder(t.argv, o)
	} else {
		c, err = hpackstdio.StartQPACKEncoder(t.argv, o)
	}
	if err != nil {
		return t.breakdown(err)
	}
	t.client = c
	return nil
}

func (t *qpackTarget) Name() string {
	if t.name != "" {
		return t.name
	}
	return filepath.Base(t.argv[0])
}

// connect opens a fresh connection under s, starting the program first
// if it is not running, unless a timeout ended the target; it returns
// the client the connection belongs to.
func (t *qpackTarget) connect(s qpack.Settings) (qpackClient, error) {
	if t.broken != nil {
		return nil, fmt.Errorf("no request sent: the QPACK %s is not started again since it stopped answering (%w)", t.side, t.broken)
	}
	if t.client == nil || t.client.Err() != nil {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	if err := t.client.New(hpackstdio.QSettings(s)); err != nil {
		return nil, t.breakdown(err)
	}
	return t.client, nil
}

// call returns the error of a request of the connection of client c as
// the certifier takes it (qpackError), or the error of a connection whose
// program was restarted since, sending nothing.
func (t *qpackTarget) call(c qpackClient, send func() error) error {
	if c != t.client {
		return fmt.Errorf("the QPACK %s process was restarted; this connection is gone", t.side)
	}
	return t.qpackError(send())
}

// qpackError returns err, an error of a QPACK client, as the certifier
// takes it: a refusal (hpackstdio.QPACKRefusal) is a
// *qpack.ConnectionError, anything else a breakdown.
func (t *qpackTarget) qpackError(err error) error {
	if err == nil {
		return nil
	}
	if ae := hpackstdio.QPACKRefusal(err); ae != nil {
		return &qpack.ConnectionError{Code: ae.Code, Reason: ae.Text, Err: err}
	}
	return t.breakdown(err)
}

// breakdown returns err, a breakdown of the program, with the tail of
// its standard error, made the end of the target when it is a timeout.
func (t *qpackTarget) breakdown(err error) error {
	err = fmt.Errorf("%w%s", certifyError(err), stderrNote(t.stderr))
	if t.broken == nil && errors.Is(err, hpackstdio.ErrTimeout) {
		t.broken = err
	}
	return err
}

// Restart kills the program, to be started again with empty stderr by
// the next connection; after a timeout it does nothing, keeping the tail
// of the program that stopped answering.
func (t *qpackTarget) Restart() {
	if t.broken != nil {
		return
	}
	t.Close()
	t.stderr.Reset()
}

// Breakdown returns the timeout that ended the target, or nil.
func (t *qpackTarget) Breakdown() error { return t.broken }

// StderrTail returns the end of what the program wrote to its standard
// error since the last Restart.
func (t *qpackTarget) StderrTail() string { return t.stderr.String() }

func (t *qpackTarget) Close() error {
	if t.client != nil {
		t.client.Close()
		t.client = nil
	}
	return nil
}

// qpackEncoderTarget is a QPACK encoder program.
type qpackEncoderTarget struct{ *qpackTarget }

func (t *qpackEncoderTarget) NewEncoder(s qpack.Settings) (qpack.Encoder, error) {
	c, err := t.connect(s)
	if err != nil {
		return nil, err
	}
	return &qpackEncoderConn{t.qpackTarget, c.(*hpackstdio.QEncoderClient)}, nil
}

// qpackEncoderConn is one connection of a QPACK encoder program.
type qpackEncoderConn struct {
	t *qpackTarget
	c *hpackstdio.QEncoderClient
}

func (e *qpackEncoderConn) EncodeSection(stream uint64, fields []qpack.Field) (section, encoderStream []byte, err error) {
	err = e.t.call(e.c, func() (err error) {
		section, encoderStream, err = e.c.Encode(stream, fields)
		return err
	})
	return section, encoderStream, err
}

func (e *qpackEncoderConn) DecoderStream(data []byte) (encoderStream []byte, err error) {
	err = e.t.call(e.c, func() (err error) {
		encoderStream, err = e.c.DecoderStream(data)
		return err
	})
	return encoderStream, err
}

// qpackDecoderTarget is a QPACK decoder program.
type qpackDecoderTarget struct{ *qpackTarget }

func (t *qpackDecoderTarget) NewDecoder(s qpack.Settings) (qpack.Decoder, error) {
	c, err := t.connect(s)
	if err != nil {
		return nil, err
	}
	return &qpackDecoderConn{t.qpackTarget, c.(*hpackstdio.QDecoderClient)}, nil
}

// qpackDecoderConn is one connection of a QPACK decoder program.
type qpackDecoderConn struct {
	t *qpackTarget
	c *hpackstdio.QDecoderClient
}

func (d *qpackDecoderConn) EncoderStream(data []byte) (unblocked []qpack.Decoded, decoderStream []byte, err error) {
	err = d.t.call(d.c, func() error {
		sections, out, err := d.c.EncoderStream(data)
		for _, s := range sections {
			unblocked = append(unblocked, qpack.Decoded(s))
		}
		decoderStream = out
		return err
	})
	return unblocked, decoderStream, err
}

func (d *qpackDecoderConn) DecodeSection(stream uint64, section []byte) (got qpack.Decoded, decoderStream []byte, err error) {
	err = d.t.call(d.c, func() error {
		s, out, err := d.c.DecodeSection(stream, section)
		got, decoderStream = qpack.Decoded(s), out
		return err
	})
	return got, decoderStream, err
}

func (d *qpackDecoderConn) Cancel(stream uint64) (decoderStream []byte, err error) {
	err = d.t.call(d.c, func() (err error) {
		decoderStream, err = d.c.Cancel(stream)
		return err
	})
	return decoderStream, err
}

// ServeQPACKEncoder speaks the encoder side of the QPACK mode of
// hpack-stdio/1 for a Go qpack.Encoder: it reads requests from r and
// writes one answer line per request to w until r ends. name is the
// answer to hello, which offers the binary form when binary is set;
// newEncoder opens each connection. A *qpack.ConnectionError of the
// encoder is answered with its code; it returns nil at the end of r, and
// an error when reading or writing fails or the encoder breaks down (the
// program should then exit).
func ServeQPACKEncoder(r io.Reader, w io.Writer, name string, binary bool, newEncoder func(qpack.Settings) (qpack.Encoder, error)) error {
	s := &hpackstdio.QServer{Name: name, Binary: binary, NewEncoder: func(set hpackstdio.QSettings) (hpackstdio.QEncoder, error) {
		e, err := newEncoder(qpack.Settings(set))
		if err != nil {
			return nil, err
		}
		return servedQPACKEncoder{e}, nil
	}}
	return s.Serve(r, w)
}

// ServeQPACKDecoder speaks the decoder side of the QPACK mode for a Go
// qpack.Decoder, as ServeQPACKEncoder does the encoder side: a
// *qpack.ConnectionError of the decoder is its refusal, answered with its
// code; any other error is its breakdown. With binary set, names and
// values are answered in hex, as they must be when they may not be UTF-8.
func ServeQPACKDecoder(r io.Reader, w io.Writer, name string, binary bool, newDecoder func(qpack.Settings) (qpack.Decoder, error)) error {
	s := &hpackstdio.QServer{Name: name, Binary: binary, NewDecoder: func(set hpackstdio.QSettings) (hpackstdio.QDecoder, error) {
		d, err := newDecoder(qpack.Settings(set))
		if err != nil {
			return nil, err
		}
		return servedQPACKDecoder{d}, nil
	}}
	return s.Serve(r, w)
}
