// Command hpackcert certifies HPACK (RFC 7541) header encoders.
//
// Usage:
//
//	hpackcert [run] [flags]       certify encoders (default: the built-in ones)
//	hpackcert gate [flags]        run as a CI gate: every report into one folder
//	hpackcert repro --story FILE [flags]  replay one failure written by run --repro DIR
//	hpackcert live [flags]        grade HTTP/2 servers, proxies and clients over the wire
//	hpackcert list [--cases P] [-v]  print the cases (-v: with the RFC text each checks)
//	hpackcert encode --stories DIR --out DIR [--encoder E]
//	                              write an encoder's output in the hpack-test-case format
//	hpackcert help [COMMAND]      print the help, or a command's (also COMMAND -h)
//	hpackcert version             print the build, the case catalogue and the Go version
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
// --expect-fail entries) or a MUST case is left unsupported for an encoder
// the run drives without being declared (--declare-unsupported, or an
// "unsupported" line of the --expect-fail file), 2 when the run itself
// could not happen (bad flags, unreadable files, an encoder that never
// answers hello), with a one-line reason on standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/proc"
	"github.com/hpackcert/hpackcert/internal/shell"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/recorded"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

func main() {
	// Each --exec encoder and live target runs in a process group of its
	// own, which an interrupt of the terminal does not reach: kill them
	// before going.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-interrupted
		proc.KillAll()
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
	named := len(args) > 0 && !strings.HasPrefix(args[0], "-")
	name := runCommand.Name
	if named {
		name, args = args[0], args[1:]
	} else if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		printVersion(stdout)
		return 0
	}
	status, err := 2, error(unknownCommand(name))
	if c := lookup(name); c != nil {
		fs := newFlags(c.Name)
		exec := c.Flags(fs)
		if err = parse(fs, c, args); err == nil {
			status, err = exec(stdout, stderr)
		}
		if errors.Is(err, flag.ErrHelp) {
			// hpackcert -h asks for hpackcert's help; hpackcert run -h for run's.
			if named {
				c.printHelp(stdout)
			} else {
				printUsage(stdout)
			}
			return 0
		}
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

// certification is one run of run, repro or gate: what the flags asked
// for, and what the gate adds.
type certification struct {
	encoderFlags
	gradeFlags
	reportFlags
	runFlags
	// story is the --story of repro.
	story string
	// replayBin is the program the replay command names; dirs are
	// created once the flags are checked, before the run.
	replayBin string
	dirs      []string
}

var runCommand = &command{
	Name:      "run",
	Grades:    true,
	UsageLine: "hpackcert [run] [flags]",
	Short:     "certify encoders (default: the built-in ones)",
	Long: `Run grades every selected case for every encoder named, in one matrix, and prints
the matrix and the first failure; the report flags write it in other formats too.

Nothing ungraded passes: a MUST case that an encoder run drives (--encoder, --exec)
leaves unsupported fails the run, with --strict or without, unless it is declared, by
--declare-unsupported 'CASES: REASON' or by an "unsupported CASES: REASON" line of the
--expect-fail file ("CASES for ENCODER: REASON" for one encoder). A declared case is
reported as declared, never as pass. Recorded stories (--stories) cannot be driven:
their verdict line names the MUST cases the recording does not exercise, and their
exit status follows the cases it did. Nothing judged is not a pass: a target with no
case judged at all (story files without "wire") fails the run unless a line "NAME
nothing-judged" of the --expect-fail file declares it.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		c := &certification{replayBin: "hpackcert"}
		c.encoderFlags.declare(fs)
		c.gradeFlags.declare(fs)
		c.reportFlags.declare(fs, true)
		c.runFlags.declare(fs)
		return func(stdout, _ io.Writer) (int, error) { return c.run(stdout) }
	},
}

var reproCommand = &command{
	Name:      "repro",
	Grades:    true,
	UsageLine: "hpackcert repro --story FILE [flags]",
	Short:     "replay one failure written by run --repro DIR (or by the gate)",
	Long: `Repro runs the cases named with --cases on the blocks of one story file that
run --repro wrote: against the encoder named (the one that failed, or a fixed
one), or, for recorded wire, against the wire the file carries.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		c := &certification{}
		fs.section("reproduction", func() {
			fs.StringVar(&c.story, "story", "", "`FILE` story file written by run --repro")
		})
		c.encoderFlags.declare(fs)
		c.gradeFlags.declare(fs)
		c.reportFlags.declare(fs, false)
		c.runFlags.declare(fs)
		return func(stdout, _ io.Writer) (int, error) {
			if c.story == "" {
				return 2, &usageError{"repro needs --story FILE, a reproduction written by run --repro (see hpackcert help repro)"}
			}
			return c.run(stdout)
		}
	},
}

