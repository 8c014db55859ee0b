package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

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
	var doc struct {
		Version   *string  `json:"version"`
		Catalogue *string  `json:"catalogue"`
		Started   string   `json:"started"`
		Elapsed   *float64 `json:"elapsed_seconds"`
		Failed    *bool    `json:"failed"`
		Traffic   string   `json:"traffic"`
		Encoders  map[string]struct {
			Kind     string         `json:"kind"`
			Reported string         `json:"reported"`
			Binary   *bool          `json:"binary"`
			Elapsed  *float64       `json:"elapsed_seconds"`
			Summary  map[string]int `json:"summary"`
			Coverage *struct {
				HuffmanOctets struct{ Covered, Total int } `json:"huffman_octets"`
			} `json:"coverage"`
			Cases map[string]struct {
				Grade    string   `json:"grade"`
				Detail   string   `json:"detail"`
				Duration *float64 `json:"duration"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JSON report does not parse: %v", err)
	}
	if doc.Version == nil || *doc.Version != rep.Version || rep.Version == "" {
		t.Errorf("JSON version %v; want %q", doc.Version, rep.Version)
	}
	if doc.Catalogue == nil || *doc.Catalogue != certify.CatalogueVersion() {
		t.Errorf("JSON catalogue %v; want %q", doc.Catalogue, certify.CatalogueVersion())
	}
	if started, err := time.Parse(time.RFC3339, doc.Started); err != nil || !started.Equal(rep.Started.Truncate(time.Second)) {
		t.Errorf("JSON started %q (%v); want %s in RFC 3339", doc.Started, err, rep.Started.Format(time.RFC3339))
	}
	if doc.Elapsed == nil || *doc.Elapsed != rep.Elapsed.Seconds() || *doc.Elapsed <= 0 {
		t.Errorf("JSON elapsed_seconds %v; want %v", doc.Elapsed, rep.Elapsed.Seconds())
	}
	if doc.Failed == nil || *doc.Failed != rep.Failed() {
		t.Errorf("JSON failed %v; want %v", doc.Failed, rep.Failed())
	}
	if doc.Traffic != rep.TrafficSource || doc.Traffic == "" {
		t.Errorf("JSON traffic %q; want %q", doc.Traffic, rep.TrafficSource)
	}
	for _, enc := range rep.Encoders {
		je := doc.Encoders[enc]
		info := rep.Targets[enc]
		if je.Kind != "in-process" || je.Reported != enc || je.Binary == nil || *je.Binary {
			t.Errorf("JSON %s kind %q, reported %q, binary %v; want in-process, %q, false", enc, je.Kind, je.Reported, je.Binary, enc)
		}
		if je.Elapsed == nil || *je.Elapsed != info.Elapsed.Seconds() || *je.Elapsed <= 0 {
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
			if !ok || got.Grade != want.Grade.String() || got.Detail != want.Detail || got.Duration == nil {
				t.Errorf("JSON %s %s = %+v; want grade %s, detail %q and a duration", enc, c.ID, got, want.Grade, want.Detail)
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

// hostile lists strings an encoder under test could put in its name, its
// errors (quoted in details and reproductions) and its stderr, each aimed
// at the structure of a report format.
var hostile = []struct {
	label, payload, why string
}{
	{"fence3", "```\n# heading\n```", "closes a Markdown code block of three backticks and adds a heading"},
	{"fence4", "x ````\n````\n</details>\n\n# heading", "closes a fence of four, then the <details>"},
	{"html", "</summary></details><script>alert(1)</script><img src=x onerror=alert(1)>", "raw HTML in a summary, a cell or a page"},
	{"entity", "&lt;script&gt; &amp; &#60;", "entities that would decode to markup"},
	{"markup", "# heading\n- item\n> quote\n1. one\n**bold** _it_ ~~s~~", "leading block markup and inline emphasis"},
	{"link", "[link](http://x) ![img](http://x/i.png) <http://x> www.example.com", "links, images and autolinks"},
	{"pipes", "a | b || c\\|d |", "ends table cells"},
	{"backticks", "`a` ``b`` \\`", "code spans and an escaped backtick"},
	{"newlines", "line1\nline2\n\nline4\n", "breaks a one-line context; a blank line ends an HTML block"},
	{"carriage return", "ok\rref: 25 pass, 0 non-strict, 0 fail\r\n", "overwrites a terminal line; a line break to CommonMark"},
	{"terminal", "\x1b[2J\x1b[H\x1b]0;title\x07\x1b[31mred\x1b[0m", "clears the screen, sets the title and colours"},
	{"C0", "nul\x00 bs\b\b del\x7f bell\x07 vt\v ff\f", "controls XML 1.0 forbids"},
	{"C1", "nel\u0085 csi\u009b31m", "C1 controls: a line break and a terminal sequence"},
	{"invalid UTF-8", "bad \xff\xfe \x85 \xc3", "octets outside UTF-8"},
	{"format characters", "\u202eevil\u202c \u2028 zw\u200bsp", "bidi override, line separator, zero-width space"},
	{"fake summary", "\nref: 25 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported", "a line that reads as the reference's summary"},
	{"summary as name", "ref: 25 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported", "a name that, at the start of its summary line, reads as the reference's"},
	{"fake case row", "\nenc/4.2/1    pass  pass  pass  a lower setting is signalled\n", "a line that reads as a case of the matrix"},
	{"tab", "a\tb\t\tc", "a column of the text matrix"},
	{"quotes", `"'<>&`, "attribute delimiters"},
}

// allHostile is every hostile string at once.
func allHostile() string {
	var b strings.Builder
	for _, h := range hostile {
		b.WriteString(h.payload)
	}
	return b.String()
}

// hostileCases are the cases of hostileReport, in id order.
var hostileCases = []certify.Case{
	{ID: "enc/2.3.2/2", Section: "2.3.2", Title: "the dynamic table holds what the decoder's holds", RFC: "§2.3.2: the dynamic table MUST be the same.", Violation: certify.Fail},
	{ID: "enc/4.2/1", Section: "4.2", Title: "a lower setting is signalled by a size update in the next block", RFC: "§4.2: a change in the maximum size MUST be signalled.", Violation: certify.Fail},
	{ID: "enc/5.2/1", Section: "5.2", Title: "Huffman padding is fewer than 8 bits of EOS", RFC: "§5.2: padding longer than 7 bits MUST be treated as an error.", Violation: certify.Fail},
	{ID: "enc/5.2/2", Section: "5.2", Title: "Huffman is used only when it is shorter", RFC: "§5.2: an efficiency rule.", Violation: certify.NonStrict},
	{ID: "enc/6.3/1", Section: "6.3", Title: "a size update is at most the setting", RFC: "§6.3: the new maximum size MUST be lower than or equal to the limit.", Violation: certify.Fail},
	{ID: "enc/7.1.3/1", Section: "7.1.3", Title: "sensitive fields are never indexed", RFC: "§7.1.3: an encoder MUST use never-indexed literals for them.", Violation: certify.Fail},
	{ID: "enc/7.3/1", Section: "7.3", Title: "amplification: decoded octets per wire octet", RFC: "a measurement.", Violation: certify.Info},
}

// hostileEvidence is what every case of hostileReport judged.
var hostileEvidence = certify.Evidence{Blocks: 7, Representations: 30, Insertions: 4, Evictions: 1, SizeUpdates: 2, HuffmanStrings: 9, SensitiveFields: 1, Instances: 3, Of: "size updates"}

// hostileReport builds a report of three encoders: ref and x/net pass,
// and between them one named payload fails, fails as expected, breaks a
// SHOULD, is unsupported, leaves a MUST case ungraded (it is driven over
// stdio), has a case declared and one left to a root cause, and broke
// down, with payload in every detail, reproduction, consequence,
// declaration and stderr, in its breakdown, in the name it reported for
// itself, and in the traffic source and a stale expectation.
func hostileReport(payload string) *certify.Report {
	pass := func() map[string]*certify.Result {
		out := map[string]*certify.Result{}
		for _, c := range hostileCases {
			out[c.ID] = &certify.Result{Grade: certify.Pass, Detail: "ok", Duration: time.Millisecond, Evidence: hostileEvidence}
		}
		out["enc/7.3/1"].Grade = certify.Info
		return out
	}
	return &certify.Report{
		Encoders: []string{"ref", payload, "x/net"},
		Cases:    hostileCases,
		Results: map[string]map[string]*certify.Result{
			"ref": pass(),
			payload: {
				"enc/2.3.2/2": {Grade: certify.Unsupported, Detail: "not exercised: " + payload, Evidence: certify.Evidence{Of: "table comparisons", NotJudged: 2}},
				"enc/4.2/1": {Grade: certify.Fail, Detail: "story s, block 0: encoder error: " + payload,
					Repro:  "story s, block 0: " + payload + "\nreproduce: a fresh encoder, then\n  block 0: 1 field\n    \"a\": " + payload + "\nencoder error: " + payload + "\n",
					Stderr: payload, Duration: time.Millisecond, At: "story s, block 0", Evidence: hostileEvidence,
					Consequences: []certify.Consequence{
						{Blocks: 3, Stories: 1, First: "story s, block 1"},
						{Case: "enc/7.1.3/1", Blocks: 1, Stories: 1, First: "story s, block 0", Detail: payload},
					}},
				"enc/5.2/1":   {Grade: certify.Fail, Expected: true, Detail: payload, Repro: payload, Evidence: hostileEvidence},
				"enc/5.2/2":   {Grade: certify.NonStrict, Detail: payload, Stderr: payload, Evidence: hostileEvidence},
				"enc/6.3/1":   {Grade: certify.Unsupported, Detail: payload, Declared: "no API for " + payload, Evidence: certify.Evidence{Of: "size updates"}},
				"enc/7.1.3/1": {Grade: certify.Unsupported, Detail: "not graded: " + payload, CausedBy: []string{"enc/4.2/1"}, Evidence: certify.Evidence{Of: "sensitive fields", NotJudged: 3}},
				"enc/7.3/1":   {Grade: certify.Unsupported, Detail: payload},
			},
			"x/net": pass(),
		},
		TrafficSource:     "stories from " + payload,
		StaleExpectations: []string{payload},
		Targets: map[string]certify.TargetInfo{
			"ref":   {Kind: "in-process", Reported: "ref"},
			payload: {Kind: "stdio", Reported: "hello " + payload, Binary: true, Breakdown: "encoder broke hpack-stdio at request 7: " + payload},
			"x/net": {Kind: "in-process", Reported: "x/net"},
		},
	}
}

// forEachHostile runs check on hostileReport of every hostile string and
// of all of them at once.
func forEachHostile(t *testing.T, check func(t *testing.T, payload string, rep *certify.Report)) {
	for _, h := range hostile {
		t.Run(h.label, func(t *testing.T) { check(t, h.payload, hostileReport(h.payload)) })
	}
	t.Run("all", func(t *testing.T) { check(t, allHostile(), hostileReport(allHostile())) })
}

// badRune returns the first rune of s, quoted, that is neither graphic nor
// one of allowed, with invalid UTF-8 counting as such a rune.
func badRune(s, allowed string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("invalid octet %#x at %d", s[i], i), true
			}
		}
		if !unicode.IsPrint(r) && !strings.ContainsRune(allowed, r) {
			return fmt.Sprintf("%U at %d", r, i), true
		}
	}
	return "", false
}

