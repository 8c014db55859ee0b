package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// sampleReport runs the reference and two broken encoders on a few cases,
// for every grade but unsupported to show up.
// It runs once per test binary; the tests only read it.
func sampleReport(t *testing.T) *certify.Report {
	t.Helper()
	sample.once.Do(func() {
		ref, err := inprocess.Builtin("ref")
		if err != nil {
			sample.err = err
			return
		}
		opts := certifytest.Quick()
		opts.Cases = []string{"enc/5.2/", "enc/1.1/1"}
		sample.rep, sample.err = certify.Run([]certify.Target{ref, certifytest.BrokenTarget(broken.HuffmanZeroPadding), certifytest.BrokenTarget(broken.AlwaysHuffman)}, opts)
	})
	if sample.err != nil {
		t.Fatal(sample.err)
	}
	return sample.rep
}

var sample struct {
	once sync.Once
	rep  *certify.Report
	err  error
}

func TestWriteJUnit(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := report.WriteJUnit(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name      string    `xml:"name,attr"`
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit report does not parse: %v\n%s", err, buf.Bytes())
	}
	if len(doc.Suites) != len(rep.Encoders) {
		t.Fatalf("%d testsuites; want %d", len(doc.Suites), len(rep.Encoders))
	}
	for i, s := range doc.Suites {
		if s.Name != rep.Encoders[i] {
			t.Errorf("testsuite %d named %q; want %q", i, s.Name, rep.Encoders[i])
		}
		if len(s.Cases) != len(rep.Cases) {
			t.Errorf("testsuite %s: %d testcases; want %d", s.Name, len(s.Cases), len(rep.Cases))
		}
		failures := 0
		for _, c := range s.Cases {
			if c.Name == "" || c.Classname == "" {
				t.Errorf("testsuite %s: testcase name %q classname %q; want both", s.Name, c.Name, c.Classname)
			}
			if c.Failure != nil {
				failures++
			}
		}
		if want := rep.Counts(s.Name)[certify.Fail]; failures != want || s.Failures != want {
			t.Errorf("testsuite %s: %d <failure> elements, failures=%d; want %d", s.Name, failures, s.Failures, want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	doc, err := report.ReadJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("JSON report does not read: %v", err)
	}
	// The members a reader counts on are written even when zero or false.
	var present struct {
		Top      map[string]json.RawMessage
		Encoders map[string]map[string]json.RawMessage `json:"encoders"`
	}
	if err := json.Unmarshal(buf.Bytes(), &present.Top); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &present); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"version", "catalogue", "elapsed_seconds", "failed"} {
		if _, ok := present.Top[m]; !ok {
			t.Errorf("JSON report lacks %q", m)
		}
	}
	if doc.Version != rep.Version || rep.Version == "" {
		t.Errorf("JSON version %q; want %q", doc.Version, rep.Version)
	}
	if doc.Catalogue != certify.CatalogueVersion() {
		t.Errorf("JSON catalogue %q; want %q", doc.Catalogue, certify.CatalogueVersion())
	}
	if started, err := time.Parse(time.RFC3339, doc.Started); err != nil || !started.Equal(rep.Started.Truncate(time.Second)) {
		t.Errorf("JSON started %q (%v); want %s in RFC 3339", doc.Started, err, rep.Started.Format(time.RFC3339))
	}
	if doc.Elapsed != rep.Elapsed.Seconds() || doc.Elapsed <= 0 {
		t.Errorf("JSON elapsed_seconds %v; want %v", doc.Elapsed, rep.Elapsed.Seconds())
	}
	if doc.Failed != rep.Failed() {
		t.Errorf("JSON failed %v; want %v", doc.Failed, rep.Failed())
	}
	if doc.Traffic != rep.TrafficSource || doc.Traffic == "" {
		t.Errorf("JSON traffic %q; want %q", doc.Traffic, rep.TrafficSource)
	}
	for _, enc := range rep.Encoders {
		je := doc.Encoders[enc]
		info := rep.Targets[enc]
		for _, m := range []string{"binary", "elapsed_seconds", "summary", "cases"} {
			if _, ok := present.Encoders[enc][m]; !ok {
				t.Errorf("JSON %s lacks %q", enc, m)
			}
		}
		if je.Kind != "in-process" || je.Reported != enc || je.Binary {
			t.Errorf("JSON %s kind %q, reported %q, binary %v; want in-process, %q, false", enc, je.Kind, je.Reported, je.Binary, enc)
		}
		if je.Elapsed != info.Elapsed.Seconds() || je.Elapsed <= 0 {
			t.Errorf("JSON %s elapsed_seconds %v; want %v", enc, je.Elapsed, info.Elapsed.Seconds())
		}
		for _, g := range []certify.Grade{certify.Pass, certify.NonStrict, certify.Fail, certify.Info, certify.Unsupported} {
			if got, ok := je.Summary[g.String()]; !ok || got != rep.Counts(enc)[g] {
				t.Errorf("JSON %s summary %s = %d (present %v); want %d, present", enc, g, got, ok, rep.Counts(enc)[g])
			}
		}
		cov := je.Coverage
		if cov == nil || cov.HuffmanOctets.Total != 256 || cov.HuffmanOctets.Covered != rep.Coverage[enc].HuffmanOctets.Covered {
			t.Errorf("JSON %s coverage %+v; want the report's, %s", enc, cov, rep.Coverage[enc])
		}
		for _, c := range rep.Cases {
			got, ok := je.Cases[c.ID]
			want := rep.Results[enc][c.ID]
			if !ok || got.Grade != want.Grade || got.Detail != want.Detail || got.Duration != want.Duration.Seconds() {
				t.Errorf("JSON %s %s = %+v; want grade %s, detail %q and duration %v", enc, c.ID, got, want.Grade, want.Detail, want.Duration.Seconds())
			}
		}
	}
}

