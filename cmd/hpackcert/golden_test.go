package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// TestGradesGolden keeps behaviour across changes that move code: the
// built-in encoders and the three recorded directories of hpack-test-case
// get the grades of testdata/grades.golden, one "encoder, case, grade"
// line each (the format of go run ./ci/grades, which compares the matrix
// adapters and the live targets the same way). libnghttp2's encoder is
// compared when it is built in.
func TestGradesGolden(t *testing.T) {
	root := testenv.TestCaseDir(t)
	args := []string{"run", "--encoder", "builtin:ref", "--encoder", "builtin:xnet"}
	withNghttp2 := slices.Contains(inprocess.BuiltinNames(), "nghttp2")
	if withNghttp2 {
		args = append(args, "--encoder", "builtin:nghttp2")
	}
	for _, dir := range []string{"go-hpack", "nghttp2", "python-hpack"} {
		args = append(args, "--stories", filepath.Join(root, dir))
	}
	out := filepath.Join(t.TempDir(), "report.json")
	args = append(args, "--traffic-stories", "4", "--traffic-blocks", "200", "--json", out)
	if status, _, stderr := runCLI(t, args...); status != 0 {
		t.Fatalf("%v: exit %d; stderr %s", args, status, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for enc, cases := range reportGrades(t, data) {
		for id, grade := range cases {
			got = append(got, fmt.Sprintf("%s\t%s\t%s", enc, id, grade))
		}
	}
	slices.Sort(got)
	golden := filepath.Join("testdata", "grades.golden")
	if *update {
		if !withNghttp2 {
			t.Fatal("-update needs libnghttp2's encoder built in (-tags nghttp2)")
		}
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err = os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -tags nghttp2 -update to create it)", err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if withNghttp2 || !strings.HasPrefix(line, "nghttp2\t") {
			want = append(want, line)
		}
	}
	if !slices.Equal(got, want) {
		for _, l := range want {
			if !slices.Contains(got, l) {
				t.Errorf("lost: %s", l)
			}
		}
		for _, l := range got {
			if !slices.Contains(want, l) {
				t.Errorf("new:  %s", l)
			}
		}
		t.Errorf("grades differ from %s (run go test -tags nghttp2 -update if the change is meant)", golden)
	}
}
