package certify_test

import (
	"bytes"
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
	"github.com/hpackcert/hpackcert/certify/internal/broken"
)

// sampleReport runs the reference and two broken encoders on a few cases,
// for every grade but unsupported to show up.
// It runs once per test binary; the tests only read it.
func sampleReport(t *testing.T) *certify.Report {
	t.Helper()
	sample.once.Do(func() {
		ref, err := certify.Builtin("ref")
		if err != nil {
			sample.err = err
			return
		}
		opts := quick()
		opts.Cases = []string{"enc/5.2/", "enc/1.1/1"}
		sample.rep, sample.err = certify.Run([]certify.Target{ref, brokenTarget(broken.HuffmanZeroPadding), brokenTarget(broken.AlwaysHuffman)}, opts)
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
	if err := rep.WriteJUnit(&buf); err != nil {
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
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Traffic  string `json:"traffic"`
		Encoders map[string]struct {
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
	if doc.Traffic != rep.TrafficSource || doc.Traffic == "" {
		t.Errorf("JSON traffic %q; want %q", doc.Traffic, rep.TrafficSource)
	}
	for _, enc := range rep.Encoders {
		if got, want := doc.Encoders[enc].Summary["pass"], rep.Counts(enc)[certify.Pass]; got != want {
			t.Errorf("JSON %s summary pass = %d; want %d", enc, got, want)
		}
		cov := doc.Encoders[enc].Coverage
		if cov == nil || cov.HuffmanOctets.Total != 256 || cov.HuffmanOctets.Covered != rep.Coverage[enc].HuffmanOctets.Covered {
			t.Errorf("JSON %s coverage %+v; want the report's, %s", enc, cov, rep.Coverage[enc])
		}
		for _, c := range rep.Cases {
			got, ok := doc.Encoders[enc].Cases[c.ID]
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
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	links := regexp.MustCompile(`<a href="#([^"]+)">`).FindAllStringSubmatch(html, -1)
	if want := len(rep.Cases) * len(rep.Encoders); len(links) != want {
		t.Fatalf("%d cell links; want %d (cases x encoders)", len(links), want)
	}
	for _, l := range links {
		if !strings.Contains(html, `id="`+l[1]+`"`) {
			t.Errorf("link #%s has no target", l[1])
		}
	}
	if !strings.Contains(html, "not a prefix of EOS") {
		t.Error("the HTML report lacks the detail of the failure")
	}
}

func TestWriteMarkdown(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, c := range rep.Cases {
		if !strings.Contains(md, "| `"+c.ID+"` |") {
			t.Errorf("no row for %s", c.ID)
		}
	}
	if !strings.Contains(md, "**fail**") || !strings.Contains(md, "<details>") {
		t.Errorf("the Markdown report does not show the failure:\n%s", md)
	}
}

func TestWriteText(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, c := range rep.Cases {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.ID) + ` `).MatchString(text) {
			t.Errorf("no line for %s", c.ID)
		}
	}
	for _, want := range []string{
		"ref: 4 pass, 0 non-strict, 0 fail, 1 info, 0 unsupported",
		"  coverage: static entries ",
		"first failure: broken huffman-zero-padding enc/5.2/1",
		"wire (",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
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
	{ID: "enc/4.2/1", Section: "4.2", Title: "a lower setting is signalled by a size update in the next block", RFC: "§4.2: a change in the maximum size MUST be signalled.", Violation: certify.Fail},
	{ID: "enc/5.2/1", Section: "5.2", Title: "Huffman padding is fewer than 8 bits of EOS", RFC: "§5.2: padding longer than 7 bits MUST be treated as an error.", Violation: certify.Fail},
	{ID: "enc/5.2/2", Section: "5.2", Title: "Huffman is used only when it is shorter", RFC: "§5.2: an efficiency rule.", Violation: certify.NonStrict},
	{ID: "enc/7.3/1", Section: "7.3", Title: "amplification: decoded octets per wire octet", RFC: "a measurement.", Violation: certify.Info},
}

// hostileReport builds a report of three encoders: ref and x/net pass,
// and between them one named payload fails, fails as expected, breaks a
// SHOULD and is unsupported, with payload in every detail, reproduction
// and stderr, and in the traffic source and a stale expectation.
func hostileReport(payload string) *certify.Report {
	pass := func() map[string]*certify.Result {
		out := map[string]*certify.Result{}
		for _, c := range hostileCases {
			out[c.ID] = &certify.Result{Grade: certify.Pass, Detail: "ok", Duration: time.Millisecond}
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
				"enc/4.2/1": {Grade: certify.Fail, Detail: "story s, block 0: encoder error: " + payload,
					Repro:  "story s, block 0: " + payload + "\nreproduce: a fresh encoder, then\n  block 0: 1 field\n    \"a\": " + payload + "\nencoder error: " + payload + "\n",
					Stderr: payload, Duration: time.Millisecond},
				"enc/5.2/1": {Grade: certify.Fail, Expected: true, Detail: payload, Repro: payload},
				"enc/5.2/2": {Grade: certify.NonStrict, Detail: payload, Stderr: payload},
				"enc/7.3/1": {Grade: certify.Unsupported, Detail: payload},
			},
			"x/net": pass(),
		},
		TrafficSource:     "stories from " + payload,
		StaleExpectations: []string{payload},
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

// TestWriteTextHostile checks that the text report shows no control
// character nor invalid UTF-8, and that every line at the left margin is
// one of the report's own: the header, one row per case, one summary per
// encoder (the hostile name Go-quoted), and its fixed headings.
func TestWriteTextHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := rep.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if bad, ok := badRune(text, "\n\t"); ok {
			t.Errorf("text report holds %s:\n%s", bad, text)
		}
		names := []string{"ref", strconv.Quote(payload), "x/net"}
		summaries := make([]int, len(names))
		rows := map[string]int{}
		cell := regexp.MustCompile(` {2,}`)
	lines:
		for n, line := range strings.Split(text, "\n") {
			if line == "" || line[0] == ' ' {
				continue
			}
			if n == 0 && strings.HasPrefix(line, "case ") {
				continue
			}
			for _, c := range rep.Cases {
				if strings.HasPrefix(line, c.ID+" ") {
					rows[c.ID]++
					want := []string{c.ID, "pass", "fail", "pass", c.Title}
					switch c.ID {
					case "enc/5.2/1":
						want[2] = "fail (expected)"
					case "enc/5.2/2":
						want[2] = "non-strict"
					case "enc/7.3/1":
						want = []string{c.ID, "info", "unsupported", "info", c.Title}
					}
					if got := cell.Split(line, -1); !slices.Equal(got, want) {
						t.Errorf("row %q has cells %q; want %q", line, got, want)
					}
					continue lines
				}
			}
			for i, name := range names {
				if strings.HasPrefix(line, name+": ") {
					summaries[i]++
					continue lines
				}
			}
			for _, own := range []string{"traffic stories: ", "expected failure ", "first failure: ", "details:", "encoder stderr:"} {
				if strings.HasPrefix(line, own) {
					continue lines
				}
			}
			t.Errorf("line %d starts at the left margin and is not the report's: %q", n+1, line)
		}
		for _, c := range rep.Cases {
			if rows[c.ID] != 1 {
				t.Errorf("%d rows for %s; want 1", rows[c.ID], c.ID)
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
// table has a header, a delimiter and a row per case, each with a cell per
// encoder; names in cells and list items have every punctuation character
// escaped; the <summary> holds no markup but <code>; there is a <details>
// per case not passed.
func TestWriteMarkdownHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := rep.WriteMarkdown(&buf); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		if bad, ok := badRune(md, "\n\t"); ok {
			t.Errorf("Markdown report holds %s", bad)
		}
		width := 2 + len(rep.Encoders)
		grades := []string{"pass", "**fail**", "*non-strict*", "fail (expected)", "info", "unsupported"}
		var rows, items, opened, closed, fences int
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
			case line == "## hpackcert" && n == 0:
			case strings.HasPrefix(line, "```"):
				if strings.Trim(line, "`") != "" {
					t.Errorf("%s: a fence with an info string", where)
				}
				fence = line
				fences++
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
						if c, ok := mdBare(name); ok {
							t.Errorf("%s: encoder name %q has a bare %q", where, name, c)
						}
					}
				case rows == 2:
					if line != "|---|---|"+strings.Repeat("---|", len(rep.Encoders)) {
						t.Errorf("%s: not the delimiter row", where)
					}
				case rows-3 < len(rep.Cases):
					if want := "`" + rep.Cases[rows-3].ID + "`"; cells[0] != want {
						t.Errorf("%s: first cell %q; want %q", where, cells[0], want)
					}
					if c, ok := mdBare(cells[1]); ok {
						t.Errorf("%s: title %q has a bare %q", where, cells[1], c)
					}
					for _, g := range cells[2:] {
						if !slices.Contains(grades, g) {
							t.Errorf("%s: cell %q is not a grade", where, g)
						}
					}
				default:
					t.Errorf("%s: a table row beyond the cases", where)
				}
			case strings.HasPrefix(line, "- **"):
				items++
				name, _, ok := strings.Cut(strings.TrimPrefix(line, "- **"), "**: ")
				if !ok {
					t.Errorf("%s: not a summary item", where)
				} else if c, ok := mdBare(name); ok {
					t.Errorf("%s: encoder name %q has a bare %q", where, name, c)
				}
			case strings.HasPrefix(line, "<details><summary>") && strings.HasSuffix(line, "</summary>") && opened == closed:
				opened++
				inner := strings.TrimSuffix(strings.TrimPrefix(line, "<details><summary>"), "</summary>")
				inner = strings.Replace(strings.Replace(inner, "<code>", "", 1), "</code>", "", 1)
				if strings.ContainsAny(inner, "<>") {
					t.Errorf("%s: markup in the summary", where)
				}
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
		if opened != notPassed || closed != notPassed {
			t.Errorf("%d <details> opened, %d closed; want %d", opened, closed, notPassed)
		}
		// A code block for each <details>, and one more for each stderr.
		if want := notPassed + 2; fences != want {
			t.Errorf("%d code blocks; want %d", fences, want)
		}
		if want := 2 + len(rep.Cases); rows != want {
			t.Errorf("%d table rows; want %d", rows, want)
		}
		if items != len(rep.Encoders) {
			t.Errorf("%d summary items; want %d", items, len(rep.Encoders))
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
		if err := rep.WriteJUnit(&buf); err != nil {
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
			wantFailures, wantSkipped := 0, 0
			if i == 1 {
				wantFailures, wantSkipped = 1, 2 // the failure; the expected failure and the unsupported case
			}
			if len(s.Cases) != len(rep.Cases) || failures != wantFailures || s.Failures != wantFailures || skipped != wantSkipped || s.Skipped != wantSkipped {
				t.Errorf("testsuite %d: %d testcases, %d <failure> (failures=%d), %d <skipped> (skipped=%d); want %d, %d, %d",
					i, len(s.Cases), failures, s.Failures, skipped, s.Skipped, len(rep.Cases), wantFailures, wantSkipped)
			}
		}
		if doc.Suites[0].Name != "ref" || doc.Suites[2].Name != "x/net" {
			t.Errorf("testsuites named %q, %q; want ref and x/net around the hostile one", doc.Suites[0].Name, doc.Suites[2].Name)
		}
	})
}

// TestWriteHTMLHostile parses the HTML report with x/net/html and checks
// that it holds only the template's elements (no <script>, no <img>), a
// row per case and a header cell per encoder, that ids are unique and
// every link's target exists, and that the page is graphic UTF-8.
func TestWriteHTMLHostile(t *testing.T) {
	own := []string{"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "table", "tr", "th", "td", "a", "code", "ul", "li", "b", "i", "section", "pre"}
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := rep.WriteHTML(&buf); err != nil {
			t.Fatal(err)
		}
		if bad, ok := badRune(buf.String(), "\n\t"); ok {
			t.Errorf("HTML report holds %s", bad)
		}
		ids := map[string]int{}
		var links []string
		count := map[string]int{}
		z := html.NewTokenizer(bytes.NewReader(buf.Bytes()))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			tok := z.Token()
			count[tok.Data]++
			if !slices.Contains(own, tok.Data) {
				t.Errorf("element <%s> is not the template's", tok.Data)
			}
			for _, a := range tok.Attr {
				switch {
				case a.Key == "id":
					ids[a.Val]++
				case a.Key == "href" && tok.Data == "a":
					links = append(links, a.Val)
				case a.Key == "class" || a.Key == "lang" || a.Key == "charset":
				default:
					t.Errorf("attribute %s=%q on <%s> is not the template's", a.Key, a.Val, tok.Data)
				}
			}
		}
		if err := z.Err(); err != io.EOF {
			t.Fatalf("HTML report does not tokenize: %v", err)
		}
		for id, n := range ids {
			if n != 1 {
				t.Errorf("id %q used %d times", id, n)
			}
		}
		if want := len(rep.Cases) * len(rep.Encoders); len(links) != want || len(ids) != want {
			t.Errorf("%d links, %d ids; want %d each (cases x encoders)", len(links), len(ids), want)
		}
		for _, l := range links {
			if id, ok := strings.CutPrefix(l, "#"); !ok || ids[id] != 1 {
				t.Errorf("link %q has no target", l)
			}
		}
		if count["tr"] != 1+len(rep.Cases) || count["th"] != 2+len(rep.Encoders) || count["li"] != len(rep.Encoders) {
			t.Errorf("%d <tr>, %d <th>, %d <li>; want %d, %d, %d", count["tr"], count["th"], count["li"], 1+len(rep.Cases), 2+len(rep.Encoders), len(rep.Encoders))
		}
		if t.Failed() {
			t.Logf("HTML report:\n%s", buf.Bytes())
		}
	})
}

// TestWriteJSONHostile checks that the JSON report parses, keeps each
// encoder under its own key, and carries what the encoder wrote without
// loss: exactly when it is valid UTF-8, else with no U+FFFD and each
// invalid octet written \xNN.
func TestWriteJSONHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Traffic  string `json:"traffic"`
			Encoders map[string]struct {
				Cases map[string]struct {
					Detail string `json:"detail"`
					Repro  string `json:"repro"`
					Stderr string `json:"stderr"`
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
		res := rep.Results[payload]["enc/4.2/1"]
		got := doc.Encoders[key].Cases["enc/4.2/1"]
		want("detail", got.Detail, res.Detail)
		want("repro", got.Repro, res.Repro)
		want("stderr", got.Stderr, res.Stderr)
		want("traffic", doc.Traffic, rep.TrafficSource)
		if len(doc.Stale) != 1 {
			t.Fatalf("stale expectations %q; want one", doc.Stale)
		}
		want("stale expectation", doc.Stale[0], payload)
	})
}
