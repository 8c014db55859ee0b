package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

// The flags the commands share, each group declared once.

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

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

// gradeFlags choose the cases and the verdict: shared by run, repro, gate
// and live.
type gradeFlags struct {
	cases      listFlag
	strict     bool
	expectFail string
	declared   listFlag
}

func (f *gradeFlags) declare(fs *flagSet) {
	fs.section("cases and verdict", func() {
		fs.Var(&f.cases, "cases", "`PREFIX` run the cases whose id starts with PREFIX (repeatable, or comma-separated)")
		fs.BoolVar(&f.strict, "strict", false, "non-strict grades (a SHOULD broken) fail too")
		fs.StringVar(&f.expectFail, "expect-fail", "", "`FILE` known failures (a case id, or \"ENCODER CASE\", per line) that do not fail the run, declared lacks (\"unsupported CASES: REASON\" lines, as --declare-unsupported), and targets known to give nothing to judge (\"ENCODER nothing-judged\")")
		fs.Var(&f.declared, "declare-unsupported", "`'CASES: REASON'` declare that the cases (ids or id prefixes, comma-separated; \"CASES for ENCODER: REASON\" for one encoder) cannot be graded, and why: a MUST case left unsupported fails the run unless declared; a declared one is reported as declared, never as pass (repeatable)")
	})
}

// options returns the options of the flags, every case prefix, the
// expected failures and the declarations checked; the expect file's
// declarations come before the flags'.
func (f *gradeFlags) options() (certify.Options, error) {
	opts := certify.Options{Strict: f.strict, Cases: splitCases(f.cases)}
	if _, err := certify.SelectCases(opts.Cases); err != nil {
		return opts, &usageError{fmt.Sprintf("--cases: %v", err)}
	}
	if f.expectFail != "" {
		failures, declared, err := certify.ReadExpectations(f.expectFail)
		if err != nil {
			return opts, fmt.Errorf("--expect-fail: %w", err)
		}
		opts.ExpectFail, opts.Declared = failures, declared
	}
	for _, v := range f.declared {
		declared, err := certify.ParseDeclaration(v)
		if err != nil {
			return opts, &usageError{fmt.Sprintf("--declare-unsupported: %v", err)}
		}
		opts.Declared = append(opts.Declared, declared...)
	}
	return opts, nil
}

// reportFlags are the report files: shared by run, repro and live (which
// has no --repro); the gate writes every one into its --out folder.
type reportFlags struct {
	json, junit, html, md string
	repro                 string
}

// reportFlagNames are the flags of reportFlags, which the gate refuses.
var reportFlagNames = []string{"json", "junit", "html", "md", "repro"}

func (f *reportFlags) declare(fs *flagSet, repro bool) {
	fs.section("reports", func() {
		fs.StringVar(&f.json, "json", "", "`FILE` write the JSON report")
		fs.StringVar(&f.junit, "junit", "", "`FILE` write the JUnit XML report")
		fs.StringVar(&f.html, "html", "", "`FILE` write the HTML report")
		fs.StringVar(&f.md, "md", "", "`FILE` write the Markdown report")
		if repro {
			fs.StringVar(&f.repro, "repro", "", "`DIR` write each failure's blocks as a story file, for hpackcert repro")
		}
	})
}

// files returns the report paths by kind, as createOutputs takes them.
func (f *reportFlags) files() map[string]string {
	return map[string]string{"json": f.json, "junit": f.junit, "html": f.html, "md": f.md}
}

// runFlags shape a run of run, repro and gate.
type runFlags struct {
	timeout                       time.Duration
	testcases                     string
	trafficStories, trafficBlocks int
	seed                          int64
	maxBlock, maxList             int
	maxStory                      int64
	jobs                          int
}

func (f *runFlags) declare(fs *flagSet) {
	fs.section("run flags", func() {
		fs.DurationVar(&f.timeout, "timeout", stdio.DefaultTimeout, "`D` per-request timeout for --exec encoders")
		fs.StringVar(&f.testcases, "testcases", "", "`DIR` traffic stories from an hpack-test-case directory (its raw-data/) or a directory of story files (default: hpack-test-case's 32 raw-data stories, embedded in the binary)")
		fs.IntVar(&f.trafficStories, "traffic-stories", 0, "`N` use only N traffic stories (quick runs)")
		fs.IntVar(&f.trafficBlocks, "traffic-blocks", 0, "`N` use only N blocks of each traffic story (quick runs)")
		fs.Int64Var(&f.seed, "seed", 1, "`N` seed of the generated stories")
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
	if f.timeout <= 0 {
		return base, &usageError{fmt.Sprintf("--timeout %v: must be positive", f.timeout)}
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