// hostileCells are the matrix cells of hostileReport's hostile encoder,
// by case (ref and x/net pass, info on enc/7.3/1).
var hostileCells = map[string]string{
	"enc/2.3.2/2": "not graded",
	"enc/4.2/1":   "fail",
	"enc/5.2/1":   "fail (expected)",
	"enc/5.2/2":   "non-strict",
	"enc/6.3/1":   "declared",
	"enc/7.1.3/1": "consequence",
	"enc/7.3/1":   "unsupported",
}

// hostileEvidenceCells are the evidence table's cells of hostileReport's
// hostile encoder, by case; every other cell reads "3 size updates".
var hostileEvidenceCells = map[string]string{
	"enc/2.3.2/2": "0 table comparisons",
	"enc/6.3/1":   "0 size updates",
	"enc/7.1.3/1": "0 sensitive fields",
	"enc/7.3/1":   "-",
}

// TestWriteTextHostile checks that the text report shows no control
// character nor invalid UTF-8, and that every line at the left margin is
// one of the report's own, in order: the verdict, the breakdown and the
// first failure, one summary per encoder (the hostile name Go-quoted), the
// traffic stories and the stale expectation, the failures, the MUST cases
// not graded, the non-strict results, the matrix (a header and one row per
// case), the evidence table (likewise) and the details.
func TestWriteTextHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteText(&buf, rep); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if bad, ok := badRune(text, "\n\t"); ok {
			t.Errorf("text report holds %s:\n%s", bad, text)
		}
		names := []string{"ref", strconv.Quote(payload), "x/net"}
		summaries := make([]int, len(names))
		rows, evidenceRows := map[string]int{}, map[string]int{}
		breakdowns := 0
		cell := regexp.MustCompile(` {2,}`)
		// The report's own lines that are not rows nor summaries, in
		// the order they come; a line matches the next one or the
		// same one again.
		own := []string{
			"verdict: FAIL: 1 failure in 1 of 3 encoders; 1 breakdown (" + names[1] + "); 1 MUST case not graded for " + names[1] + ": enc/2.3.2/2 (not exercised: ",
			"first failure: ", "traffic stories: ", "expected failure ", "breakdowns (each the target's one failure):", "failures:", "not graded (MUST cases, each fails the run):", "non-strict:", "case ", "evidence ", "details:"}
		next := 0
	lines:
		for n, line := range strings.Split(text, "\n") {
			if line == "" || line[0] == ' ' {
				continue
			}
			inEvidence := next > 0 && own[next-1] == "evidence "
			for _, c := range rep.Cases {
				if strings.HasPrefix(line, c.ID+" ") {
					want := []string{c.ID, "pass", hostileCells[c.ID], "pass", c.Title}
					if c.ID == "enc/7.3/1" {
						want[1], want[3] = "info", "info"
					}
					if inEvidence {
						evidenceRows[c.ID]++
						want = []string{c.ID, "3 size updates", "3 size updates", "3 size updates"}
						if e, ok := hostileEvidenceCells[c.ID]; ok {
							want[2] = e
						}
					} else {
						rows[c.ID]++
					}
					if got := cell.Split(line, -1); !slices.Equal(got, want) {
						t.Errorf("row %q has cells %q; want %q", line, got, want)
					}
					continue lines
				}
			}
			if strings.HasPrefix(line, names[1]+": breakdown: encoder broke hpack-stdio at request 7: ") && next == 1 {
				breakdowns++
				continue lines
			}
			for i, name := range names {
				if strings.HasPrefix(line, name+": ") {
					summaries[i]++
					continue lines
				}
			}
			for i := max(next-1, 0); i < len(own); i++ {
				if strings.HasPrefix(line, own[i]) {
					next = i + 1
					continue lines
				}
			}
			t.Errorf("line %d starts at the left margin and is not the report's, or not in its place: %q", n+1, line)
		}
		if next != len(own) {
			t.Errorf("the report's own lines stop before %q", own[next])
		}
		if breakdowns != 1 {
			t.Errorf("%d breakdown lines after the verdict; want 1", breakdowns)
		}
		// The results not passed, each introduced by a line indented by
		// two spaces: failures, the expected one included, the MUST case
		// not graded, non-strict, unsupported (declared and consequences
		// among them), info.
		var entries []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
				entries = append(entries, line)
			}
		}
		wantEntries := []string{
			"  " + names[1] + ": breakdown",
			"  " + names[1] + " enc/4.2/1 fail: a lower setting",
			"  " + names[1] + " enc/5.2/1 fail (expected): Huffman padding",
			"  " + names[1] + " enc/2.3.2/2 not graded: the dynamic table",
			"  " + names[1] + " enc/5.2/2 non-strict: Huffman is used",
			"  " + names[1] + " enc/6.3/1 declared: no API for ",
			"  " + names[1] + " enc/7.1.3/1 consequence: not graded: caused by enc/4.2/1",
			"  " + names[1] + " enc/7.3/1 unsupported: ",
			"  ref enc/7.3/1 info: ok",
			"  x/net enc/7.3/1 info: ok",
		}
		if len(entries) != len(wantEntries) {
			t.Errorf("%d results not passed: %q; want %d", len(entries), entries, len(wantEntries))
		} else {
			for i, want := range wantEntries {
				if !strings.HasPrefix(entries[i], want) {
					t.Errorf("result %d: %q; want it to start %q", i, entries[i], want)
				}
			}
		}
		for _, c := range rep.Cases {
			if rows[c.ID] != 1 || evidenceRows[c.ID] != 1 {
				t.Errorf("%d rows and %d evidence rows for %s; want 1 of each", rows[c.ID], evidenceRows[c.ID], c.ID)
			}
		}
		for i, name := range names {
			if summaries[i] != 1 {
				t.Errorf("%d summary lines start %q; want 1", summaries[i], name+": ")
			}
		}
		if t.Failed() {
			t.Logf("text report:\n%s", text)
		}
	})
}

