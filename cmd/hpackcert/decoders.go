package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/live/targets"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// decoderRun is one run of the decoders command, or of repro on a
// decoder's reproduction.
type decoderRun struct {
	decoders, execs listFlag
	lives           listFlag
	tls             bool
	gradeFlags
	reportFlags
	storyFlags
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
With no decoder named, the built-in ones are certified: strict, x/net, ref (package
decoder, the reference decoder) and libnghttp2 when built with -tags nghttp2. A MUST
case left unsupported (a declared lack) fails the run unless declared, as for encoders.
The traffic stories are those of dec/3.2/1; with --live targets alone, 4 stories of 30
blocks unless --traffic-stories or --traffic-blocks says otherwise. --repro DIR writes
each failure's blocks as a story file that hpackcert repro replays against --decoder,
--exec or --live.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		d := &decoderRun{}
		fs.section("decoders (repeatable, one matrix; none named: the built-in ones)", func() {
			declareDecoderFlag(fs, &d.decoders)
			fs.Var(&d.execs, "exec", "`'CMD ARGS'` a program speaking the decoder side of hpack-stdio/1 on its stdin and stdout (docs/STDIO.md)")
			fs.Var(&d.lives, "live", "`NAME` a server or proxy of hpackcert live's catalogue (hpackcert targets), started on 127.0.0.1 and sent the stories as requests (\"all\": every installed one); what it decoded is read back at hpackcert's origin (a proxy's relayed request, a server app's echo), and the cases its role cannot show are n/a")
			fs.BoolVar(&d.tls, "tls", false, "reach the --live targets over TLS (ALPN h2) instead of h2c")
		})
		d.gradeFlags.declare(fs)
		d.reportFlags.declare(fs, true)
		d.storyFlags.declare(fs)
		return func(stdout, _ io.Writer) (int, error) {
			opts, err := d.options()
			if err != nil {
				return exitHarness, err
			}
			return d.certify(stdout, opts)
		}
	},
}

// declareDecoderFlag declares --decoder, the built-in decoders to
// certify, into decoders.
func declareDecoderFlag(fs *flagSet, decoders *listFlag) {
	fs.Var(decoders, "decoder", "`builtin:NAME` a built-in Go decoder: "+strings.Join(inprocess.BuiltinDecoderNames(), ", "))
}

// options returns the options of the flags, checked.
func (d *decoderRun) options() (certify.DecoderOptions, error) {
	opts, err := d.gradeFlags.decoderOptions()
	if err != nil {
		return opts, err
	}
	if err := d.storyFlags.check(); err != nil {
		return opts, err
	}
	opts.Seed, opts.TrafficStories, opts.TrafficBlocks = d.seed, d.trafficStories, d.trafficBlocks
	opts.ReproDir = d.repro
	if len(d.lives) > 0 && opts.TrafficStories == 0 && opts.TrafficBlocks == 0 {
		// A live target costs a request and its relay or echo per
		// block: dec/3.2/1 judges a sample of the traffic, which holds
		// every representation the whole of it does.
		opts.TrafficStories, opts.TrafficBlocks, opts.Generated = 4, 30, 2
	}
	return opts, nil
}

// certify certifies the decoders with opts and writes the reports asked
// for.
func (d *decoderRun) certify(stdout io.Writer, opts certify.DecoderOptions) (int, error) {
	if err := makeDirs(nil, opts.ReproDir); err != nil {
		return exitHarness, err
	}
	files, err := d.reportFlags.create()
	if err != nil {
		return exitHarness, err
	}
	defer files.close()
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
		return exitHarness, err
	}
	rep, err := certify.RunDecoders(targets, opts)
	if err == nil && rep.Repro != nil {
		rep.Repro.Replay = d.replayCommand(rep)
	}
	return files.finish(stdout, rep, err)
}

// replayCommand returns the command replaying the run's first decoder
// reproduction with hpackcert repro, "" when none was written: the file,
// its case, and the decoder as the command line named it.
func (d *decoderRun) replayCommand(rep *certify.Report) string {
	names := d.decoders
	if len(names)+len(d.execs) == 0 && len(d.lives) == 0 {
		names = inprocess.BuiltinDecoderNames()
	}
	for i, name := range rep.Encoders {
		for _, c := range rep.Cases {
			if res := rep.Results[name][c.ID]; res == nil || res.Replay == nil {
				continue
			}
			spec := "--live " + shell.Quote(name)
			switch {
			case i < len(names):
				spec = "--decoder " + names[i]
			case i < len(names)+len(d.execs):
				spec = "--exec " + shell.Quote(d.execs[i-len(names)])
			}
			return replayCommand("hpackcert", certify.ReproPath(d.repro, name, c.ID), c.ID, spec)
		}
	}
	return ""
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
