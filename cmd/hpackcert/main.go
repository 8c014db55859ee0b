// Command hpackcert certifies HPACK (RFC 7541) header encoders.
//
// Usage:
//
//	hpackcert [run] [flags]       certify encoders (default: the built-in ones)
//	hpackcert list [--cases P] [-v]  print the cases (-v: with the RFC text each checks)
//	hpackcert repro --story FILE [flags]  replay one failure written by run --repro DIR
//	hpackcert live [flags]        grade HTTP/2 servers, proxies and clients over the wire
//	hpackcert encode --stories DIR --out DIR [--encoder E]
//	                              write an encoder's output in the hpack-test-case format
//
// Encoders to certify, any number of each, all in one matrix:
//
//	--encoder builtin:NAME   a built-in Go encoder: ref, xnet (nghttp2 with -tags nghttp2)
//	--exec 'CMD ARGS'        a program speaking hpack-stdio/1 on its stdin and stdout
//	--stories DIR            story files with recorded "wire" to grade
//
// With none, the built-in encoders are certified.
//
// Exit status: 0 when no case fails, 1 when a case fails (not counting
// --expect-fail entries), 2 when the run itself could not happen (bad
// flags, unreadable files, an encoder that never answers hello), with a
// one-line reason on standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/live"
	"github.com/hpackcert/hpackcert/internal/shell"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

func main() {
	// Each --exec encoder runs in a process group of its own, which an
	// interrupt of the terminal does not reach: kill them before going.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-interrupted
		stdio.KillPrograms()
		live.KillTargets()
		fmt.Fprintf(os.Stderr, "hpackcert: %v: stopped, encoder programs and live targets killed\n", sig)
		os.Exit(2)
	}()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is a harness error caused by the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// run runs the command and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	status := 0
	switch cmd {
	case "run":
		status, err = runCmd(args, stdout, false)
	case "repro":
		status, err = runCmd(args, stdout, true)
	case "live":
		status, err = liveCmd(args, stdout)
	case "list":
		err = listCmd(args, stdout)
	case "encode":
		err = encodeCmd(args, stdout)
	case "help":
		fmt.Fprint(stdout, usage)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q (want run, repro, live, list, encode or help)", cmd)}
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "hpackcert: %s\n", oneLine(err.Error()))
		return 2
	}
	return status
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

const usage = `usage:
  hpackcert [run] [flags]        certify encoders (default: the built-in ones)
  hpackcert list [--cases P] [-v] print the cases (-v: with the RFC text)
  hpackcert repro --story FILE [flags] replay one failure written by run --repro DIR
  hpackcert live [flags]         grade HTTP/2 servers, proxies and clients over the wire (hpackcert live -h)
  hpackcert encode --stories DIR --out DIR [--encoder builtin:NAME]

encoders (repeatable, one matrix):
  --encoder builtin:NAME   built-in Go encoder: ref, xnet, nghttp2 (with -tags nghttp2)
  --exec 'CMD ARGS'        program speaking hpack-stdio/1
  --stories DIR            story files with recorded "wire" to grade

run flags:
  --cases PREFIX           run cases whose id starts with PREFIX (repeatable, or comma-separated)
  --strict                 non-strict grades fail
  --expect-fail FILE       known failures (case id, or "ENCODER CASE", per line) that do not fail the run
  --timeout D              per-request timeout for --exec encoders (default 5s)
  --json FILE, --junit FILE, --html FILE, --md FILE   write reports
  --repro DIR              write each failure's blocks as a story file, for hpackcert repro
  --testcases DIR          traffic stories from an hpack-test-case directory (its raw-data/) or a
                           directory of story files (default: hpack-test-case's 32 raw-data
                           stories, embedded in the binary)
  --traffic-stories N, --traffic-blocks N             cut the traffic stories (quick runs)
  --seed N                 seed of the generated stories
  --max-block N            largest block an encoder may write (default 1 MiB); larger fails the encoder
  --max-header-list N      largest header list a block may decode to in any oracle (default 64 KiB,
                           or the size of the fields sent); the HPACK-bomb defence
  --max-story-size N       largest story file read (default 256 MiB)

exit status: 0 nothing failed, 1 a case failed, 2 the run could not happen
`

