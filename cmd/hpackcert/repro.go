package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/vectors"
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
