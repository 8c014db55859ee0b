package encoder

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestEscapeAnalysis asks the compiler (go build -gcflags=-m) whether the
// field arguments of AppendField and AppendFieldString escape: if they did,
// callers' stack buffers and strings would move to the heap, an allocation
// AllocsPerRun in this package cannot see. It also fails on any variable
// of the package moved to the heap.
func TestEscapeAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go build in -short mode")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "go command not found in PATH: "+err.Error())
	}
	out, err := exec.Command(goCmd, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "moved to heap") {
			t.Errorf("compiler: %s", line)
		}
	}
	src, err := os.ReadFile("encode.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"AppendField(", "AppendFieldString("} {
		line := 0
		for i, sc := 1, bufio.NewScanner(bytes.NewReader(src)); sc.Scan(); i++ {
			if strings.HasPrefix(sc.Text(), "func (e *Encoder) "+fn) {
				line = i
			}
		}
		if line == 0 {
			t.Fatalf("no declaration of %s in encode.go", fn)
		}
		for _, param := range []string{"e", "name", "value"} {
			re := regexp.MustCompile(fmt.Sprintf(`encode\.go:%d:\d+: %s does not escape`, line, param))
			if !re.Match(out) {
				t.Errorf("%s: the compiler does not report %q as not escaping", fn, param)
			}
		}
	}
}
