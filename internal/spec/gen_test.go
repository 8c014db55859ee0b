package spec

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// runGenerator runs "go run gen.go" on input and returns the generated file
// and the command's combined output.
func runGenerator(t *testing.T, input string) (generated []byte, output string, err error) {
	t.Helper()
	goCmd, lookErr := exec.LookPath("go")
	if lookErr != nil {
		testenv.Missing(t, "go command not found in PATH: "+lookErr.Error())
	}
	out := filepath.Join(t.TempDir(), "huffman_table.go")
	cmd := exec.Command(goCmd, "run", "gen.go", "-input", input, "-output", out)
	combined, err := cmd.CombinedOutput()
	if err != nil {
		return nil, string(combined), err
	}
	generated, readErr := os.ReadFile(out)
	if readErr != nil {
		t.Fatal(readErr)
	}
	return generated, string(combined), nil
}

// TestGeneratedFileIsUpToDate fails when huffman_table.go is not what
// "go generate" writes from the Appendix B text (an edited or stale file).
func TestGeneratedFileIsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go run in -short mode")
	}
	generated, output, err := runGenerator(t, "testdata/rfc7541-appendix-b.txt")
	if err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, output)
	}
	committed, err := os.ReadFile("huffman_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, committed) {
		t.Errorf("huffman_table.go differs from the output of gen.go; run go generate ./internal/spec")
	}
}

// TestGeneratorRejectsInconsistentRow feeds the generator Appendix B with
// one "code as hex" altered: it must refuse rather than write a table.
func TestGeneratorRejectsInconsistentRow(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go run in -short mode")
	}
	text, err := os.ReadFile("testdata/rfc7541-appendix-b.txt")
	if err != nil {
		t.Fatal(err)
	}
	const goodRow = "'/' ( 47)  |011000                                       18  [ 6]"
	if !bytes.Contains(text, []byte(goodRow)) {
		t.Fatalf("appendix B text lacks the row %q", goodRow)
	}
	bad := bytes.Replace(text, []byte(goodRow), []byte(strings.Replace(goodRow, " 18 ", " 19 ", 1)), 1)
	input := filepath.Join(t.TempDir(), "appendix-b.txt")
	if err := os.WriteFile(input, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, output, err := runGenerator(t, input)
	if err == nil {
		t.Fatalf("gen.go accepted a row whose code as hex (0x19) differs from its code as bits (011000)")
	}
	if !strings.Contains(output, "differs from code as hex") {
		t.Errorf("gen.go error output %q; want it to name the mismatch", output)
	}
}