// splitCases returns the case prefixes of repeated --cases flags, each a
// comma-separated list.
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

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// newFlagSet returns a flag set that reports errors as usageErrors.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{err.Error() + " (see hpackcert help)"}
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q (see hpackcert help)", fs.Arg(0))}
	}
	return nil
}

// runCmd runs the run command, or the repro command when repro is set:
// a run whose every case judges the blocks of a --story file.
func runCmd(args []string, stdout io.Writer, repro bool) (int, error) {
	fs := newFlagSet("run")
	var replayFile, reproDir *string
	if repro {
		replayFile = fs.String("story", "", "story file written by run --repro")
	} else {
		reproDir = fs.String("repro", "", "directory to write a reproduction of each failure to")
	}
	var encoders, execs, stories, cases listFlag
	fs.Var(&encoders, "encoder", "built-in encoder")
	fs.Var(&execs, "exec", "stdio encoder command")
	fs.Var(&stories, "stories", "recorded story directory")
	fs.Var(&cases, "cases", "case id prefix")
	strict := fs.Bool("strict", false, "non-strict grades fail")
	expectFail := fs.String("expect-fail", "", "expected failures file")
	timeout := fs.Duration("timeout", stdio.DefaultTimeout, "per-request timeout")
	jsonOut := fs.String("json", "", "JSON report file")
	junitOut := fs.String("junit", "", "JUnit XML report file")
	htmlOut := fs.String("html", "", "HTML report file")
	mdOut := fs.String("md", "", "Markdown report file")
	testcases := fs.String("testcases", "", "hpack-test-case directory")
	trafficStories := fs.Int("traffic-stories", 0, "traffic stories to use")
	trafficBlocks := fs.Int("traffic-blocks", 0, "blocks per traffic story")
	seed := fs.Int64("seed", 1, "seed of generated stories")
	maxBlock := fs.Int("max-block", certify.DefaultMaxBlockSize, "largest header block an encoder may write, in octets")
	maxList := fs.Int("max-header-list", certify.DefaultMaxHeaderListSize, "largest header list a block may decode to")
	maxStory := fs.Int64("max-story-size", vectors.DefaultMaxStoryFileSize, "largest story file read, in octets")
	if err := parse(fs, args); err != nil {
		return 2, err
	}
	for _, l := range []struct {
		flag string
		n    int64
	}{{"--max-block", int64(*maxBlock)}, {"--max-header-list", int64(*maxList)}, {"--max-story-size", *maxStory}} {
		if l.n <= 0 {
			return 2, &usageError{fmt.Sprintf("%s %d: must be positive", l.flag, l.n)}
		}
	}
	if *timeout <= 0 {
		return 2, &usageError{fmt.Sprintf("--timeout %v: must be positive", *timeout)}
	}
	opts := certify.Options{
		Strict: *strict, TestCaseDir: *testcases, Seed: *seed,
		TrafficStories: *trafficStories, TrafficBlocks: *trafficBlocks,
		MaxBlockSize: *maxBlock, MaxHeaderListSize: *maxList, MaxStoryFileSize: *maxStory,
	}
	opts.Cases = splitCases(cases)
	if repro {
		if *replayFile == "" {
			return 2, &usageError{"repro needs --story FILE, a reproduction written by run --repro (see hpackcert help)"}
		}
		st, err := vectors.ReadStoryLimit(*replayFile, opts.MaxStoryFileSize)
		if err != nil {
			return 2, err
		}
		if len(st.Cases) == 0 {
			return 2, fmt.Errorf("%s: the story has no cases", *replayFile)
		}
		opts.Replay = []*vectors.Story{st}
	}
	if reproDir != nil && *reproDir != "" {
		if err := os.MkdirAll(*reproDir, 0o755); err != nil {
			return 2, fmt.Errorf("--repro %s: %w", *reproDir, err)
		}
	}
	if _, err := certify.SelectCases(opts.Cases); err != nil {
		return 2, err
	}
	if *expectFail != "" {
		list, err := certify.ReadExpectFail(*expectFail)
		if err != nil {
			return 2, err
		}
		opts.ExpectFail = list
	}
	// The report files are created before the run, so that a path that
	// cannot be written stops it at once rather than after minutes.
	outputs, err := createOutputs(map[string]string{"json": *jsonOut, "junit": *junitOut, "html": *htmlOut, "md": *mdOut})
	if err != nil {
		return 2, err
	}
	defer func() {
		for _, o := range outputs {
			o.close()
		}
	}()
	var targets []certify.Target
	var specs []string
	if repro && len(encoders)+len(execs)+len(stories) == 0 && recordedStory(opts.Replay[0]) {
		// A reproduction of recorded wire grades that wire again.
		var t certify.Target
		t, err = certify.RecordedStories("recorded:"+filepath.Base(*replayFile), *replayFile, opts.Replay)
		targets, specs = []certify.Target{t}, []string{""}
	} else {
		targets, specs, err = openTargets(encoders, execs, stories, *timeout, opts)
	}
	defer func() {
		for _, t := range targets {
			t.Close()
		}
	}()
	if err != nil {
		return 2, err
	}
	rep, err := certify.Run(targets, opts)
	if err != nil {
		return 2, err
	}
	if err := rep.WriteText(stdout); err != nil {
		return 2, err
	}
	writers := map[string]func(io.Writer) error{"json": rep.WriteJSON, "junit": rep.WriteJUnit, "html": rep.WriteHTML, "md": rep.WriteMarkdown}
	for _, o := range outputs {
		if err := o.write(writers[o.kind]); err != nil {
			return 2, err
		}
	}
	if reproDir != nil && *reproDir != "" {
		if err := writeRepros(stdout, rep, specs, *reproDir); err != nil {
			return 2, err
		}
	}
	if rep.Failed() {
		return 1, nil
	}
	return 0, nil
}

