package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

func TestReports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	args := append([]string{"--encoder", "builtin:ref", "--encoder", "builtin:xnet", "--strict", "--cases", "enc/4.1,enc/4.4,enc/7.1.3/1"}, quick...)
	for _, kind := range []string{"json", "junit", "html", "md"} {
		files[kind] = filepath.Join(dir, "report."+kind)
		args = append(args, "--"+kind, files[kind])
	}
	status, out, stderr := runCLI(t, args...)
	if status != 0 {
		t.Fatalf("exit %d; stderr %s\n%s", status, stderr, out)
	}
	read := func(kind string) []byte {
		data, err := os.ReadFile(files[kind])
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	doc := readReport(t, read("json"))
	if got, ok := doc.Encoders["x/net"].Cases["enc/4.4/1"]; !ok || got.Grade != certify.Pass {
		t.Errorf(`JSON .encoders["x/net"].cases["enc/4.4/1"] = %+v (present %v); want grade "pass"`, got, ok)
	}
	var junit struct {
		Tests int `xml:"tests,attr"`
	}
	if n := len(doc.Encoders["ref"].Cases); n == 0 || xml.Unmarshal(read("junit"), &junit) != nil || junit.Tests != 2*n {
		t.Errorf("JUnit: %d tests; want %d", junit.Tests, 2*n)
	}
	if html := read("html"); !bytes.Contains(html, []byte("<table>")) {
		t.Error("HTML report has no table")
	}
	if md := read("md"); !bytes.Contains(md, []byte("| `enc/4.4/1` |")) {
		t.Error("Markdown report has no row for enc/4.4/1")
	}
}

// readReport reads a JSON report with report.ReadJSON, the reader every
// program of the project uses, and ends the test if it does not read.
func readReport(t *testing.T, data []byte) *report.JSONReport {
	t.Helper()
	doc, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the JSON report: %v", err)
	}
	return doc
}

// reportGrades returns the grades of a JSON report, by encoder and case,
// as the reports spell them.
func reportGrades(t *testing.T, data []byte) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for enc, e := range readReport(t, data).Encoders {
		out[enc] = map[string]string{}
		for id, c := range e.Cases {
			out[enc][id] = c.Grade.String()
		}
	}
	return out
}

// TestNothingJudgedFails points run at story files without "wire": no case
// has anything to judge, and the run fails saying so, unless the expect
// file declares the recording as judging nothing.
func TestNothingJudgedFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lists")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	story := `{"cases":[{"seqno":0,"headers":[{":method":"GET"},{":path":"/"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonPath, junitPath := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "r.xml")
	status, out, stderr := runCLI(t, "run", "--stories", dir, "--json", jsonPath, "--junit", junitPath)
	verdict, _, _ := strings.Cut(out, "\n")
	if status != 1 || !strings.HasPrefix(verdict, "verdict: FAIL: nothing judged for ") || !strings.Contains(verdict, `without any "wire"`) {
		t.Errorf("run --stories (no wire): exit %d, verdict %q; want 1 and nothing judged, with the reason\n%s", status, verdict, stderr)
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if doc := readReport(t, raw); !doc.Failed || !strings.HasPrefix(doc.Encoders["recorded:lists"].NothingJudged, "enc/") {
		t.Errorf("the JSON report does not say nothing was judged for recorded:lists, or that the run failed:\n%s", raw)
	}
	if raw, err = os.ReadFile(junitPath); err != nil {
		t.Fatal(err)
	}
	if _, after, ok := strings.Cut(string(raw), `<testcase name="nothing judged" classname="hpackcert.recorded:lists"`); !ok || !strings.Contains(after, `<failure message="nothing judged: enc/`) {
		t.Errorf("the JUnit report has no failed testcase \"nothing judged\":\n%s", raw)
	}
	expect := filepath.Join(t.TempDir(), "expect.txt")
	if err := os.WriteFile(expect, []byte("recorded:lists nothing-judged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, stderr = runCLI(t, "run", "--stories", dir, "--expect-fail", expect)
	verdict, _, _ = strings.Cut(out, "\n")
	if status != 0 || !strings.Contains(verdict, "1 target expected to judge nothing") || strings.Contains(out, "did not fail") {
		t.Errorf("run --stories with \"recorded:lists nothing-judged\" expected: exit %d, verdict %q; want 0, the declaration counted and not stale\n%s", status, verdict, stderr)
	}
}

// TestTextEntryLayout reads x/net's non-strict results in the text
// report: each line of an entry is written once (the detail is not
// repeated by its reproduction), and every block's wire and the oracles'
// verdicts on it are indented under the block, the failing one's too.
func TestTextEntryLayout(t *testing.T) {
	status, out, stderr := runCLI(t, append([]string{"run", "--encoder", "builtin:xnet"}, quick...)...)
	if status != 0 {
		t.Fatalf("exit %d; want 0 (x/net breaks SHOULD rules only)\n%s", status, stderr)
	}
	_, section, ok := strings.Cut(out, "\nnon-strict:\n")
	section, _, _ = strings.Cut(section, "\n\n")
	if !ok || !strings.Contains(section, "enc/7.1.3/2") {
		t.Fatalf("no non-strict section with enc/7.1.3/2:\n%s", out)
	}
	for _, entry := range strings.Split(section, "\n  x/net ")[1:] {
		var seen []string
		for _, line := range strings.Split(entry, "\n") {
			text := strings.TrimLeft(line, " ")
			// A detail may add to its reproduction's first line ("; 4
			// blocks not judged ..."): that line is written once.
			for _, earlier := range seen {
				if len(text) > 40 && strings.HasPrefix(earlier, text) {
					t.Errorf("line written twice: %q in\n%s", line, entry)
				}
			}
			seen = append(seen, text)
			if strings.HasPrefix(text, "wire") || strings.HasPrefix(text, "oracle ") {
				if indent := len(line) - len(text); indent != 8 {
					t.Errorf("%q indented %d; want 8, under its block", line, indent)
				}
			}
		}
	}
}
