package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestWording checks the words of a run whose only failure is expected:
// one failure is counted in the singular, the first failure is introduced
// as expected, one reproduction is "1 story file", and no report appends a
// raw duration to a finding.
func TestWording(t *testing.T) {
	rep := hostileReport("enc")
	rep.Results["enc"]["enc/4.2/1"] = &certify.Result{Grade: certify.Pass, Detail: "ok"}
	rep.Results["enc"]["enc/2.3.2/2"] = &certify.Result{Grade: certify.Pass, Detail: "ok"}
	info := rep.Targets["enc"]
	info.Breakdown = ""
	rep.Targets["enc"] = info
	rep.Repro = &certify.Repro{Dir: "out/repro", Files: 1, Replay: "hpackcert repro --story out/repro/a.json"}
	want := map[string][]string{
		"text": {"verdict: PASS: no failure; 1 expected failure", "first expected failure: enc enc/5.2/1", "(1 failure expected, 1 declared, 1 consequence of a failure)"},
		"md":   {"first expected failure: **enc**", "**Reproductions:** 1 story file in "},
		"html": {"first expected failure: <a href", "Reproductions: 1 story file in", `<p class="took">time: 1.0 ms</p>`},
	}
	for format, marks := range want {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, rep); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, m := range marks {
			if !strings.Contains(out, m) {
				t.Errorf("%s report lacks %q", format, m)
			}
		}
		for _, bad := range []string{"1 failures", "1 story files", "µs)", "ms)"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s report holds %q", format, bad)
			}
		}
	}
	if got := rep.Repro.Text(); !strings.Contains(got, "1 story file in") {
		t.Errorf("Repro.Text() = %q; want \"1 story file in\"", got)
	}
}