func TestWriteHTML(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	links := regexp.MustCompile(`<td class="g [a-z-]+" title="judged [^"]+"><a href="#([^"]+)">`).FindAllStringSubmatch(page, -1)
	if want := len(rep.Cases) * len(rep.Encoders); len(links) != want {
		t.Fatalf("%d cell links; want %d (cases x encoders)", len(links), want)
	}
	for _, l := range links {
		if !strings.Contains(page, `<section id="`+l[1]+`"`) {
			t.Errorf("link #%s has no section", l[1])
		}
	}
	for _, want := range []string{
		"<title>hpackcert: FAIL</title>",
		"first failure: <a href=\"#e1-enc-5_2-1\">broken huffman-zero-padding <code>enc/5.2/1</code></a>",
		"not a prefix of EOS",
		`<td class="g consequence" title="judged no block; 4 blocks not judged; not graded: caused by enc/5.2/1"><a href="#e1-enc-5_2-3">consequence</a></td>`,
		`<p class="evidence">evidence: judged `,
		"<p>consequences, caused by enc/5.2/1 at story story_00.json, block 0:</p><ul><li>",
		" stories after the divergence judged by no case (first: story story_00.json, block 1)</li>",
		"<p>not graded: caused by enc/5.2/1</p>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}

func TestWriteMarkdown(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := report.WriteMarkdown(&buf, rep); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, c := range rep.Cases {
		if !strings.Contains(md, "| `"+c.ID+"` |") {
			t.Errorf("no row for %s", c.ID)
		}
	}
	for _, want := range []string{
		"## hpackcert: FAIL\n",
		"; first failure: **broken huffman\\-zero\\-padding** `enc/5.2/1` (Huffman padding is fewer than 8 bits of EOS).",
		"**fail**",
		"<details open><summary>broken huffman-zero-padding <code>enc/5.2/1</code> fail: ",
		"**Huffman padding is fewer than 8 bits of EOS**: RFC 7541 §5\\.2\\: ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, md)
		}
	}
}

func TestWriteText(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := report.WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, c := range rep.Cases {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.ID) + ` `).MatchString(text) {
			t.Errorf("no line for %s", c.ID)
		}
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`^verdict: FAIL: 1 failure in 1 of 3 encoders; 1 non-strict, 1 consequence of a failure\n`),
		regexp.MustCompile(`\nfirst failure: broken huffman-zero-padding enc/5.2/1 \(Huffman padding is fewer than 8 bits of EOS\)\n`),
		regexp.MustCompile(`\nref: 4 pass, 0 non-strict, 0 fail, 1 info, 0 unsupported\n  coverage: static entries `),
		regexp.MustCompile(`\nhpackcert .+; catalogue \d+ cases, [0-9a-f]{12}; started \d{4}-\d\d-\d\dT\S+, took \S+\n`),
		// The failure in full: the rule, the detail, then the
		// reproduction, which starts with the detail: that line is not
		// written twice. The failing block's wire is under the block.
		regexp.MustCompile(`\nfailures:\n  broken huffman-zero-padding enc/5.2/1 fail: Huffman padding is fewer than 8 bits of EOS\n` +
			`    RFC 7541 §5.2: [^\n]+\n    story [^\n]+ \(not a prefix of EOS\)[^\n]*\n` +
			`    evidence: judged [1-9]\d* Huffman strings in [1-9]\d* blocks \([^\n]+\); [1-9]\d* blocks not judged\n` +
			`    consequences, caused by enc/5.2/1 at story story_00.json, block 0:\n      [1-9]\d* blocks of [1-9]\d* stories after the divergence judged by no case \(first: [^\n]+\)\n` +
			`(      enc/5.2/\d also found fault with [^\n]+\n)+` +
			`    reproduce: [^\n]+\n(      [^\n]+\n)+        wire \(`),
		regexp.MustCompile(`\nnon-strict:\n  broken always-huffman enc/5.2/2 non-strict: Huffman is used only when it is shorter\n    RFC 7541 §5.2: `),
		regexp.MustCompile(`\ncase +ref +broken huffman-zero-padding +broken always-huffman +title\n(enc/[^\n]+\n)*enc/5.2/3 +pass +consequence +pass +every octet value round-trips\n`),
		// The evidence table: what each case judged, for every encoder.
		regexp.MustCompile(`\n\nevidence +ref +broken huffman-zero-padding +broken always-huffman\nenc/1.1/1 +5 blocks +0 blocks +5 blocks\nenc/5.2/1 +[1-9]\d* Huffman strings +[1-9]\d* Huffman strings +[1-9]\d* Huffman strings\n`),
		regexp.MustCompile(`\ndetails:\n  broken huffman-zero-padding enc/5.2/3 consequence: not graded: caused by enc/5.2/1\n    [0-9]+ blocks? not judged: they follow divergences filed under enc/5.2/1 `),
		regexp.MustCompile(`\n  ref enc/1.1/1 info: `),
	} {
		if !want.MatchString(text) {
			t.Errorf("text report does not match %s:\n%s", want, text)
		}
	}
}

