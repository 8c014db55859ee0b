package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/live/h3"
	"github.com/hpackcert/hpackcert/source/recorded"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// qpackRun is one run of the qpack command.
type qpackRun struct {
	encoders, execs, recordings, lives listFlag
	timeout                            time.Duration
	gradeFlags
	reportFlags
	stdout io.Writer
}

var qpackCommand = &command{
	Name:      "qpack",
	Grades:    true,
	UsageLine: "hpackcert qpack [flags]",
	Short:     "certify QPACK (HTTP/3) encoders on the qenc/ cases (default: the reference encoder)",
	Long: `Qpack grades every selected qenc/ case (RFC 9204) for every QPACK encoder named, in one
matrix. The certifier plays the decoder of each connection: it announces the settings
(SETTINGS_QPACK_MAX_TABLE_CAPACITY, SETTINGS_QPACK_BLOCKED_STREAMS), hands the encoder the
header lists of the embedded QIF traffic and lists of its own, delivers what it writes late
or in pieces to make sections block, answers on the decoder stream with what the strict
decoder owes, and sends bad decoder-stream octets the encoder must refuse. Each transcript is
judged from the encoder's end (its table, its blocked-streams budget, every reference, its
answers) and from the decoder's (what the strict decoder decodes, in delivery order); a
finding of the decoder's end that follows one of the encoder's is its consequence, not a
second failure. --recorded DIR grades QPACK Offline Interop output files (one target per
implementation folder), which cannot be driven: the cases only a driven encoder can show are
n/a. --live NAME captures a real HTTP/3 peer on 127.0.0.1 over QUIC (quic-go's QUIC layer,
hpackcert's own HTTP/3 framing): hpackcert is the peer's decoder, announces a 4096-octet table
and 100 blocked streams, and acknowledges what it decodes; the capture is graded as a recording
is. With no encoder named, the reference encoder is certified.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		q := &qpackRun{}
		fs.section("QPACK encoders (repeatable, one matrix; none named: builtin:ref)", func() {
			fs.Var(&q.encoders, "encoder", "`builtin:NAME` a built-in QPACK encoder: "+strings.Join(inprocess.BuiltinQPACKEncoderNames(), ", "))
			fs.Var(&q.execs, "exec", "`'CMD ARGS'` a program speaking the QPACK encoder side of hpack-stdio/1 on its stdin and stdout (docs/STDIO.md, QPACK mode)")
			fs.DurationVar(&q.timeout, "timeout", stdio.DefaultTimeout, "`D` per-request timeout for --exec programs")
			fs.Var(&q.lives, "live", "`NAME` a live HTTP/3 peer of hpackcert's catalogue ("+strings.Join(h3.Names(), ", ")+"), started on 127.0.0.1 and captured over QUIC: a server's response encoder, a client's request encoder (\"all\": every installed one)")
			fs.Var(&q.recordings, "recorded", "`DIR` QPACK Offline Interop output files (<qif>.out.<table size>.<blocked streams>.<ack>) in DIR, or in each folder of DIR (one target per folder)")
		})
		q.gradeFlags.declare(fs)
		q.reportFlags.declare(fs, false)
		return func(stdout, _ io.Writer) (int, error) {
			q.stdout = stdout
			g, err := q.gradeFlags.grading(certify.SelectQPACKEncoderCases)
			if err != nil {
				return exitHarness, err
			}
			opts := certify.QPACKEncoderOptions{Cases: g.cases, Strict: g.strict, ExpectFail: g.expectFail, Declared: g.declared}
			return q.certify(stdout, opts)
		}
	},
}

// certify certifies the QPACK encoders with opts and writes the reports
// asked for.
func (q *qpackRun) certify(stdout io.Writer, opts certify.QPACKEncoderOptions) (int, error) {
	files, err := q.reportFlags.create()
	if err != nil {
		return exitHarness, err
	}
	defer files.close()
	targets, err := q.open()
	defer func() {
		for _, t := range targets {
			t.Close()
		}
	}()
	if err != nil {
		return exitHarness, err
	}
	rep, err := certify.RunQPACKEncoders(targets, opts)
	return files.finish(stdout, rep, err)
}

// open opens the encoders named (the reference encoder when none is).
func (q *qpackRun) open() ([]qpack.EncoderTarget, error) {
	names := q.encoders
	if len(names)+len(q.execs)+len(q.recordings)+len(q.lives) == 0 {
		names = []string{"ref"}
	}
	var targets []qpack.EncoderTarget
	for _, name := range names {
		t, err := inprocess.BuiltinQPACKEncoder(strings.TrimPrefix(name, "builtin:"))
		if err != nil {
			return targets, fmt.Errorf("--encoder %s: %w", name, err)
		}
		targets = append(targets, t)
	}
	for _, c := range q.execs {
		t, err := stdio.ExecQPACKEncoder(c, stdio.ExecOptions{Timeout: q.timeout})
		if err != nil {
			return targets, fmt.Errorf("--exec %q: %w", c, err)
		}
		targets = append(targets, t)
	}
	for _, dir := range q.recordings {
		ts, err := recorded.QPACKDir(dir)
		if err != nil {
			return targets, fmt.Errorf("--recorded %s: %w", dir, err)
		}
		targets = append(targets, ts...)
	}
	lives := splitCases(q.lives)
	if slices.Contains(lives, "all") {
		lives = nil
		for _, n := range h3.Names() {
			if err := h3.Installed(n); err != nil {
				fmt.Fprintf(q.stdout, "left out: %s: %v\n", n, err)
				continue
			}
			lives = append(lives, n)
		}
	}
	for _, n := range lives {
		t, err := h3.EncoderTarget(n)
		if err != nil {
			return targets, fmt.Errorf("--live %s: %w", n, err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}
