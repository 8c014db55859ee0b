package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodersRepro writes the reproduction of x/net's failure of
// dec/4.2/1 (decoders --repro) and replays it (hpackcert repro --story,
// the command the report prints): x/net fails again on the file's blocks
// alone, the strict decoder passes them.
func TestDecodersReproReplayed(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if status := run([]string{"decoders", "--decoder", "builtin:xnet", "--cases", "dec/4.2/1", "--repro", dir}, &out, &errOut); status != 1 {
		t.Fatalf("exit status %d; want 1 (x/net fails dec/4.2/1)\n%s%s", status, out.String(), errOut.String())
	}
	file := filepath.Join(dir, "x_net--dec_4.2_1.json")
	want := "reproductions: 1 story file in " + dir + "; replay one with\n  hpackcert repro --story " + file + " --cases dec/4.2/1 --decoder builtin:xnet"
	if !strings.Contains(out.String(), want) {
		t.Fatalf("output without %q:\n%s", want, out.String())
	}
	for _, tc := range []struct {
		decoder string
		status  int
	}{{"builtin:xnet", 1}, {"builtin:strict", 0}} {
		out.Reset()
		if status := run([]string{"repro", "--story", file, "--cases", "dec/4.2/1", "--decoder", tc.decoder}, &out, &errOut); status != tc.status {
			t.Errorf("replayed on %s: exit status %d; want %d\n%s%s", tc.decoder, status, tc.status, out.String(), errOut.String())
		}
	}
}