// mdCells splits a GFM table row into its cells, trimmed: a pipe after a
// backslash belongs to the cell, and a backslash escapes the next
// character.
func mdCells(row string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, strings.TrimSpace(row[start:i]))
			start = i + 1
		}
	}
	cells = append(cells, strings.TrimSpace(row[start:]))
	// The leading and trailing pipes leave an empty cell at each end.
	return cells[1 : len(cells)-1]
}

// mdBare returns the first ASCII punctuation character of s that is not
// escaped by a backslash: CommonMark could read it as markup.
func mdBare(s string) (byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte(mdPunct, s[i+1]) >= 0 {
			i++
			continue
		}
		if strings.IndexByte(mdPunct, c) >= 0 {
			return c, true
		}
	}
	return 0, false
}

const mdPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// closesFence reports whether line closes a code block opened by fence,
// as CommonMark reads it: up to three spaces, at least as many backticks,
// then only spaces and tabs.
func closesFence(line, fence string) bool {
	rest := strings.TrimLeft(line, " ")
	if len(line)-len(rest) > 3 {
		return false
	}
	run := len(rest) - len(strings.TrimLeft(rest, "`"))
	return run >= len(fence) && strings.Trim(rest[run:], " \t") == ""
}

// TestWriteMarkdownHostile reads the Markdown report line by line as
// CommonMark and GFM would (a bare carriage return breaks a line too) and
// checks its structure: every fence is closed by the same fence and by no
// line of the text inside; outside code blocks, every line is one of the
// report's own, so none is a heading or raw HTML from the encoder; the
// headings come in order (failures, MUST cases not graded, non-strict,
// matrix, evidence, the rest); each table (the matrix, the evidence) has a
// header, a delimiter and a row per case, each with a cell per encoder; names in the verdict, cells and list items, and the traffic
// stories and the stale expectation, have every punctuation character
// escaped; the <summary> holds no markup but <code>; there is a <details>
// per case not passed, open for failures and non-strict results.
func TestWriteMarkdownHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteMarkdown(&buf, rep); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		if bad, ok := badRune(md, "\n\t"); ok {
			t.Errorf("Markdown report holds %s", bad)
		}
		bare := func(where, what, s string) {
			if c, ok := mdBare(s); ok {
				t.Errorf("%s: %s %q has a bare %q", where, what, s, c)
			}
		}
		width := 2 + len(rep.Encoders)
		grades := []string{"pass", "**fail**", "*non-strict*", "fail (expected)", "info", "unsupported", "**not graded**", "declared", "consequence"}
		var rows, evidenceRows, items, breakdowns, opened, open, closed, fences int
		var headings []string
		fence := ""
		for n, line := range regexp.MustCompile(`\r\n|\r|\n`).Split(md, -1) {
			where := fmt.Sprintf("line %d %q", n+1, line)
			if fence != "" {
				if closesFence(line, fence) {
					if line != fence {
						t.Errorf("%s closes the code block opened by %s", where, fence)
					}
					fence = ""
				}
				continue
			}
			switch {
			case line == "", line == "</details>" && opened > closed, line == "encoder stderr:":
				if line == "</details>" {
					closed++
				}
			case line == "## hpackcert: FAIL" && n == 0:
			case strings.HasPrefix(line, "1 failure in 1 of 3 encoders; 1 breakdown ("):
				// Every punctuation character of the names and the reason
				// is escaped: the report's own "); " cannot occur in them.
				rest := strings.TrimPrefix(line, "1 failure in 1 of 3 encoders; 1 breakdown (")
				var parts []string
				for _, sep := range []string{"); 1 MUST case not graded for ", ": enc/2.3.2/2 (", "); 1 expected failure, 1 non-strict, 1 unsupported, 1 declared, 1 consequence of a failure; first failure: **", "** `enc/4.2/1` ("} {
					part, after, ok := strings.Cut(rest, sep)
					if !ok {
						t.Errorf("%s: not the verdict, no %q", where, sep)
					}
					parts, rest = append(parts, part), after
				}
				parts = append(parts, strings.TrimSuffix(rest, ")."))
				for _, p := range parts {
					bare(where, "part of the verdict", p)
				}
			case strings.HasPrefix(line, "Evidence: "), strings.HasPrefix(line, "Declared: "), strings.HasPrefix(line, "not graded\\: caused by "), strings.HasPrefix(line, "consequences\\, caused by "):
				_, rest, _ := strings.Cut(line, " ")
				bare(where, "evidence, declaration or cause", rest)
			case strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "- **") && opened > closed:
				bare(where, "consequence", strings.TrimPrefix(line, "- "))
			case strings.HasPrefix(line, "Traffic stories: "):
				bare(where, "traffic stories", strings.TrimSuffix(strings.TrimPrefix(line, "Traffic stories: "), "."))
			case strings.HasPrefix(line, "Expected failure ") && strings.HasSuffix(line, " did not fail: remove it from the list."):
				bare(where, "expected failure", strings.TrimSuffix(strings.TrimPrefix(line, "Expected failure "), " did not fail: remove it from the list."))
			case strings.HasPrefix(line, "### "):
				headings = append(headings, line)
			case strings.HasPrefix(line, "```"):
				if strings.Trim(line, "`") != "" {
					t.Errorf("%s: a fence with an info string", where)
				}
				fence = line
				fences++
			case strings.HasPrefix(line, "|") && len(headings) > 0 && headings[len(headings)-1] == "### Evidence":
				evidenceRows++
				cells := mdCells(line)
				if len(cells) != width-1 {
					t.Errorf("%s: %d cells; want %d", where, len(cells), width-1)
					continue
				}
				switch {
				case evidenceRows == 1:
					if cells[0] != "case" {
						t.Errorf("%s: header starts %q", where, cells[0])
					}
					for _, name := range cells[1:] {
						bare(where, "encoder name", name)
					}
				case evidenceRows == 2:
					if line != "|---|"+strings.Repeat("---|", len(rep.Encoders)) {
						t.Errorf("%s: not the delimiter row", where)
					}
				case evidenceRows-3 < len(rep.Cases):
					id := rep.Cases[evidenceRows-3].ID
					want := []string{"`" + id + "`", "3 size updates", "3 size updates", "3 size updates"}
					if e, ok := hostileEvidenceCells[id]; ok {
						want[2] = strings.ReplaceAll(e, "-", `\-`)
					}
					if !slices.Equal(cells, want) {
						t.Errorf("%s: cells %q; want %q", where, cells, want)
					}
				default:
					t.Errorf("%s: an evidence row beyond the cases", where)
				}
			case line == "What each case judged: the instances of its rule.":
			case strings.HasPrefix(line, "|"):
				rows++
				cells := mdCells(line)
				if len(cells) != width {
					t.Errorf("%s: %d cells; want %d", where, len(cells), width)
					continue
				}
				switch {
				case rows == 1:
					if cells[0] != "case" || cells[1] != "title" {
						t.Errorf("%s: header starts %q", where, cells[:2])
					}
					for _, name := range cells[2:] {
						bare(where, "encoder name", name)
					}
				case rows == 2:
					if line != "|---|---|"+strings.Repeat("---|", len(rep.Encoders)) {
						t.Errorf("%s: not the delimiter row", where)
					}
				case rows-3 < len(rep.Cases):
					if want := "`" + rep.Cases[rows-3].ID + "`"; cells[0] != want {
						t.Errorf("%s: first cell %q; want %q", where, cells[0], want)
					}
					bare(where, "title", cells[1])
					for _, g := range cells[2:] {
						if !slices.Contains(grades, g) {
							t.Errorf("%s: cell %q is not a grade", where, g)
						}
					}
				default:
					t.Errorf("%s: a table row beyond the cases", where)
				}
			case strings.HasPrefix(line, "- **"):
				name, rest, ok := strings.Cut(strings.TrimPrefix(line, "- **"), "**: ")
				if !ok {
					t.Errorf("%s: not a summary item", where)
				}
				bare(where, "encoder name", name)
				if b, ok := strings.CutPrefix(rest, "breakdown: "); ok {
					breakdowns++
					bare(where, "breakdown", b)
				} else {
					items++
				}
			case (strings.HasPrefix(line, "<details><summary>") || strings.HasPrefix(line, "<details open><summary>")) && strings.HasSuffix(line, "</summary>") && opened == closed:
				opened++
				if strings.HasPrefix(line, "<details open>") {
					open++
				}
				_, inner, _ := strings.Cut(line, "<summary>")
				inner = strings.TrimSuffix(inner, "</summary>")
				inner = strings.Replace(strings.Replace(inner, "<code>", "", 1), "</code>", "", 1)
				if strings.ContainsAny(inner, "<>") {
					t.Errorf("%s: markup in the summary", where)
				}
			case strings.HasPrefix(line, "**") && strings.Contains(line, "**: RFC 7541 ") && opened > closed:
				title, rule, _ := strings.Cut(strings.TrimPrefix(line, "**"), "**: ")
				bare(where, "title", title)
				bare(where, "rule", rule)
			default:
				t.Errorf("%s is outside code blocks and not the report's", where)
			}
		}
		if fence != "" {
			t.Errorf("code block opened by %s not closed", fence)
		}
		notPassed := 0
		for _, enc := range rep.Encoders {
			for _, res := range rep.Results[enc] {
				if res.Grade != certify.Pass {
					notPassed++
				}
			}
		}
		// One <details> for each result not passed, and one for the
		// breakdown.
		if opened != notPassed+1 || closed != notPassed+1 {
			t.Errorf("%d <details> opened, %d closed; want %d", opened, closed, notPassed+1)
		}
		// Open: the breakdown, the failure, the expected failure, the MUST
		// case not graded, the non-strict result.
		if open != 5 {
			t.Errorf("%d <details open>; want 5", open)
		}
		// A code block for each <details>, and one more for each stderr.
		if want := notPassed + 1 + 2; fences != want {
			t.Errorf("%d code blocks; want %d", fences, want)
		}
		if want := 2 + len(rep.Cases); rows != want || evidenceRows != want {
			t.Errorf("%d matrix rows, %d evidence rows; want %d of each", rows, evidenceRows, want)
		}
		if items != len(rep.Encoders) || breakdowns != 1 {
			t.Errorf("%d summary items, %d breakdowns; want %d and 1", items, breakdowns, len(rep.Encoders))
		}
		if want := []string{"### Failures", "### Not graded (MUST cases, each fails the run)", "### Non-strict", "### Matrix", "### Evidence", "### Unsupported and info"}; !slices.Equal(headings, want) {
			t.Errorf("headings %q; want %q", headings, want)
		}
		if t.Failed() {
			t.Logf("Markdown report:\n%s", md)
		}
	})
}