// run certifies the encoders and writes the reports asked for; with a
// story, it replays that story's blocks.
func (c *certification) run(stdout io.Writer) (int, error) {
	opts, err := c.gradeFlags.options()
	if err != nil {
		return 2, err
	}
	if opts, err = c.runFlags.options(opts); err != nil {
		return 2, err
	}
	if c.story != "" {
		st, err := vectors.ReadStoryLimit(c.story, opts.MaxStoryFileSize)
		if err != nil {
			return 2, fmt.Errorf("--story: %w", err)
		}
		if len(st.Cases) == 0 {
			return 2, fmt.Errorf("--story %s: the story has no cases", c.story)
		}
		opts.Replay = []*vectors.Story{st}
	}
	dirs := c.dirs
	if c.repro != "" {
		dirs = append(dirs, c.repro)
	}
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 2, fmt.Errorf("cannot create the folder %s: %w", dir, err)
		}
	}
	// The report files are created before the run, so that a path that
	// cannot be written stops it at once rather than after minutes.
	outputs, err := createOutputs(c.reportFlags.files())
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
	if c.story != "" && !c.encoderFlags.named() && recordedStory(opts.Replay[0]) {
		// A reproduction of recorded wire grades that wire again.
		var t certify.Target
		t, err = certify.RecordedStories("recorded:"+filepath.Base(c.story), c.story, opts.Replay)
		targets, specs = []certify.Target{t}, []string{""}
	} else {
		targets, specs, err = openTargets(c.encoders, c.execs, c.stories, c.timeout, opts)
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
	if err := report.WriteText(stdout, rep); err != nil {
		return 2, err
	}
	// The reproductions are written before the other reports, which name
	// their folder and how to replay one.
	if c.repro != "" {
		repro, err := writeRepros(rep, specs, c.repro, c.replayBin)
		if err != nil {
			return 2, err
		}
		rep.Repro = &repro
		fmt.Fprintln(stdout, repro.Text())
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
// to dir, one story file each, and returns where they are and how to
// replay the first with bin.
func writeRepros(rep *certify.Report, specs []string, dir, bin string) (certify.Repro, error) {
	repro := certify.Repro{Dir: dir}
	for i, enc := range rep.Encoders {
		for _, c := range rep.Cases {
			res := rep.Results[enc][c.ID]
			if res.Replay == nil {
				continue
			}
			path := filepath.Join(dir, fileName(enc)+"--"+strings.ReplaceAll(c.ID, "/", "_")+".json")
			if err := vectors.WriteStory(path, res.Replay); err != nil {
				return repro, fmt.Errorf("--repro: %w", err)
			}
			repro.Files++
			if repro.Replay == "" && i < len(specs) {
				repro.Replay = replayCommand(bin, path, c.ID, specs[i])
			}
		}
	}
	return repro, nil
}

// replayCommand returns the shell command replaying case id from the
// story file path with bin, against the encoder spec names.
func replayCommand(bin, path, id, spec string) string {
	cmd := strings.TrimSpace(fmt.Sprintf("%s repro --story %s --cases %s %s", shell.Quote(bin), shell.Quote(path), id, spec))
	if !filepath.IsAbs(bin) || !strings.HasPrefix(spec, "--exec ") {
		return cmd
	}
	// An absolute command is meant to work from anywhere: an --exec
	// command line may name its program relative to where it ran.
	if wd, err := os.Getwd(); err == nil {
		cmd = "cd " + shell.Quote(wd) + " && " + cmd
	}
	return cmd
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
		t, err := recorded.DirLimit(dir, opts.MaxStoryFileSize)
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

var listCommand = &command{
	Name:      "list",
	UsageLine: "hpackcert list [--decoders] [--cases PREFIX] [-v]",
	Short:     "print the cases (-v: with the RFC text each checks)",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var cases listFlag
		var verbose, decoders bool
		fs.section("list flags", func() {
			fs.Var(&cases, "cases", "`PREFIX` print the cases whose id starts with PREFIX (repeatable, or comma-separated)")
			fs.BoolVar(&verbose, "v", false, "print the RFC text of each case")
			fs.BoolVar(&decoders, "decoders", false, "print the dec/ cases (hpackcert decoders) instead of the enc/ ones; a dec/ prefix in --cases implies it")
		})
		return func(stdout, _ io.Writer) (int, error) {
			prefixes := splitCases(cases)
			selectCases := certify.SelectCases
			if decoders || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(p, "dec/") }) {
				selectCases = certify.SelectDecoderCases
			}
			selected, err := selectCases(prefixes)
			if err != nil {
				return 2, &usageError{fmt.Sprintf("--cases: %v", err)}
			}
			fmt.Fprintf(stdout, "%-12s %-11s %s\n", "case", "if broken", "title")
			for _, c := range selected {
				fmt.Fprintf(stdout, "%-12s %-11s %s\n", c.ID, c.Violation, c.Title)
				if verbose {
					fmt.Fprintf(stdout, "             %s\n", c.Rule())
				}
			}
			return 0, nil
		}
	},
}

