package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGrades checks that the lines of two reports, an encoder run's and a
// decoder run's, come out sorted, that -kind keeps the targets of one
// kind, and that a file that is not a report is an error naming it.
func TestGrades(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	enc := write("enc.json", `{"encoders": {"x/net": {"cases": {"enc/6.3/1": {"grade": "pass"}, "enc/4.2/1": {"grade": "fail"}}}}}`)
	dec := write("dec.json", `{"subject": "decoders", "encoders": {"strict": {"kind": "in-process", "cases": {"dec/5.1/1": {"grade": "non-strict"}}},
		"nginx": {"kind": "live", "cases": {"dec/5.1/1": {"grade": "pass"}}}}}`)
	got, err := grades([]string{enc, dec}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"nginx\tdec/5.1/1\tpass", "strict\tdec/5.1/1\tnon-strict", "x/net\tenc/4.2/1\tfail", "x/net\tenc/6.3/1\tpass"}
	if !slices.Equal(got, want) {
		t.Errorf("grades = %q; want %q", got, want)
	}
	got, err = grades([]string{enc, dec}, "live")
	if want := []string{"nginx\tdec/5.1/1\tpass"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("grades -kind live = %q, %v; want %q", got, err, want)
	}
	bad := write("story.json", `{"cases": []}`)
	if _, err := grades([]string{enc, bad}, ""); err == nil || !strings.Contains(err.Error(), bad+`: not a JSON report: no "encoders" object`) {
		t.Errorf("grades of a story file: %v; want an error naming it", err)
	}
}
