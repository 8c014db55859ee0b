package report_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestWritePage checks a page line by line: the program a run's --exec
// named is a code span and a label is not, an empty cell stays one space
// wide, a pipe stays inside its cell, the command is quoted for a shell
// (a single quote in an argument included), and the sections come before
// the report, which is written as it is.
func TestWritePage(t *testing.T) {
	p := &report.Page{
		Title:   "T",
		Intro:   "Intro line one,\nline two.\n",
		Columns: [3]string{"program", "package", "version"},
		Programs: []report.ProgramRow{
			{"node a|b.js", "npm:a", "1.0"},
			{"built-in", "golang.org/x/net", "v0.1.0"},
			{"runtimes", "", "node v20"},
		},
		Setup:         "`adapters/install.sh`",
		Command:       []string{"run", "--exec", "node a|b.js", "--declare-unsupported", "enc/6.3/1: it's not there"},
		Outputs:       []string{"--md", "report.md"},
		Status:        1,
		Sections:      []report.PageSection{{Heading: "Limits", Text: "These.", Items: []string{"**a**: enc/6.3/1 (why)"}}},
		ReportHeading: "Report",
	}
	var b bytes.Buffer
	if err := report.WritePage(&b, p, []byte("## hpackcert: FAIL\n")); err != nil {
		t.Fatal(err)
	}
	want := "# T\n\nIntro line one,\nline two.\n\n" +
		"| program | package | version |\n|---|---|---|\n" +
		"| `node a\\|b.js` | npm:a | 1.0 |\n" +
		"| built-in | golang.org/x/net | v0.1.0 |\n" +
		"| runtimes | | node v20 |\n" +
		"\nCommand (from the repository root, after `adapters/install.sh`):\n\n" +
		"```sh\ngo build -tags nghttp2 -o hpackcert ./cmd/hpackcert\n" +
		"./hpackcert run --exec 'node a|b.js' --declare-unsupported 'enc/6.3/1: it'\\''s not there' --md report.md\n```\n\n" +
		"hpackcert exited 1.\n\n" +
		"## Limits\n\nThese.\n\n- **a**: enc/6.3/1 (why)\n\n" +
		"## Report\n\n## hpackcert: FAIL\n"
	if got := b.String(); got != want {
		t.Errorf("page:\n%s\nwant:\n%s", got, want)
	}
}

// TestMatrixPage checks the two published pages: the date in UTC, the
// commit, the words of each, and the encoder page's adapter limits; and
// that a side with no page, or the encoder page without its JSON report,
// is an error.
func TestMatrixPage(t *testing.T) {
	when := time.Date(2026, 12, 5, 23, 30, 0, 0, time.FixedZone("UTC-2", -2*3600))
	rep := &report.JSONReport{Encoders: map[string]report.JSONTarget{"e": {Cases: map[string]report.JSONResult{
		"enc/6.3/1": {Grade: certify.Unsupported, Detail: "x; the encoder cannot express 2 blocks, and the rest of their stories was not played (first: story s, block 0: no API)"},
	}}}}
	for _, c := range []struct {
		side  string
		marks []string
	}{
		{"encoders", []string{"# HPACK encoder conformance matrix\n", "`ci/matrix.sh` on 2026-12-06 (01:30 UTC), hpackcert at commit\nabc1234;",
			"| library | package | version |", "--md report.md --html matrix.html\n", "## Adapter limits\n", "- **e**: enc/6.3/1 (no API)\n\n## Report\n\nREPORT"}},
		{"decoders", []string{"# HPACK decoder conformance matrix\n", "`ci/decoders.sh` on 2026-12-06\n(01:30 UTC), hpackcert at commit abc1234;",
			"| decoder program | package | version |", "after `adapters/install.sh` and `ci/live.sh --install-only`", "--html matrix-decoders.html\n", "hpackcert exited 1.\n\nREPORT"}},
	} {
		p, err := report.MatrixPage(c.side, report.MatrixFacts{When: when, Commit: "abc1234", Command: []string{c.side}, Status: 1, Report: rep})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := report.WritePage(&b, p, []byte("REPORT")); err != nil {
			t.Fatal(err)
		}
		mustContain(t, c.side+" page", b.String(), c.marks...)
	}
	if _, err := report.MatrixPage("live", report.MatrixFacts{}); err == nil || !strings.Contains(err.Error(), `no matrix page for "live"`) {
		t.Errorf("MatrixPage(live) = %v; want an error naming it", err)
	}
	if _, err := report.MatrixPage("encoders", report.MatrixFacts{}); err == nil || !strings.Contains(err.Error(), "JSON report") {
		t.Errorf("MatrixPage(encoders) without a report = %v; want an error asking for it", err)
	}
}

// TestAdapterLimits checks which results count as an adapter's limit
// (unsupported, because the encoder could not express a block), that
// each target lists its cases in order with its reasons once each, and
// that a name and a reason the adapter chose are escaped.
func TestAdapterLimits(t *testing.T) {
	limit := func(reason string) report.JSONResult {
		return report.JSONResult{Grade: certify.Unsupported,
			Detail: "ok; the encoder cannot express 3 blocks, and the rest of their stories was not played (first: story s, block 2: " + reason + ")\nmore"}
	}
	rep := &report.JSONReport{Encoders: map[string]report.JSONTarget{
		"b*": {Cases: map[string]report.JSONResult{
			"enc/7.1.3/1": limit("no never-indexed API"),
			"enc/6.3/1":   limit("no size update API"),
			"enc/4.2/1":   limit("no size update API"),
			"enc/5.2/1":   {Grade: certify.Unsupported, Detail: "not exercised: no Huffman string"},
			"enc/2.3.2/2": {Grade: certify.Fail, Detail: "the encoder cannot express it, it says"},
		}},
		"a": {Cases: map[string]report.JSONResult{"enc/6.3/1": {Grade: certify.Pass}}},
	}}
	want := []string{`**b\***: enc/4.2/1, enc/6.3/1, enc/7.1.3/1 (no never\-indexed API\; no size update API)`}
	if got := report.AdapterLimits(rep); !slices.Equal(got, want) {
		t.Errorf("AdapterLimits = %q; want %q", got, want)
	}
}

// TestReadProgramRows checks the program table's TSV: three cells a
// line, an empty one kept, and a line of another count an error naming
// its number.
func TestReadProgramRows(t *testing.T) {
	rows, err := report.ReadProgramRows(strings.NewReader("a b\tpkg\t1.0\nruntimes\t\tnode v20\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []report.ProgramRow{{"a b", "pkg", "1.0"}, {"runtimes", "", "node v20"}}; !slices.Equal(rows, want) {
		t.Errorf("rows %q; want %q", rows, want)
	}
	_, err = report.ReadProgramRows(strings.NewReader("a\tpkg\t1.0\nb pkg 1.0\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: 1 tab-separated cells, want 3") {
		t.Errorf("a line of one cell: %v; want an error naming line 2", err)
	}
}