// recordedStory reports whether every case of st carries its wire.
func recordedStory(st *vectors.Story) bool {
	for _, c := range st.Cases {
		if c.Wire == nil {
			return false
		}
	}
	return true
}

// writeRepros writes the reproduction of every failed or non-strict case
// to dir, one story file each, and says how to replay one.
func writeRepros(stdout io.Writer, rep *certify.Report, specs []string, dir string) error {
	var written []string
	var replay string
	for i, enc := range rep.Encoders {
		for _, c := range rep.Cases {
			res := rep.Results[enc][c.ID]
			if res.Replay == nil {
				continue
			}
			name := fileName(enc) + "--" + strings.ReplaceAll(c.ID, "/", "_") + ".json"
			path := filepath.Join(dir, name)
			if err := vectors.WriteStory(path, res.Replay); err != nil {
				return fmt.Errorf("--repro: %w", err)
			}
			written = append(written, name)
			if replay == "" && i < len(specs) {
				replay = strings.TrimSpace(fmt.Sprintf("hpackcert repro --story %s --cases %s %s", shell.Quote(path), c.ID, specs[i]))
			}
		}
	}
	if len(written) == 0 {
		fmt.Fprintf(stdout, "reproductions: none to write to %s (no case failed)\n", dir)
		return nil
	}
	fmt.Fprintf(stdout, "reproductions: %d story files in %s; replay one with\n  %s\n", len(written), dir, replay)
	return nil
}

