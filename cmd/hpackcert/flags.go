package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

// The flags the commands share, each group declared once. Every command
// that grades (run, repro, gate, decoders, live) declares gradeFlags and,
// but the gate, reportFlags; run, repro, gate and decoders share
// storyFlags too. A command adds only the flags naming its own targets.

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// splitCases returns the items of repeated flags, each a comma-separated
// list: the case prefixes of --cases, the targets of --live.
func splitCases(flags []string) []string {
	var out []string
	for _, f := range flags {
		for _, p := range strings.Split(f, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// encoderFlags name the encoders of run, repro and gate.
type encoderFlags struct {
	encoders, execs, stories listFlag
}

func (f *encoderFlags) declare(fs *flagSet) {
	fs.section("encoders (repeatable, one matrix; none named: the built-in ones)", func() {
		fs.Var(&f.encoders, "encoder", "`builtin:NAME` a built-in Go encoder: ref, xnet, nghttp2 (nghttp2 with -tags nghttp2)")
		fs.Var(&f.execs, "exec", "`'CMD ARGS'` a program speaking hpack-stdio/1 on its stdin and stdout")
		fs.Var(&f.stories, "stories", "`DIR` story files with recorded \"wire\" to grade")
	})
}

// named reports whether an encoder was named.
func (f *encoderFlags) named() bool {
	return len(f.encoders)+len(f.execs)+len(f.stories) > 0
}

// gradeFlags choose the cases and the verdict, on either side.
type gradeFlags struct {
	cases      listFlag
	strict     bool
	expectFail string
	declared   listFlag
}

func (f *gradeFlags) declare(fs *flagSet) {
	fs.section("cases and verdict", func() {
		fs.Var(&f.cases, "cases", "`PREFIX` run the cases whose id starts with PREFIX (repeatable, or comma-separated; dec/ cases for decoders)")
		fs.BoolVar(&f.strict, "strict", false, "non-strict grades (a SHOULD broken) fail too")
		fs.StringVar(&f.expectFail, "expect-fail", "", "`FILE` known failures (a case id, or \"TARGET CASE\", per line) that do not fail the run, declared lacks (\"unsupported CASES: REASON\" lines, as --declare-unsupported), and targets known to give nothing to judge (\"TARGET nothing-judged\")")
		fs.Var(&f.declared, "declare-unsupported", "`'CASES: REASON'` declare that the cases (ids or id prefixes, comma-separated; \"CASES for TARGET: REASON\" for one target) cannot be graded, and why: a MUST case left unsupported fails the run unless declared; a declared one is reported as declared, never as pass (repeatable)")
	})
}

// grading is what gradeFlags ask for, checked, on either side.
type grading struct {
	cases      []string
	strict     bool
	expectFail []string
	declared   []certify.Declaration
}

// grading returns what the flags ask for, every case prefix checked by
// selectCases (the side's catalogue), the expected failures read and the
// declarations parsed; the expect file's declarations come before the
// flags'.
func (f *gradeFlags) grading(selectCases func([]string) ([]certify.Case, error)) (grading, error) {
	g := grading{strict: f.strict, cases: splitCases(f.cases)}
	if _, err := selectCases(g.cases); err != nil {
		return g, &usageError{fmt.Sprintf("--cases: %v", err)}
	}
	if f.expectFail != "" {
		failures, declared, err := certify.ReadExpectations(f.expectFail)
		if err != nil {
			return g, fmt.Errorf("--expect-fail: %w", err)
		}
		g.expectFail, g.declared = failures, declared
	}
	for _, v := range f.declared {
		declared, err := certify.ParseDeclaration(v)
		if err != nil {
			return g, &usageError{fmt.Sprintf("--declare-unsupported: %v", err)}
		}
		g.declared = append(g.declared, declared...)
	}
	return g, nil
}

// options returns the encoder side's options of the flags.
func (f *gradeFlags) options() (certify.Options, error) {
	g, err := f.grading(certify.SelectCases)
	return certify.Options{Cases: g.cases, Strict: g.strict, ExpectFail: g.expectFail, Declared: g.declared}, err
}

// decoderOptions returns the decoder side's options of the flags.
func (f *gradeFlags) decoderOptions() (certify.DecoderOptions, error) {
	g, err := f.grading(certify.SelectDecoderCases)
	return certify.DecoderOptions{Cases: g.cases, Strict: g.strict, ExpectFail: g.expectFail, Declared: g.declared}, err
}

// storyFlags shape the stories a run plays and bound its --exec
// programs: shared by run, repro, gate and decoders.
type storyFlags struct {
	timeout                       time.Duration
	trafficStories, trafficBlocks int
	seed                          int64
}

func (f *storyFlags) declare(fs *flagSet) {
	fs.section("run flags", func() {
		fs.DurationVar(&f.timeout, "timeout", stdio.DefaultTimeout, "`D` per-request timeout for --exec programs")
		fs.IntVar(&f.trafficStories, "traffic-stories", 0, "`N` use only N traffic stories (quick runs)")
		fs.IntVar(&f.trafficBlocks, "traffic-blocks", 0, "`N` use only N blocks of each traffic story (quick runs)")
		fs.Int64Var(&f.seed, "seed", 1, "`N` seed of the generated stories")
	})
}

// check refuses a timeout that is not positive and cuts that are
// negative.
func (f *storyFlags) check() error {
	if f.timeout <= 0 {
		return &usageError{fmt.Sprintf("--timeout %v: must be positive", f.timeout)}
	}
	if f.trafficStories < 0 || f.trafficBlocks < 0 {
		return &usageError{"--traffic-stories and --traffic-blocks must not be negative"}
	}
	return nil
}

// runFlags shape a run of run, repro and gate beyond storyFlags.
type runFlags struct {
	storyFlags
	testcases         string
	maxBlock, maxList int
	maxStory          int64
	jobs              int
}

func (f *runFlags) declare(fs *flagSet) {
	f.storyFlags.declare(fs)
	fs.section("run flags", func() {
		fs.StringVar(&f.testcases, "testcases", "", "`DIR` traffic stories from an hpack-test-case directory (its raw-data/) or a directory of story files (default: hpack-test-case's 32 raw-data stories, embedded in the binary)")
		fs.IntVar(&f.maxBlock, "max-block", certify.DefaultMaxBlockSize, "`N` largest block an encoder may write (default 1 MiB); larger fails the encoder")
		fs.IntVar(&f.maxList, "max-header-list", certify.DefaultMaxHeaderListSize, "`N` largest header list a block may decode to in any oracle (default 64 KiB, or the size of the fields sent): the HPACK-bomb defence")
		fs.Int64Var(&f.maxStory, "max-story-size", vectors.DefaultMaxStoryFileSize, "`N` largest story file read (default 256 MiB)")
		fs.IntVar(&f.jobs, "jobs", 1, "`N` certify up to N --exec encoders and recorded targets at once (in-process encoders are certified alone); the report is the same")
	})
}

// options returns the options of the flags, checked, over base.
func (f *runFlags) options(base certify.Options) (certify.Options, error) {
	for _, l := range []struct {
		flag string
		n    int64
	}{{"--max-block", int64(f.maxBlock)}, {"--max-header-list", int64(f.maxList)}, {"--max-story-size", f.maxStory}} {
		if l.n <= 0 {
			return base, &usageError{fmt.Sprintf("%s %d: must be positive", l.flag, l.n)}
		}
	}
	if err := f.storyFlags.check(); err != nil {
		return base, err
	}
	if f.jobs <= 0 {
		return base, &usageError{fmt.Sprintf("--jobs %d: must be positive", f.jobs)}
	}
	base.Jobs = f.jobs
	base.TestCaseDir, base.Seed = f.testcases, f.seed
	base.TrafficStories, base.TrafficBlocks = f.trafficStories, f.trafficBlocks
	base.MaxBlockSize, base.MaxHeaderListSize, base.MaxStoryFileSize = f.maxBlock, f.maxList, f.maxStory
	return base, nil
}