// TestWriteJUnitHostile parses the JUnit report with encoding/xml in
// strict mode, checks every attribute and text it holds is graphic UTF-8
// (line feeds and tabs aside) with no U+FFFD standing for what the encoder
// wrote, and counts suites, testcases, failures and skips.
func TestWriteJUnitHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteJUnit(&buf, rep); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		d.Strict = true
		check := func(what, s string) {
			if bad, ok := badRune(s, "\n\t"); ok {
				t.Errorf("%s holds %s: %q", what, bad, s)
			}
			if strings.ContainsRune(s, utf8.RuneError) {
				t.Errorf("%s holds U+FFFD, which the encoder did not write: %q", what, s)
			}
		}
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("JUnit report does not parse: %v\n%s", err, buf.Bytes())
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				for _, a := range tok.Attr {
					check(tok.Name.Local+" "+a.Name.Local, a.Value)
				}
			case xml.CharData:
				check("text", string(tok))
			}
		}
		var doc struct {
			Suites []struct {
				Name     string `xml:"name,attr"`
				Failures int    `xml:"failures,attr"`
				Skipped  int    `xml:"skipped,attr"`
				Cases    []struct {
					Name    string    `xml:"name,attr"`
					Failure *struct{} `xml:"failure"`
					Skipped *struct{} `xml:"skipped"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Suites) != len(rep.Encoders) {
			t.Fatalf("%d testsuites; want %d", len(doc.Suites), len(rep.Encoders))
		}
		for i, s := range doc.Suites {
			failures, skipped := 0, 0
			for j, c := range s.Cases {
				if j < len(rep.Cases) && c.Name != rep.Cases[j].ID+" "+rep.Cases[j].Title {
					t.Errorf("testsuite %d testcase %d named %q; want case %s", i, j, c.Name, rep.Cases[j].ID)
				}
				if c.Failure != nil {
					failures++
				}
				if c.Skipped != nil {
					skipped++
				}
			}
			wantCases, wantFailures, wantSkipped := len(rep.Cases), 0, 0
			if i == 1 {
				// The failure, the MUST case not graded and the
				// breakdown, a testcase of its own after the cases; the
				// expected failure, the unsupported case, the declared
				// one and the consequence.
				wantCases, wantFailures, wantSkipped = len(rep.Cases)+1, 3, 4
				if last := s.Cases[len(s.Cases)-1]; last.Name != "breakdown" || last.Failure == nil {
					t.Errorf("testsuite %d ends with testcase %q (failure %v); want a failing breakdown", i, last.Name, last.Failure != nil)
				}
			}
			if len(s.Cases) != wantCases || failures != wantFailures || s.Failures != wantFailures || skipped != wantSkipped || s.Skipped != wantSkipped {
				t.Errorf("testsuite %d: %d testcases, %d <failure> (failures=%d), %d <skipped> (skipped=%d); want %d, %d, %d",
					i, len(s.Cases), failures, s.Failures, skipped, s.Skipped, wantCases, wantFailures, wantSkipped)
			}
		}
		if doc.Suites[0].Name != "ref" || doc.Suites[2].Name != "x/net" {
			t.Errorf("testsuites named %q, %q; want ref and x/net around the hostile one", doc.Suites[0].Name, doc.Suites[2].Name)
		}
	})
}

// TestWriteHTMLHostile parses the HTML report with x/net/html and checks
// that it holds only the template's elements (no <script>, no <img>) and
// attributes, that its Content Security Policy allows its style sheet by
// digest and nothing else, that ids are unique and every link's target
// exists, that the summary has a row per encoder and the matrix a row per
// case with a cell per encoder, and that the page is graphic UTF-8.
func TestWriteHTMLHostile(t *testing.T) {
	own := []string{"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "table", "tbody", "tr", "th", "td", "a", "code", "span", "br", "i", "section", "pre", "details", "summary", "ul", "li"}
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteHTML(&buf, rep); err != nil {
			t.Fatal(err)
		}
		if bad, ok := badRune(buf.String(), "\n\t"); ok {
			t.Errorf("HTML report holds %s", bad)
		}
		doc := parseHTML(t, buf.Bytes())
		ids := map[string]int{}
		var links []string
		for _, n := range elements(doc, nil) {
			if !slices.Contains(own, n.Data) {
				t.Errorf("element <%s> is not the template's", n.Data)
			}
			for _, a := range n.Attr {
				switch {
				case a.Key == "id":
					ids[a.Val]++
				case a.Key == "href" && n.Data == "a":
					links = append(links, a.Val)
				case a.Key == "class" || a.Key == "lang" || a.Key == "charset":
				case a.Key == "title" && n.Data == "td", a.Key == "colspan" && n.Data == "td" && a.Val == "10":
				case (a.Key == "http-equiv" || a.Key == "content") && n.Data == "meta":
				default:
					t.Errorf("attribute %s=%q on <%s> is not the template's", a.Key, a.Val, n.Data)
				}
			}
		}
		var style, policy string
		for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "style" }) {
			style += textOf(n)
		}
		for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "meta" && attr(n, "http-equiv") == "Content-Security-Policy" }) {
			policy = attr(n, "content")
		}
		digest := sha256.Sum256([]byte(style))
		if want := "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(digest[:]) + "'"; policy != want {
			t.Errorf("Content-Security-Policy %q; want %q", policy, want)
		}
		for id, n := range ids {
			if n != 1 {
				t.Errorf("id %q used %d times", id, n)
			}
		}
		// A link per cell, and one to the first failure.
		if want := len(rep.Cases) * len(rep.Encoders); len(links) != want+1 || len(ids) != want {
			t.Errorf("%d links, %d ids; want %d links and %d ids", len(links), len(ids), want+1, want)
		}
		for _, l := range links {
			if id, ok := strings.CutPrefix(l, "#"); !ok || ids[id] != 1 {
				t.Errorf("link %q has no target", l)
			}
		}
		if h1 := elements(doc, func(n *html.Node) bool { return n.Data == "h1" }); len(h1) != 1 || textOf(h1[0]) != "hpackcert: FAIL" {
			t.Errorf("the page's headings %v; want one, hpackcert: FAIL", h1)
		}
		tables := map[string][][]*html.Node{}
		for _, table := range elements(doc, func(n *html.Node) bool { return n.Data == "table" }) {
			for _, tr := range elements(table, func(n *html.Node) bool { return n.Data == "tr" }) {
				tables[attr(table, "class")] = append(tables[attr(table, "class")], elements(tr, func(n *html.Node) bool { return n.Data == "td" || n.Data == "th" }))
			}
		}
		// A row per encoder, and the hostile one's breakdown under it,
		// then its reproduction.
		if got := tables["summary"]; len(got) != 3+len(rep.Encoders) || len(got[2][0].Attr) != 0 || !strings.Contains(textOf(got[2][0]), "reports itself as hello ") ||
			len(got[3]) != 1 || !strings.Contains(textOf(got[3][0]), ": breakdown: encoder broke hpack-stdio at request 7: ") ||
			len(got[4]) != 1 || !strings.Contains(textOf(got[4][0]), "its reproduction") {
			t.Errorf("summary table: %d rows, the hostile encoder's first cell %q; want %d rows, the name it reported, its breakdown and its reproduction", len(got), textOf(got[2][0]), 3+len(rep.Encoders))
		}
		matrix := tables[""] // the one table without a class
		if len(matrix) != 1+len(rep.Cases) {
			t.Errorf("matrix: %d rows; want %d", len(matrix), 1+len(rep.Cases))
		}
		for i, row := range matrix {
			if len(row) != 2+len(rep.Encoders) {
				t.Errorf("matrix row %d: %d cells; want %d", i, len(row), 2+len(rep.Encoders))
			}
		}
		if t.Failed() {
			t.Logf("HTML report:\n%s", buf.Bytes())
		}
	})
}

// parseHTML parses a page as a browser would.
func parseHTML(t *testing.T, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("HTML report does not parse: %v", err)
	}
	return doc
}

// elements returns the elements under n, in document order, that keep
// accepts (all of them when keep is nil).
func elements(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && (keep == nil || keep(d)) {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// within reports whether n has an ancestor element named tag.
func within(n *html.Node, tag string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == tag {
			return true
		}
	}
	return false
}

// textOf returns the text under n.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// TestWriteJSONHostile checks that the JSON report parses, keeps each
// encoder under its own key, and carries what the encoder wrote without
// loss: exactly when it is valid UTF-8, else with no U+FFFD and each
// invalid octet written \xNN.
func TestWriteJSONHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Traffic  string `json:"traffic"`
			Encoders map[string]struct {
				Kind      string `json:"kind"`
				Reported  string `json:"reported"`
				Binary    bool   `json:"binary"`
				Breakdown string `json:"breakdown"`
				Ungraded  []struct {
					Case, Why string
				} `json:"ungraded"`
				Cases map[string]struct {
					Detail       string `json:"detail"`
					Repro        string `json:"repro"`
					Stderr       string `json:"stderr"`
					Declared     string `json:"declared"`
					Consequences []struct {
						Detail string `json:"detail"`
					} `json:"consequences"`
				} `json:"cases"`
			} `json:"encoders"`
			Stale []string `json:"stale_expectations"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("JSON report does not parse: %v\n%s", err, buf.Bytes())
		}
		if len(doc.Encoders) != len(rep.Encoders) {
			t.Fatalf("%d encoders; want %d", len(doc.Encoders), len(rep.Encoders))
		}
		want := func(what, got, sent string) {
			if utf8.ValidString(sent) {
				if got != sent {
					t.Errorf("%s = %q; want %q", what, got, sent)
				}
				return
			}
			if strings.ContainsRune(got, utf8.RuneError) || !strings.Contains(got, `\xff`) {
				t.Errorf("%s = %q; want the invalid octets of %q as \\xNN", what, got, sent)
			}
		}
		var key string
		for k := range doc.Encoders {
			if k != "ref" && k != "x/net" {
				key = k
			}
		}
		want("encoder name", key, payload)
		want("reported name", doc.Encoders[key].Reported, rep.Targets[payload].Reported)
		if je := doc.Encoders[key]; je.Kind != "stdio" || !je.Binary {
			t.Errorf("kind %q, binary %v; want stdio, true", je.Kind, je.Binary)
		}
		res := rep.Results[payload]["enc/4.2/1"]
		got := doc.Encoders[key].Cases["enc/4.2/1"]
		want("detail", got.Detail, res.Detail)
		want("repro", got.Repro, res.Repro)
		want("stderr", got.Stderr, res.Stderr)
		want("traffic", doc.Traffic, rep.TrafficSource)
		want("breakdown", doc.Encoders[key].Breakdown, rep.Targets[payload].Breakdown)
		if u := doc.Encoders[key].Ungraded; len(u) != 1 || u[0].Case != "enc/2.3.2/2" {
			t.Errorf("ungraded %+v; want enc/2.3.2/2", u)
		} else {
			want("ungraded why", u[0].Why, rep.Results[payload]["enc/2.3.2/2"].Detail)
		}
		if cq := got.Consequences; len(cq) != 2 {
			t.Errorf("consequences %+v; want 2", cq)
		} else {
			want("consequence detail", cq[1].Detail, res.Consequences[1].Detail)
		}
		want("declared", doc.Encoders[key].Cases["enc/6.3/1"].Declared, rep.Results[payload]["enc/6.3/1"].Declared)
		if len(doc.Stale) != 1 {
			t.Fatalf("stale expectations %q; want one", doc.Stale)
		}
		want("stale expectation", doc.Stale[0], payload)
	})
}
