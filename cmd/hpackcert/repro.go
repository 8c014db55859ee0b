package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
)

var reproCommand = &command{
	Name:      "repro",
	Grades:    true,
	UsageLine: "hpackcert repro --story FILE [flags]",
	Short:     "replay one failure written by run --repro DIR, decoders --repro DIR or the gate",
	Long: `Repro runs the cases named with --cases on the blocks of one story file that
run --repro or decoders --repro wrote: against the encoder or decoder named (the one
that failed, or a fixed one), or, for recorded wire, against the wire the file
carries. The file says which side it is: a decoder's reproduction is replayed
against --decoder, --exec or --live decoders, an encoder's against --encoder or --exec
encoders.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		c := &certification{}
		fs.section("reproduction", func() {
			fs.StringVar(&c.story, "story", "", "`FILE` story file written by run --repro or decoders --repro")
		})
		c.encoderFlags.declare(fs)
		fs.section("decoders (for a file of decoders --repro)", func() {
			declareDecoderFlag(fs, &c.decoders)
			fs.Var(&c.lives, "live", "`NAME` a server or proxy of hpackcert live's catalogue (hpackcert targets), started on 127.0.0.1 and sent the file's blocks as requests")
			fs.BoolVar(&c.tls, "tls", false, "reach the --live target over TLS (ALPN h2) instead of h2c")
		})
		c.gradeFlags.declare(fs)
		c.reportFlags.declare(fs, false)
		c.runFlags.declare(fs)
		return func(stdout, _ io.Writer) (int, error) {
			if c.story == "" {
				return exitHarness, &usageError{"repro needs --story FILE, a reproduction written by run --repro or decoders --repro (see hpackcert help repro)"}
			}
			decoder, err := decoderRepros.Is(c.story)
			switch {
			case err != nil:
				return exitHarness, fmt.Errorf("--story: %w", err)
			case decoder:
				return c.replayDecoders(stdout)
			case len(c.decoders)+len(c.lives) > 0:
				return exitHarness, &usageError{fmt.Sprintf("--decoder and --live: %s is an encoder's reproduction (run --repro): name the encoder with --encoder or --exec", c.story)}
			}
			return c.run(stdout)
		}
	},
}

// replayDecoders replays the decoder reproduction c.story against the
// decoders named.
func (c *certification) replayDecoders(stdout io.Writer) (int, error) {
	if len(c.encoders)+len(c.stories) > 0 {
		return exitHarness, &usageError{fmt.Sprintf("--encoder and --stories: %s is a decoder's reproduction (decoders --repro): name the decoder with --decoder or --exec", c.story)}
	}
	d := &decoderRun{decoders: c.decoders, execs: c.execs, lives: c.lives, tls: c.tls, gradeFlags: c.gradeFlags, reportFlags: c.reportFlags, storyFlags: c.storyFlags}
	opts, err := d.options()
	if err != nil {
		return exitHarness, err
	}
	if opts, err = decoderRepros.Replay(c.story, opts); err != nil {
		return exitHarness, fmt.Errorf("--story: %w", err)
	}
	return d.certify(stdout, opts)
}

// writeRepros writes the reproduction of every failed or non-strict case
// to dir (certify.WriteRepros), and returns where they are and how to
// replay the first with bin, against the target as specs named it.
func writeRepros(rep *certify.Report, specs []string, dir, bin string) (certify.Repro, error) {
	repro, err := certify.WriteRepros(rep, dir)
	if err != nil {
		return repro, fmt.Errorf("--repro: %w", err)
	}
	for i, enc := range rep.Encoders {
		for _, c := range rep.Cases {
			if res := rep.Results[enc][c.ID]; res != nil && res.Replay != nil && i < len(specs) {
				repro.Replay = replayCommand(bin, certify.ReproPath(dir, enc, c.ID), c.ID, specs[i])
				return repro, nil
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
