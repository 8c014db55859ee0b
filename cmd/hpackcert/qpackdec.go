package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// qpackDecoderRun is one run of the qpack-decoders command.
type qpackDecoderRun struct {
	decoders, execs listFlag
	timeout         time.Duration
	gradeFlags
	reportFlags
}

var qpackDecodersCommand = &command{
	Name:      "qpack-decoders",
	Grades:    true,
	UsageLine: "hpackcert qpack-decoders [flags]",
	Short:     "certify QPACK (HTTP/3) decoders on the qdec/ cases (default: the built-in ones)",
	Long: `Qpack-decoders grades every selected qdec/ case (RFC 9204) for every QPACK decoder named, in
one matrix. Each case plays its own stories on fresh connections: encoder-stream octets (cut
anywhere), field sections on request streams and stream resets, under the settings the
decoder announced. Every step must give what the strict decoder (oracle/qstrict) gives: the
header list, a section held blocked until its inserts arrive, the decoder-stream
instructions owed (read by meaning, so increments may be coalesced), and, for input RFC 9204
forbids, a refusal with its error code (QPACK_DECOMPRESSION_FAILED,
QPACK_ENCODER_STREAM_ERROR). A divergence is filed under the first failed case whose feature
its story uses; a crash, a panic or an answer outside the interface is the decoder's
breakdown. With no decoder named, the built-in ones with a dynamic table are certified: strict,
and libnghttp3's in a build with -tags nghttp3; quic-go/qpack (static table only, a declared
lack that leaves most cases ungraded) is certified when named, --decoder builtin:quicgo.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		q := &qpackDecoderRun{}
		fs.section("QPACK decoders (repeatable, one matrix; none named: the built-in ones with a dynamic table)", func() {
			fs.Var(&q.decoders, "decoder", "`builtin:NAME` a built-in QPACK decoder: "+strings.Join(inprocess.BuiltinQPACKDecoderNames(), ", "))
			fs.Var(&q.execs, "exec", "`'CMD ARGS'` a program speaking the QPACK decoder side of hpack-stdio/1 on its stdin and stdout (docs/STDIO.md, QPACK mode)")
			fs.DurationVar(&q.timeout, "timeout", stdio.DefaultTimeout, "`D` per-request timeout for --exec programs")
		})
		q.gradeFlags.declare(fs)
		q.reportFlags.declare(fs, false)
		return func(stdout, _ io.Writer) (int, error) {
			g, err := q.gradeFlags.grading(certify.SelectQPACKDecoderCases)
			if err != nil {
				return exitHarness, err
			}
			opts := certify.QPACKDecoderOptions{Cases: g.cases, Strict: g.strict, ExpectFail: g.expectFail, Declared: g.declared}
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
			rep, err := certify.RunQPACKDecoders(targets, opts)
			return files.finish(stdout, rep, err)
		}
	},
}

// open opens the decoders named (the built-in ones when none is).
func (q *qpackDecoderRun) open() ([]qpack.DecoderTarget, error) {
	names := q.decoders
	if len(names)+len(q.execs) == 0 {
		for _, n := range inprocess.BuiltinQPACKDecoderNames() {
			if n != "quicgo" {
				names = append(names, n)
			}
		}
	}
	var targets []qpack.DecoderTarget
	for _, name := range names {
		t, err := inprocess.BuiltinQPACKDecoder(strings.TrimPrefix(name, "builtin:"))
		if err != nil {
			return targets, fmt.Errorf("--decoder %s: %w", name, err)
		}
		targets = append(targets, t)
	}
	for _, c := range q.execs {
		t, err := stdio.ExecQPACKDecoder(c, stdio.ExecOptions{Timeout: q.timeout})
		if err != nil {
			return targets, fmt.Errorf("--exec %q: %w", c, err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}
