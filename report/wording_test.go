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

// TestNotApplicableCountedApart grades one case of an encoder n/a: every
// summary counts it apart from the unsupported cases, since a case that
// does not apply is no lack.
func TestNotApplicableCountedApart(t *testing.T) {
	rep := hostileReport("enc")
	rep.Results["ref"]["enc/7.3/1"] = &certify.Result{Grade: certify.Unsupported, NotApplicable: true, Detail: "not applicable: measured only in process"}
	want := map[string][]string{
		"text": {"ref: 6 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported, 1 n/a\n"},
		"md":   {"**ref**: 6 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported, 1 n/a"},
		"html": {`<th>unsupported</th><th>n/a</th>`, `<td class="n">0</td><td class="n">1</td><td class="n">0</td><td class="n">6</td>`},
		"json": {`"unsupported": 0`, `"n/a": 1`},
	}
	for format, marks := range want {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, rep); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if format == "json" {
			_, out, _ = strings.Cut(out, `"ref": {`)
			out, _, _ = strings.Cut(out, `"cases"`)
		}
		for _, m := range marks {
			if !strings.Contains(out, m) {
				t.Errorf("%s report lacks %q:\n%s", format, m, out)
			}
		}
		if strings.Contains(out, "(1 not applicable)") {
			t.Errorf("%s report counts the n/a case among the unsupported ones", format)
		}
	}
}
