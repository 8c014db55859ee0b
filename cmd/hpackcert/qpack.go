package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/recorded"
)

// qpackRun is one run of the qpack command.
type qpackRun struct {
	encoders, recordings listFlag
	gradeFlags
	reportFlags
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
n/a. With no encoder named, the reference encoder is certified.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		q := &qpackRun{}
		fs.section("QPACK encoders (repeatable, one matrix; none named: builtin:ref)", func() {
			fs.Var(&q.encoders, "encoder", "`builtin:NAME` a built-in QPACK encoder: "+strings.Join(inprocess.BuiltinQPACKEncoderNames(), ", "))
			fs.Var(&q.recordings, "recorded", "`DIR` QPACK Offline Interop output files (<qif>.out.<table size>.<blocked streams>.<ack>) in DIR, or in each folder of DIR (one target per folder)")
		})
		q.gradeFlags.declare(fs)
		q.reportFlags.declare(fs, false)
		return func(stdout, _ io.Writer) (int, error) {
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
	if len(names)+len(q.recordings) == 0 {
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
	for _, dir := range q.recordings {
		ts, err := recorded.QPACKDir(dir)
		if err != nil {
			return targets, fmt.Errorf("--recorded %s: %w", dir, err)
		}
		targets = append(targets, ts...)
	}
	return targets, nil
}
