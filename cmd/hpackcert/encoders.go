package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/recorded"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/vectors"
)

// certification is one run of run, repro or gate: what the flags asked
// for, and what the gate adds.
type certification struct {
	encoderFlags
	gradeFlags
	reportFlags
	runFlags
	// story is the --story of repro, and decoders, lives and tls the
	// --decoder, --live and --tls of its decoder reproductions.
	story    string
	decoders listFlag
	lives    listFlag
	tls      bool
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

// run certifies the encoders and writes the reports asked for; with a
// story, it replays that story's blocks.
func (c *certification) run(stdout io.Writer) (int, error) {
	opts, err := c.gradeFlags.options()
	if err != nil {
		return exitHarness, err
	}
	if opts, err = c.runFlags.options(opts); err != nil {
		return exitHarness, err
	}
	if c.story != "" {
		st, err := vectors.ReadStoryLimit(c.story, opts.MaxStoryFileSize)
		if err != nil {
			return exitHarness, fmt.Errorf("--story: %w", err)
		}
		if len(st.Cases) == 0 {
			return exitHarness, fmt.Errorf("--story %s: the story has no cases", c.story)
		}
		opts.Replay = []*vectors.Story{st}
	}
	if err := makeDirs(c.dirs, c.repro); err != nil {
		return exitHarness, err
	}
	files, err := c.reportFlags.create()
	if err != nil {
		return exitHarness, err
	}
	defer files.close()
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
		return exitHarness, err
	}
	rep, err := certify.Run(targets, opts)
	if err == nil && c.repro != "" {
		var repro certify.Repro
		repro, err = writeRepros(rep, specs, c.repro, c.replayBin)
		rep.Repro = &repro
	}
	return files.finish(stdout, rep, err)
}

// makeDirs creates the folders a run writes into, before it starts.
func makeDirs(dirs []string, more ...string) error {
	for _, dir := range append(dirs, more...) {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the folder %s: %w", dir, err)
		}
	}
	return nil
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
