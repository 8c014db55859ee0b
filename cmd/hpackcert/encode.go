package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/vectors"
)

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
