package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// TestRepro writes the reproductions of a broken encoder's failures with
// --repro and replays one with hpackcert repro: the same case fails
// against the same encoder, passes against a fixed one, and a recorded
// failure replays from its file alone.
func TestRepro(t *testing.T) {
	dir := stdioEncoders(t)
	broken := filepath.Join(dir, "stdioenc") + " -bug huffman-zero-padding"
	repro := t.TempDir()
	status, out, stderr := runCLI(t, append([]string{"--exec", broken, "--cases", "enc/5.2/1", "--repro", repro}, quick...)...)
	if status != 1 {
		t.Fatalf("broken encoder: exit %d; want 1\n%s%s", status, out, stderr)
	}
	story := filepath.Join(repro, "stdioenc_huffman-zero-padding--enc_5.2_1.json")
	if !strings.Contains(out, "hpackcert repro --story "+story+" --cases enc/5.2/1 --exec ") {
		t.Errorf("the report does not say how to replay %s:\n%s", story, out)
	}
	status, out, stderr = runCLI(t, "repro", "--story", story, "--cases", "enc/5.2/1", "--exec", broken)
	if status != 1 || !strings.Contains(out, "not a prefix of EOS") {
		t.Errorf("repro against the broken encoder: exit %d; want 1 naming the padding\n%s%s", status, out, stderr)
	}
	status, out, stderr = runCLI(t, "repro", "--story", story, "--cases", "enc/5.2/1", "--exec", filepath.Join(dir, "stdioenc"))
	if status != 0 {
		t.Errorf("repro against the fixed encoder: exit %d; want 0\n%s%s", status, out, stderr)
	}
	if status, _, stderr = runCLI(t, "repro", "--cases", "enc/5.2/1"); status != 2 || !strings.Contains(stderr, "needs --story") {
		t.Errorf("repro without --story: exit %d, %q; want 2 asking for --story", status, stderr)
	}

	// Recorded wire: the reproduction carries it, and replays alone.
	recorded := t.TempDir()
	s := &vectors.Story{Cases: []vectors.Case{{Wire: []byte{0x82}, Headers: []vectors.Field{{Name: ":method", Value: "POST"}}}}}
	if err := vectors.WriteStory(filepath.Join(recorded, "story_0.json"), s); err != nil {
		t.Fatal(err)
	}
	repro = t.TempDir()
	if status, out, _ = runCLI(t, "run", "--stories", recorded, "--cases", "enc/3.2/1", "--repro", repro); status != 1 {
		t.Fatalf("recorded wire decoding to other fields: exit %d; want 1\n%s", status, out)
	}
	files, _ := filepath.Glob(filepath.Join(repro, "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d reproductions of a recorded failure; want 1", len(files))
	}
	if status, out, _ = runCLI(t, "repro", "--story", files[0], "--cases", "enc/3.2/1"); status != 1 || !strings.Contains(out, `"POST"`) {
		t.Errorf("repro of recorded wire: exit %d; want 1 naming the field\n%s", status, out)
	}
}

// fakeDecoderRepros takes the file at path for a decoder's reproduction
// and replays it as the cases selected.
type fakeDecoderRepros struct{ path string }

func (f fakeDecoderRepros) Is(path string) (bool, error) { return path == f.path, nil }

func (f fakeDecoderRepros) Replay(_ string, opts certify.DecoderOptions) (certify.DecoderOptions, error) {
	opts.TrafficStories, opts.TrafficBlocks = 1, 5
	return opts, nil
}

// TestReproDispatch checks that repro replays a file the engine takes for
// a decoder's reproduction against the decoders named, with the grading
// flags every command shares, and refuses the other side's flags on
// either kind of file.
func TestReproDispatch(t *testing.T) {
	dir := t.TempDir()
	decoderFile, encoderFile := filepath.Join(dir, "dec.json"), filepath.Join(dir, "enc.json")
	s := &vectors.Story{Cases: []vectors.Case{{Headers: []vectors.Field{{Name: ":method", Value: "GET"}}}}}
	for _, p := range []string{decoderFile, encoderFile} {
		if err := vectors.WriteStory(p, s); err != nil {
			t.Fatal(err)
		}
	}
	saved := decoderRepros
	decoderRepros = fakeDecoderRepros{decoderFile}
	defer func() { decoderRepros = saved }()

	jsonPath := filepath.Join(dir, "r.json")
	status, out, stderr := runCLI(t, "repro", "--story", decoderFile, "--cases", "dec/3.2/1", "--decoder", "builtin:strict", "--json", jsonPath)
	if status != 0 || !strings.Contains(out, "dec/3.2/1") {
		t.Errorf("repro of a decoder's file: exit %d; want 0 and dec/3.2/1 graded\n%s%s", status, out, stderr)
	}
	if data, err := os.ReadFile(jsonPath); err != nil || readReport(t, data).Subject != "decoders" {
		t.Errorf("repro of a decoder's file: the JSON report (%v) is no decoders' report:\n%s", err, data)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--story", decoderFile, "--cases", "enc/5.2/1", "--decoder", "builtin:strict"}, `--cases: certify: no decoder case id starts with "enc/5.2/1"`},
		{[]string{"--story", decoderFile, "--cases", "dec/3.2/1", "--encoder", "builtin:ref"}, "--encoder and --stories: " + decoderFile + " is a decoder's reproduction"},
		{[]string{"--story", encoderFile, "--cases", "enc/3.2/1", "--decoder", "builtin:strict"}, "--decoder and --live: " + encoderFile + " is an encoder's reproduction"},
	} {
		status, out, stderr := runCLI(t, append([]string{"repro"}, tc.args...)...)
		if status != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("repro %q: exit %d, stderr %q; want 2 and %q\n%s", tc.args, status, stderr, tc.want, out)
		}
	}
}

// TestDecodersRepro checks decoders --repro: the folder is created before
// the run (the engine writes into it, certify.DecoderOptions.ReproDir), and
// one that cannot be is a harness error before anything runs.
func TestDecodersRepro(t *testing.T) {
	repro := filepath.Join(t.TempDir(), "repro")
	status, out, stderr := runCLI(t, "decoders", "--decoder", "builtin:strict", "--cases", "dec/3.2/1", "--traffic-stories", "1", "--traffic-blocks", "5", "--repro", repro)
	if fi, err := os.Stat(repro); status != 0 || err != nil || !fi.IsDir() {
		t.Errorf("decoders --repro %s: exit %d, folder %v; want 0 and the folder\n%s%s", repro, status, err, out, stderr)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, stderr = runCLI(t, "decoders", "--decoder", "builtin:strict", "--repro", filepath.Join(file, "repro"))
	if status != 2 || out != "" || !strings.Contains(stderr, "cannot create the folder "+filepath.Join(file, "repro")) {
		t.Errorf("decoders --repro under a file: exit %d, stdout %q, stderr %q; want 2 before the run", status, out, stderr)
	}
}
