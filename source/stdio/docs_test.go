package stdio_test

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// docDecoderExample returns the Python decoder program of docs/STDIO.md,
// the first python block after "### Writing a decoder program".
func docDecoderExample(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "docs", "STDIO.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n### Writing a decoder program\n")
	_, program, ok2 := strings.Cut(section, "\n```python\n")
	program, _, ok3 := strings.Cut(program, "\n```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/STDIO.md: no python block under \"### Writing a decoder program\"")
	}
	return program + "\n"
}

// pythonWithHpack returns a Python 3 that imports python-hpack, or stops
// the test (testenv.Missing) when there is none.
func pythonWithHpack(t *testing.T) string {
	t.Helper()
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	for _, p := range candidates {
		if exec.Command(p, "-c", "import hpack").Run() == nil {
			return p
		}
	}
	testenv.Missing(t, "no python3 with python-hpack (Debian python3-hpack) to run the example decoder of docs/STDIO.md")
	return ""
}

// TestDocDecoderExample runs the Python decoder of docs/STDIO.md through
// ExecDecoder on RFC 7541 C.3 and a never-indexed literal, and compares
// every list and table with the strict decoder's; and checks that it
// refuses index 0.
func TestDocDecoderExample(t *testing.T) {
	python := pythonWithHpack(t)
	program := filepath.Join(t.TempDir(), "decoder.py")
	if err := os.WriteFile(program, []byte(docDecoderExample(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	target, err := stdio.ExecDecoder("'"+python+"' '"+program+"'", stdio.ExecOptions{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if target.Name() != "python-hpack decoder" {
		t.Errorf("Name() = %q", target.Name())
	}
	d, err := target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	oracle := inprocess.NewStrictDecoder()
	for i, block := range [][]byte{
		unhexString(t, "828684410f7777772e6578616d706c652e636f6d"),
		unhexString(t, "828684be58086e6f2d6361636865"),
		unhexString(t, "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"),
		{0x10, 1, 'a', 2, 0xc0, 0xff},
	} {
		got, err := d.DecodeBlock(block)
		want, _ := oracle.DecodeBlock(block)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("block %d: %+v, %v; want %+v", i, got, err, want)
		}
		table, err := d.(certify.DecoderTableReader).DecoderTable()
		wantTable, _ := oracle.DecoderTable()
		if err != nil || !reflect.DeepEqual(table, wantTable) {
			t.Errorf("block %d: table %+v, %v; want %+v", i, table, err, wantTable)
		}
	}
	if _, err := d.DecodeBlock([]byte{0x80}); !certify.Rejected(err) {
		t.Errorf("index 0: error %v; want a refusal", err)
	}
}

func unhexString(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
