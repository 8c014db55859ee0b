package decoder

import (
	"os/exec"
	"regexp"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestEscapeAnalysis asks the compiler (go build -gcflags=-m) whether
// Decode's emit function escapes (a caller's closure would then be
// allocated per call, which AllocsPerRun here cannot see, as the test's
// closure is built outside the measured function) and fails on any
// variable of the package moved to the heap. property's escape gate,
// which covers the encoder's whole encode path, does not cover this
// package yet.
//
// block does leak, into emit: the compiler cannot know that emit keeps
// nothing, so a caller's block on the stack moves to the heap. Header
// blocks are read into long-lived buffers in practice; an API that
// appends fields into a caller's buffer instead would not leak it.
func TestEscapeAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go build in -short mode")
	}
	cmd := exec.Command(testenv.GoTool(t, "to ask the compiler what escapes"), "build", "-gcflags=-m", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, moved := range regexp.MustCompile(`(?m)^.*moved to heap.*$`).FindAll(out, -1) {
		t.Errorf("compiler: %s", moved)
	}
	if !regexp.MustCompile(`decoder\.go:\d+:\d+: emit does not escape`).Match(out) {
		t.Errorf("the compiler does not report Decode's emit as not escaping:\n%s", out)
	}
}
