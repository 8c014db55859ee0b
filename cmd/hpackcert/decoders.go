package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/live/targets"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

// decoderRun is one run of the decoders command.
type decoderRun struct {
	decoders, execs listFlag
	lives           listFlag
	tls             bool
	cases, declared listFlag
	strict          bool
	expectFail      string
	reportFlags
	timeout                       time.Duration
	trafficStories, trafficBlocks int
	seed                          int64
	// story is a reproduction to replay (--story).
	story string
}

var decodersCommand = &command{
	Name:      "decoders",
	Grades:    true,
	UsageLine: "hpackcert decoders [flags]",
	Short:     "certify decoders on the dec/ cases (default: the built-in ones)",
	Long: `Decoders grades every selected dec/ case for every decoder named, in one matrix, as
run does for encoders: each case decodes its own stories in fresh contexts (valid blocks
must decode to the strict decoder's fields and table, invalid ones must be refused as a
decoding error), a divergence is filed under the first failed case whose feature its
blocks use, and a crash, a panic or a protocol violation is the decoder's breakdown.
With no decoder named, the built-in ones are certified: strict, x/net, and libnghttp2
when built with -tags nghttp2. A MUST case left unsupported (a declared lack) fails the
run unless declared, as for encoders.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		d := &decoderRun{}
		fs.section("decoders (repeatable, one matrix; none named: the built-in ones)", func() {
			fs.Var(&d.decoders, "decoder", "`builtin:NAME` a built-in Go decoder: "+strings.Join(inprocess.BuiltinDecoderNames(), ", "))
			fs.Var(&d.execs, "exec", "`'CMD ARGS'` a program speaking the decoder side of hpack-stdio/1 on its stdin and stdout (docs/STDIO.md)")
			fs.Var(&d.lives, "live", "`NAME` a server or proxy of hpackcert live's catalogue, started on 127.0.0.1 and sent the stories as requests (\"all\": every installed one); it shows no fields, so only refusals and acceptance are judged")
			fs.BoolVar(&d.tls, "tls", false, "reach the --live targets over TLS (ALPN h2) instead of h2c")
		})
		fs.section("cases and verdict", func() {
			fs.Var(&d.cases, "cases", "`PREFIX` run the dec/ cases whose id starts with PREFIX (repeatable, or comma-separated)")
			fs.BoolVar(&d.strict, "strict", false, "non-strict grades (a SHOULD broken) fail too")
			fs.StringVar(&d.expectFail, "expect-fail", "", "`FILE` known failures (a case id, or \"DECODER CASE\", per line) and declared lacks (\"unsupported CASES: REASON\")")
			fs.Var(&d.declared, "declare-unsupported", "`'CASES: REASON'` declare that the cases cannot be graded, and why (repeatable)")
		})
		d.reportFlags.declare(fs, true)
		fs.section("run flags", func() {
			fs.DurationVar(&d.timeout, "timeout", stdio.DefaultTimeout, "`D` per-request timeout for --exec decoders")
			fs.IntVar(&d.trafficStories, "traffic-stories", 0, "`N` use only N of the embedded traffic stories in dec/3.2/1 (quick runs; --live alone: 4)")
			fs.IntVar(&d.trafficBlocks, "traffic-blocks", 0, "`N` use only N blocks of each traffic story (quick runs; --live alone: 30)")
			fs.Int64Var(&d.seed, "seed", 1, "`N` seed of the generated stories")
			fs.StringVar(&d.story, "story", "", "`FILE` replay a reproduction written by decoders --repro: the selected cases decode its blocks alone")
		})
		return func(stdout, _ io.Writer) (int, error) { return d.run(stdout) }
	},
}

func (d *decoderRun) options() (certify.DecoderOptions, error) {
	opts := certify.DecoderOptions{Strict: d.strict, Cases: splitCases(d.cases), Seed: d.seed,
		TrafficStories: d.trafficStories, TrafficBlocks: d.trafficBlocks, ReproDir: d.repro}
	if d.story != "" {
		st, err := vectors.ReadStory(d.story)
		if err != nil {
			return opts, fmt.Errorf("--story: %w", err)
		}
		opts.Replay = []*vectors.Story{st}
	}
	if _, err := certify.SelectDecoderCases(opts.Cases); err != nil {
		return opts, &usageError{fmt.Sprintf("--cases: %v", err)}
	}
	if d.expectFail != "" {
		failures, declared, err := certify.ReadExpectations(d.expectFail)
		if err != nil {
			return opts, fmt.Errorf("--expect-fail: %w", err)
		}
		opts.ExpectFail, opts.Declared = failures, declared
	}
	for _, v := range d.declared {
		declared, err := certify.ParseDeclaration(v)
		if err != nil {
			return opts, &usageError{fmt.Sprintf("--declare-unsupported: %v", err)}
		}
		opts.Declared = append(opts.Declared, declared...)
	}
	return opts, nil
}

// run certifies the decoders and writes the reports asked for.
func (d *decoderRun) run(stdout io.Writer) (int, error) {
	opts, err := d.options()
	if err != nil {
		return 2, err
	}
	if d.timeout <= 0 {
		return 2, &usageError{fmt.Sprintf("--timeout %v: must be positive", d.timeout)}
	}
	if d.trafficStories < 0 || d.trafficBlocks < 0 {
		return 2, &usageError{"--traffic-stories and --traffic-blocks must not be negative"}
	}
	if len(d.lives) > 0 && opts.TrafficStories == 0 && opts.TrafficBlocks == 0 {
		// A live target shows no fields: dec/3.2/1 judges only that it
		// takes valid blocks, which a sample of the traffic shows as well
		// as all of it, at a round trip per block.
		opts.TrafficStories, opts.TrafficBlocks, opts.Generated = 4, 30, 2
	}
	outputs, err := createOutputs(d.reportFlags.files())
	if err != nil {
		return 2, err
	}
	defer func() {
		for _, o := range outputs {
			o.close()
		}
	}()
	targets, err := openDecoders(d.decoders, d.execs, len(d.lives) > 0, d.timeout, opts)
	if err == nil && len(d.lives) > 0 {
		var lt []certify.DecoderTarget
		lt, err = openLiveDecoders(splitCases(d.lives), d.tls, opts, stdout)
		targets = append(targets, lt...)
	}
	defer func() {
		for _, t := range targets {
			t.Close()
		}
	}()
	if err != nil {
		return 2, err
	}
	rep, err := certify.RunDecoders(targets, opts)
	if err != nil {
		return 2, err
	}
	if rep.Repro != nil {
		rep.Repro.Replay = d.replayCommand(rep)
		fmt.Fprintln(stdout, rep.Repro.Text())
	}
	return writeReports(stdout, rep, outputs)
}

// replayCommand returns the command replaying the run's first
// reproduction, "" when none was written: decoders --story on the file,
// its case, and the decoder as it was named.
func (d *decoderRun) replayCommand(rep *certify.Report) string {
	names := d.decoders
	if len(names)+len(d.execs) == 0 && len(d.lives) == 0 {
		names = inprocess.BuiltinDecoderNames()
	}
	for i, name := range rep.Encoders {
		for _, c := range rep.Cases {
			if rep.Results[name][c.ID].Replay == nil {
				continue
			}
			spec := "--live " + shell.Quote(name)
			switch {
			case i < len(names):
				spec = "--decoder " + names[i]
			case i < len(names)+len(d.execs):
				spec = "--exec " + shell.Quote(d.execs[i-len(names)])
			}
			return fmt.Sprintf("hpackcert decoders --story %s --cases %s %s", shell.Quote(certify.ReproPath(d.repro, name, c.ID)), c.ID, spec)
		}
	}
	return ""
}

// writeReports prints the text report, writes the report files asked
// for and returns the exit status the report gives: 1 when the run
// failed, 0 when it did not.
func writeReports(stdout io.Writer, rep *certify.Report, outputs []*output) (int, error) {
	if err := report.WriteText(stdout, rep); err != nil {
		return 2, err
	}
	for _, o := range outputs {
		if err := o.write(func(w io.Writer) error { return report.Write(w, o.kind, rep) }); err != nil {
			return 2, err
		}
	}
	if rep.Failed() {
		return 1, nil
	}
	return 0, nil
}

// openDecoders opens the decoders named (the built-in ones when none is,
// unless liveOnly: only live targets were named).
func openDecoders(decoders, execs []string, liveOnly bool, timeout time.Duration, opts certify.DecoderOptions) ([]certify.DecoderTarget, error) {
	if len(decoders)+len(execs) == 0 && !liveOnly {
		decoders = inprocess.BuiltinDecoderNames()
	}
	var targets []certify.DecoderTarget
	for _, name := range decoders {
		t, err := inprocess.BuiltinDecoder(strings.TrimPrefix(name, "builtin:"))
		if err != nil {
			return targets, fmt.Errorf("--decoder %s: %w", name, err)
		}
		targets = append(targets, t)
	}
	for _, c := range execs {
		t, err := stdio.ExecDecoder(c, stdio.ExecOptions{Timeout: timeout})
		if err != nil {
			return targets, fmt.Errorf("--exec %q: %w", c, err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// openLiveDecoders opens the live targets named ("all": every installed
// server and proxy), printing the ones left out and why.
func openLiveDecoders(names []string, tls bool, opts certify.DecoderOptions, stdout io.Writer) ([]certify.DecoderTarget, error) {
	o := targets.DecoderOptions{TLS: tls, OriginH2C: !tls}
	var out []certify.DecoderTarget
	if slices.Contains(names, "all") {
		all, left := targets.DecoderTargets(o)
		for _, l := range left {
			fmt.Fprintf(stdout, "left out: %s\n", l)
		}
		out = all
	} else {
		for _, n := range names {
			spec, err := targets.LookupTarget(n)
			if err != nil {
				return out, fmt.Errorf("--live %s: %w", n, err)
			}
			to := o
			to.OriginH2C = o.OriginH2C && spec.H2COrigin
			t, err := targets.DecoderTarget(spec, to)
			if err != nil {
				return out, fmt.Errorf("--live %s: %w", n, err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}