// TestReportsFailuresFirst checks the order of every human-readable
// format on a report with a failure, a non-strict result and info
// results: the verdict, then the failure, then the non-strict result,
// then the matrix, then the rest.
func TestReportsFailuresFirst(t *testing.T) {
	rep := sampleReport(t)
	tests := []struct {
		format string
		write  func(io.Writer, *certify.Report) error
		// marks, in the order they must come.
		marks []string
	}{
		{"text", report.WriteText, []string{
			"verdict: FAIL",
			"\n  broken huffman-zero-padding enc/5.2/1 fail: ",
			"\n  broken always-huffman enc/5.2/2 non-strict: ",
			"\ncase ",
			"\n  ref enc/1.1/1 info: ",
		}},
		{"Markdown", report.WriteMarkdown, []string{
			"## hpackcert: FAIL",
			"<details open><summary>broken huffman-zero-padding <code>enc/5.2/1</code> fail: ",
			"<details open><summary>broken always-huffman <code>enc/5.2/2</code> non-strict: ",
			"| case | title |",
			"<details><summary>ref <code>enc/1.1/1</code> info: ",
		}},
		{"HTML", report.WriteHTML, []string{
			`<h1>hpackcert: <span class="fail">FAIL</span></h1>`,
			`<section id="e1-enc-5_2-1" class="fail">`,
			`<section id="e2-enc-5_2-2" class="non-strict">`,
			"<h2>Matrix</h2>\n<table>",
			`<section id="e0-enc-1_1-1" class="info">`,
			`<section id="e0-enc-5_2-1" class="pass">`,
		}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := tt.write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		last := -1
		for i, mark := range tt.marks {
			at := strings.Index(out, mark)
			switch {
			case at < 0:
				t.Errorf("%s: no %q", tt.format, mark)
			case at < last:
				t.Errorf("%s: %q comes before %q", tt.format, mark, tt.marks[i-1])
			}
			last = at
		}
		if t.Failed() {
			t.Logf("%s report:\n%s", tt.format, out)
		}
	}
}

// TestRuleCitedOnce checks that every format that quotes a case's RFC
// text cites the section once, not "§5.2: §5.2:".
func TestRuleCitedOnce(t *testing.T) {
	rep := sampleReport(t)
	twice := regexp.MustCompile(`§[0-9.]+\S*\s*§`)
	for _, tt := range []struct {
		format string
		write  func(io.Writer, *certify.Report) error
	}{{"text", report.WriteText}, {"Markdown", report.WriteMarkdown}, {"HTML", report.WriteHTML}} {
		var buf bytes.Buffer
		if err := tt.write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		// The Markdown report escapes the punctuation of the rule with
		// backslashes, the HTML report its quotes as entities.
		out := html.UnescapeString(strings.ReplaceAll(buf.String(), `\`, ""))
		if m := twice.FindString(out); m != "" {
			t.Errorf("%s report cites a section twice: %q", tt.format, m)
		}
		if want := `RFC 7541 §5.2: "To prevent this padding`; !strings.Contains(out, want) {
			t.Errorf("%s report lacks %q", tt.format, want)
		}
	}
}

func TestGradeText(t *testing.T) {
	for _, g := range []certify.Grade{certify.Pass, certify.Info, certify.Unsupported, certify.NonStrict, certify.Fail} {
		text, err := g.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back certify.Grade
		if err := back.UnmarshalText(text); err != nil || back != g {
			t.Errorf("grade %s: round trip through %q gave %s, %v", g, text, back, err)
		}
	}
	var g certify.Grade
	if err := g.UnmarshalText([]byte("excellent")); err == nil {
		t.Error(`UnmarshalText("excellent"): no error`)
	}
}
