package recorded_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/recorded"
)

// TestDir grades a recorded directory of hpack-test-case: the target is
// named after it and its traffic cases pass.
func TestDir(t *testing.T) {
	dir := filepath.Join(testenv.TestCaseDir(t), "go-hpack")
	target, err := recorded.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := target.Name(), "recorded:go-hpack"; got != want {
		t.Errorf("Name() = %q; want %q", got, want)
	}
	rep, err := certify.Run([]certify.Target{target}, certify.Options{Cases: []string{"enc/3.2/1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res := rep.Results[target.Name()]["enc/3.2/1"]; res.Grade != certify.Pass {
		t.Errorf("enc/3.2/1: %v (%s); want pass", res.Grade, res.Detail)
	}
}

// TestDirLimit refuses a story file over the limit, naming it, and a
// directory that does not exist.
func TestDirLimit(t *testing.T) {
	dir := t.TempDir()
	story := `{"cases":[{"seqno":0,"wire":"82","headers":[{":method":"GET"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := recorded.DirLimit(dir, 16); err == nil || !strings.Contains(err.Error(), "big.json") {
		t.Errorf("DirLimit(16) = %v; want an error naming big.json", err)
	}
	if _, err := recorded.DirLimit(dir, 1<<20); err != nil {
		t.Errorf("DirLimit(1 MiB) = %v; want the story read", err)
	}
	if _, err := recorded.Dir(filepath.Join(dir, "missing")); err == nil {
		t.Error("Dir of a missing directory: no error")
	}
}