// fileName keeps the letters, digits and -._ of an encoder's name.
func fileName(name string) string {
	out := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

// openTargets opens the encoders named on the command line, or the
// built-in ones when none is named.
// openTargets opens the encoders named on the command line, or the
// built-in ones when none is named, and returns with each the flag that
// names it.
func openTargets(encoders, execs, stories []string, timeout time.Duration, opts certify.Options) ([]certify.Target, []string, error) {
	if len(encoders)+len(execs)+len(stories) == 0 {
		encoders = inprocess.BuiltinNames()
	}
	var targets []certify.Target
	var specs []string
	for _, e := range encoders {
		t, err := inprocess.Builtin(strings.TrimPrefix(e, "builtin:"))
		if err != nil {
			return targets, specs, fmt.Errorf("--encoder %s: %w", e, err)
		}
		targets, specs = append(targets, t), append(specs, "--encoder builtin:"+strings.TrimPrefix(e, "builtin:"))
	}
	for _, dir := range stories {
		t, err := certify.RecordedLimit(dir, opts.MaxStoryFileSize)
		if err != nil {
			return targets, specs, fmt.Errorf("--stories %s: %w", dir, err)
		}
		// A reproduction carries the recorded wire: repro needs no flag.
		targets, specs = append(targets, t), append(specs, "")
	}
	for _, c := range execs {
		t, err := stdio.ExecWith(c, stdio.ExecOptions{Timeout: timeout, MaxWire: opts.MaxBlockSize})
		if err != nil {
			return targets, specs, fmt.Errorf("--exec %q: %w", c, err)
		}
		targets, specs = append(targets, t), append(specs, "--exec "+shell.Quote(c))
	}
	return targets, specs, nil
}

// output is one report file, created before the run and written after it.
type output struct {
	kind, path string
	f          *os.File
	written    bool
}

// createOutputs creates the report files asked for (flag name to path;
// empty paths are not asked for), or returns an error naming the flag.
func createOutputs(paths map[string]string) ([]*output, error) {
	var out []*output
	for _, kind := range []string{"json", "junit", "html", "md"} {
		path := paths[kind]
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err != nil {
			for _, o := range out {
				o.close()
			}
			return nil, fmt.Errorf("--%s %s: cannot write the report: %w", kind, path, err)
		}
		out = append(out, &output{kind: kind, path: path, f: f})
	}
	return out, nil
}

// write writes the report into the file and closes it.
func (o *output) write(write func(io.Writer) error) error {
	if err := write(o.f); err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	o.written = true
	return o.f.Close()
}

// close closes the file, and removes it when the run ended before the
// report was written, so that no empty report is left behind.
func (o *output) close() {
	if o.written {
		return
	}
	o.f.Close()
	os.Remove(o.path)
}

func listCmd(args []string, stdout io.Writer) error {
	fs := newFlagSet("list")
	var cases listFlag
	fs.Var(&cases, "cases", "case id prefix")
	verbose := fs.Bool("v", false, "print the RFC text of each case")
	if err := parse(fs, args); err != nil {
		return err
	}
	selected, err := certify.SelectCases(splitCases(cases))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-12s %-11s %s\n", "case", "if broken", "title")
	for _, c := range selected {
		fmt.Fprintf(stdout, "%-12s %-11s %s\n", c.ID, c.Violation, c.Title)
		if *verbose {
			fmt.Fprintf(stdout, "             %s\n", c.RFC)
		}
	}
	return nil
}

func encodeCmd(args []string, stdout io.Writer) error {
	fs := newFlagSet("encode")
	in := fs.String("stories", "", "directory of story files to encode")
	out := fs.String("out", "", "directory to write the encoded stories to")
	enc := fs.String("encoder", "builtin:ref", "built-in encoder")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return &usageError{"encode needs --stories DIR and --out DIR"}
	}
	t, err := inprocess.Builtin(strings.TrimPrefix(*enc, "builtin:"))
	if err != nil {
		return err
	}
	defer t.Close()
	stories, err := vectors.ReadStoryDir(*in)
	if err != nil {
		return err
	}
	if len(stories) == 0 {
		return fmt.Errorf("%s: no story files (*.json)", *in)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	blocks := 0
	for _, s := range stories {
		encoded, err := certify.EncodeStory(t, s)
		if err != nil {
			return err
		}
		if err := vectors.WriteStory(filepath.Join(*out, filepath.Base(s.Path)), encoded); err != nil {
			return err
		}
		blocks += len(s.Cases)
	}
	fmt.Fprintf(stdout, "wrote %d stories (%d blocks) encoded by %s to %s\n", len(stories), blocks, t.Name(), *out)
	return nil
}