var encodeCommand = &command{
	Name:      "encode",
	UsageLine: "hpackcert encode --stories DIR --out DIR [--encoder builtin:NAME]",
	Short:     "write an encoder's output in the hpack-test-case format",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var in, out, enc string
		fs.section("encode flags", func() {
			fs.StringVar(&in, "stories", "", "`DIR` directory of story files to encode")
			fs.StringVar(&out, "out", "", "`DIR` directory to write the encoded stories to")
			fs.StringVar(&enc, "encoder", "builtin:ref", "`builtin:NAME` the built-in encoder to encode with")
		})
		return func(stdout, _ io.Writer) (int, error) {
			if err := encode(in, out, enc, stdout); err != nil {
				return 2, err
			}
			return 0, nil
		}
	},
}

// encode writes the stories of the directory in, encoded by the built-in
// encoder enc, into the directory out.
func encode(in, out, enc string, stdout io.Writer) error {
	if in == "" || out == "" {
		return &usageError{"encode needs --stories DIR and --out DIR"}
	}
	t, err := inprocess.Builtin(strings.TrimPrefix(enc, "builtin:"))
	if err != nil {
		return fmt.Errorf("--encoder %s: %w", enc, err)
	}
	defer t.Close()
	stories, err := vectors.ReadStoryDir(in)
	if err != nil {
		return fmt.Errorf("--stories: %w", err)
	}
	if len(stories) == 0 {
		return fmt.Errorf("--stories %s: no story files (*.json)", in)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	blocks := 0
	for _, s := range stories {
		encoded, err := certify.EncodeStory(t, s)
		if err != nil {
			return err
		}
		if err := vectors.WriteStory(filepath.Join(out, filepath.Base(s.Path)), encoded); err != nil {
			return err
		}
		blocks += len(s.Cases)
	}
	fmt.Fprintf(stdout, "wrote %d stories (%d blocks) encoded by %s to %s\n", len(stories), blocks, t.Name(), out)
	return nil
}
