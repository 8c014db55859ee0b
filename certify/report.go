package certify

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Report holds the grades of a run: every selected case for every encoder.
type Report struct {
	// Encoders are the names of the targets, in the order they ran.
	Encoders []string
	// Cases are the cases that ran, sorted by id.
	Cases []Case
	// Results maps an encoder name and a case id to the result.
	Results map[string]map[string]*Result
	// Coverage maps an encoder name to what its wire exercised of RFC
	// 7541 in the scenarios that ran.
	Coverage map[string]*Coverage
	// Strict is set when non-strict grades were turned into failures.
	Strict bool
	// TrafficSource says where the traffic stories came from.
	TrafficSource string
	// StaleExpectations are the entries of Options.ExpectFail that matched
	// no failure: the encoder got better, and the list can shrink.
	StaleExpectations []string
	// Version is the hpackcert build that wrote the report (Version()),
	// and Catalogue the version of the case catalogue (CatalogueVersion()).
	Version, Catalogue string
	// Targets describes each encoder, by name: how it was driven and
	// what it said of itself.
	Targets map[string]TargetInfo
	// Started is when the run began, Elapsed how long it took.
	Started time.Time
	Elapsed time.Duration
}

// TargetInfo describes one encoder of a run.
type TargetInfo struct {
	// Kind is how the encoder was driven: "in-process", "stdio" or
	// "recorded".
	Kind string
	// Reported is the name (and version) the encoder gave for itself, the
	// answer to hello for a stdio encoder; for others, Target.Name.
	Reported string
	// Binary is set for a stdio encoder that offered the binary form.
	Binary bool
	// Elapsed is how long its cases took.
	Elapsed time.Duration
}

// Failed reports whether a case failed for some encoder without the
// failure being expected: the run's exit status is 1.
func (r *Report) Failed() bool {
	for _, enc := range r.Encoders {
		for _, res := range r.Results[enc] {
			if res.Grade == Fail && !res.Expected {
				return true
			}
		}
	}
	return false
}

// Counts returns how many cases got each grade for an encoder.
func (r *Report) Counts(encoder string) map[Grade]int {
	out := map[Grade]int{}
	for _, res := range r.Results[encoder] {
		out[res.Grade]++
	}
	return out
}

func (r *Report) summary(encoder string) string {
	n := r.Counts(encoder)
	expected := 0
	for _, res := range r.Results[encoder] {
		if res.Expected {
			expected++
		}
	}
	s := fmt.Sprintf("%d pass, %d non-strict, %d fail, %d info, %d unsupported", n[Pass], n[NonStrict], n[Fail], n[Info], n[Unsupported])
	if expected > 0 {
		s += fmt.Sprintf(" (%d failures expected)", expected)
	}
	return s
}

// cell is how a grade reads in a matrix.
func (res *Result) cell() string {
	if res.Expected {
		return "fail (expected)"
	}
	return res.Grade.String()
}

// The ranks order the results in every report, most urgent first: what
// fails the run, what was known to fail, what breaks a SHOULD, what could
// not be judged, what was measured, what passed.
const (
	rankFail = iota
	rankExpected
	rankNonStrict
	rankUnsupported
	rankInfo
	rankPass
	ranks
)

func (res *Result) rank() int {
	switch {
	case res.Grade == Fail && res.Expected:
		return rankExpected
	case res.Grade == Fail:
		return rankFail
	case res.Grade == NonStrict:
		return rankNonStrict
	case res.Grade == Unsupported:
		return rankUnsupported
	case res.Grade == Info:
		return rankInfo
	}
	return rankPass
}

// entry is the result of a case for an encoder, the encoder given by its
// position in Report.Encoders.
type entry struct {
	enc int
	c   Case
	res *Result
}

// ranked returns the results by rank, each rank in encoder order, then in
// case order: the failures of one encoder read together.
func (r *Report) ranked() [ranks][]entry {
	var out [ranks][]entry
	for i, enc := range r.Encoders {
		for _, c := range r.Cases {
			if res := r.Results[enc][c.ID]; res != nil {
				out[res.rank()] = append(out[res.rank()], entry{i, c, res})
			}
		}
	}
	return out
}

// firstFailure returns the first failure of the ranked results, an
// unexpected one when there is one.
func firstFailure(ranked *[ranks][]entry) (entry, bool) {
	for _, k := range []int{rankFail, rankExpected} {
		if len(ranked[k]) > 0 {
			return ranked[k][0], true
		}
	}
	return entry{}, false
}

// verdict sums the run up: PASS or FAIL, as the exit status says, and how
// many results call for a look.
func (r *Report) verdict(ranked *[ranks][]entry) (word, text string) {
	word, text = "PASS", "no failure"
	if n := len(ranked[rankFail]); n > 0 {
		failing := map[int]bool{}
		for _, e := range ranked[rankFail] {
			failing[e.enc] = true
		}
		word, text = "FAIL", fmt.Sprintf("%s in %d of %d encoders", counted(n, "failure", "failures"), len(failing), len(r.Encoders))
	}
	var also []string
	for _, k := range []struct {
		rank      int
		one, many string
	}{
		{rankExpected, "expected failure", "expected failures"},
		{rankNonStrict, "non-strict", "non-strict"},
		{rankUnsupported, "unsupported", "unsupported"},
	} {
		if n := len(ranked[k.rank]); n > 0 {
			also = append(also, counted(n, k.one, k.many))
		}
	}
	if len(also) > 0 {
		text += "; " + strings.Join(also, ", ")
	}
	return word, text
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// rule is the RFC text a case checks, citing RFC 7541 once: the texts
// start with the section they quote (not always the case's own), or name
// an appendix.
func rule(c Case) string {
	if strings.HasPrefix(c.RFC, "§") || strings.HasPrefix(c.RFC, "Appendix ") {
		return "RFC 7541 " + c.RFC
	}
	return "RFC 7541 §" + c.Section + ": " + c.RFC
}

// runLine says which build and catalogue graded the run, and when; empty
// for a report that was not made by Run.
func (r *Report) runLine() string {
	if r.Version == "" {
		return ""
	}
	s := fmt.Sprintf("hpackcert %s; catalogue %s", r.Version, r.Catalogue)
	if !r.Started.IsZero() {
		s += fmt.Sprintf("; started %s, took %s", r.Started.Format(time.RFC3339), r.Elapsed.Round(time.Millisecond))
	}
	return s
}

// WriteText writes the terminal report, most urgent first: the verdict
// and the first failure; a summary per encoder with its coverage; every
// failure, then every non-strict result, in full (the RFC text, the
// detail, the reproduction, the encoder's stderr); the matrix, one line
// per case with a column per encoder; and a line for each result graded
// unsupported or info.
//
// What the encoder controls cannot act on the terminal nor pass for the
// report's own lines: an encoder's name is Go-quoted unless it is plain
// (see textName); details, reproductions and stderr show control
// characters and invalid UTF-8 as escapes (see visible), and each of
// their lines is indented.
func (r *Report) WriteText(w io.Writer) error {
	names := make([]string, len(r.Encoders))
	for i, enc := range r.Encoders {
		names[i] = textName(enc)
	}
	ranked := r.ranked()
	word, text := r.verdict(&ranked)
	fmt.Fprintf(w, "verdict: %s: %s\n", word, text)
	if e, ok := firstFailure(&ranked); ok {
		fmt.Fprintf(w, "first failure: %s %s (%s)\n", names[e.enc], e.c.ID, e.c.Title)
	}
	for i, enc := range r.Encoders {
		fmt.Fprintf(w, "%s: %s\n", names[i], r.summary(enc))
		if cov := r.Coverage[enc]; cov != nil {
			fmt.Fprintf(w, "  coverage: %s\n", cov)
		}
	}
	strict := ""
	if r.Strict {
		strict = " (--strict: non-strict counts as fail)"
	}
	fmt.Fprintf(w, "traffic stories: %s%s\n", visibleLine(r.TrafficSource), strict)
	if line := r.runLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	for _, e := range r.StaleExpectations {
		fmt.Fprintf(w, "expected failure %q did not fail: remove it from the list\n", e)
	}
	for _, s := range []struct {
		heading string
		entries []entry
	}{
		{"failures:", slices.Concat(ranked[rankFail], ranked[rankExpected])},
		{"non-strict:", ranked[rankNonStrict]},
	} {
		if len(s.entries) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", s.heading)
		for _, e := range s.entries {
			writeTextEntry(w, names[e.enc], e)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "case\t%s\ttitle\n", strings.Join(names, "\t"))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = r.Results[enc][c.ID].cell()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, strings.Join(cells, "\t"), c.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rest := slices.Concat(ranked[rankUnsupported], ranked[rankInfo]); len(rest) > 0 {
		fmt.Fprintf(w, "\ndetails:\n")
		for _, e := range rest {
			lines := visibleLines(e.res.Detail)
			fmt.Fprintf(w, "  %s %s %s: %s\n", names[e.enc], e.c.ID, e.res.cell(), lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeTextEntry writes a result in full: a line with the encoder's name,
// the case and its title, then, indented, the rule, the detail, the
// reproduction and the encoder's stderr. A reproduction starts with the
// detail, most of the time: the detail is then not written twice.
func writeTextEntry(w io.Writer, name string, e entry) {
	fmt.Fprintf(w, "  %s %s %s: %s\n", name, e.c.ID, e.res.cell(), e.c.Title)
	writeIndented(w, "    ", rule(e.c))
	if !strings.HasPrefix(e.res.Repro, e.res.Detail+"\n") {
		writeIndented(w, "    ", e.res.Detail)
	}
	if e.res.Repro != "" {
		writeIndented(w, "    ", e.res.Repro)
	}
	if e.res.Stderr != "" {
		fmt.Fprintln(w, "    encoder stderr:")
		writeIndented(w, "      ", e.res.Stderr)
	}
}

type jsonResult struct {
	Grade    Grade   `json:"grade"`
	Detail   string  `json:"detail"`
	Duration float64 `json:"duration"` // seconds
	Repro    string  `json:"repro,omitempty"`
	Expected bool    `json:"expected_failure,omitempty"`
	Stderr   string  `json:"stderr,omitempty"`
}

type jsonEncoder struct {
	Kind     string                `json:"kind"`
	Reported string                `json:"reported"`
	Binary   bool                  `json:"binary"`
	Elapsed  float64               `json:"elapsed_seconds"`
	Summary  map[string]int        `json:"summary"`
	Coverage *Coverage             `json:"coverage,omitempty"`
	Cases    map[string]jsonResult `json:"cases"`
}

type jsonReport struct {
	Version           string                 `json:"version"`
	Catalogue         string                 `json:"catalogue"`
	Started           string                 `json:"started,omitempty"`
	Elapsed           float64                `json:"elapsed_seconds"`
	Failed            bool                   `json:"failed"`
	Traffic           string                 `json:"traffic"`
	Strict            bool                   `json:"strict"`
	Encoders          map[string]jsonEncoder `json:"encoders"`
	StaleExpectations []string               `json:"stale_expectations,omitempty"`
}

// WriteJSON writes the report as one object, for dashboards that compare
// runs: "version" (the hpackcert build) and "catalogue" (the case
// catalogue's count and digest) tell whether two reports graded with the
// same cases; "started" (RFC 3339) and "elapsed_seconds" date the run;
// "failed" is the verdict (exit status 1); "traffic" says where the
// traffic stories came from; "strict"; and "encoders" maps each encoder's
// name to its "kind" ("in-process", "stdio" or "recorded"), "reported"
// (the name it gave itself), "binary" (whether it offered hpack-stdio's
// binary form), "elapsed_seconds", "summary" (cases per grade, every grade
// present), "coverage" (see Coverage) and "cases", each case id mapped to
// {grade, detail, duration in seconds, repro, expected_failure, stderr}.
// "stale_expectations" lists the expected failures that did not fail.
//
// Strings are kept as they are, control characters included (JSON escapes
// them), except that an octet which is not part of valid UTF-8, in an
// encoder's name or in what it wrote, reads \xNN (see jsonText).
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{
		Version:   r.Version,
		Catalogue: r.Catalogue,
		Elapsed:   r.Elapsed.Seconds(),
		Failed:    r.Failed(),
		Traffic:   jsonText(r.TrafficSource),
		Strict:    r.Strict,
		Encoders:  map[string]jsonEncoder{},
	}
	if !r.Started.IsZero() {
		out.Started = r.Started.Format(time.RFC3339)
	}
	for _, e := range r.StaleExpectations {
		out.StaleExpectations = append(out.StaleExpectations, jsonText(e))
	}
	for _, enc := range r.Encoders {
		info := r.Targets[enc]
		je := jsonEncoder{
			Kind:     info.Kind,
			Reported: jsonText(info.Reported),
			Binary:   info.Binary,
			Elapsed:  info.Elapsed.Seconds(),
			Summary:  map[string]int{},
			Coverage: r.Coverage[enc],
			Cases:    map[string]jsonResult{},
		}
		for id, res := range r.Results[enc] {
			je.Cases[id] = jsonResult{res.Grade, jsonText(res.Detail), res.Duration.Seconds(), jsonText(res.Repro), res.Expected, jsonText(res.Stderr)}
		}
		for _, g := range gradeNames {
			je.Summary[g] = 0
		}
		for g, n := range r.Counts(enc) {
			je.Summary[g.String()] = n
		}
		out.Encoders[jsonText(enc)] = je
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// The JUnit XML schema as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes JUnit XML: a testsuite per encoder, a testcase per
// case with name (the case id) and classname ("hpackcert." and the
// encoder). A failure is a <failure> carrying the reproduction;
// unsupported cases and expected failures are <skipped>; the detail of
// every other grade goes to <system-out>.
//
// XML 1.0 has no escape for most control characters, and encoding/xml
// writes U+FFFD for them and for invalid UTF-8; so what the encoder
// controls is escaped as visible says first: names and messages on one
// line, the text of an element line by line.
func (r *Report) WriteJUnit(w io.Writer) error {
	all := junitSuites{Name: "hpackcert"}
	for _, enc := range r.Encoders {
		name := visibleLine(enc)
		s := junitSuite{Name: name}
		var total time.Duration
		for _, c := range r.Cases {
			res := r.Results[enc][c.ID]
			total += res.Duration
			tc := junitCase{Name: c.ID + " " + c.Title, Classname: "hpackcert." + name, Time: seconds(res.Duration)}
			detail := visibleLine(res.Detail)
			text := res.Detail
			if res.Repro != "" {
				text += "\n" + res.Repro
			}
			if res.Stderr != "" {
				text += "\nencoder stderr:\n" + res.Stderr
			}
			text = visibleText(text)
			switch {
			case res.Grade == Fail && res.Expected:
				tc.Skipped = &junitMessage{Message: "expected failure: " + detail, Text: text}
				s.Skipped++
			case res.Grade == Fail:
				tc.Failure = &junitMessage{Message: detail, Type: "fail", Text: text}
				s.Failures++
			case res.Grade == Unsupported:
				tc.Skipped = &junitMessage{Message: "unsupported: " + detail}
				s.Skipped++
			default:
				tc.SystemOut = res.Grade.String() + ": " + text
			}
			s.Cases = append(s.Cases, tc)
		}
		s.Tests = len(s.Cases)
		s.Time = seconds(total)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Skipped += s.Skipped
		all.Suites = append(all.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteMarkdown writes the report for CI step summaries, most urgent
// first: a heading with the verdict, the first failure and a summary per
// encoder; every failure, then every non-strict result, each an open
// <details> element with the rule, the reproduction (or the detail) and
// the encoder's stderr in code blocks; the matrix; and the results graded
// unsupported or info, each a closed <details>.
//
// What the encoder controls stays text: its name in the table and the list
// goes through mdText, which escapes every ASCII punctuation character and
// keeps it on one line; names and details in a <summary> are HTML-escaped
// on one line; reproductions and stderr sit in code blocks whose fence is
// longer than any run of backticks they hold (see writeMarkdownCode).
func (r *Report) WriteMarkdown(w io.Writer) error {
	names := make([]string, len(r.Encoders))
	for i, enc := range r.Encoders {
		names[i] = mdText(enc)
	}
	ranked := r.ranked()
	word, text := r.verdict(&ranked)
	fmt.Fprintf(w, "## hpackcert: %s\n\n%s", word, text)
	if e, ok := firstFailure(&ranked); ok {
		fmt.Fprintf(w, "; first failure: **%s** `%s` (%s)", names[e.enc], e.c.ID, mdText(e.c.Title))
	}
	fmt.Fprint(w, ".\n\n")
	for i, enc := range r.Encoders {
		fmt.Fprintf(w, "- **%s**: %s", names[i], r.summary(enc))
		if cov := r.Coverage[enc]; cov != nil {
			fmt.Fprintf(w, "; coverage: %s", cov)
		}
		fmt.Fprintln(w)
	}
	strict := ""
	if r.Strict {
		strict = " Strict: non-strict counts as fail."
	}
	fmt.Fprintf(w, "\nTraffic stories: %s.%s\n", mdText(r.TrafficSource), strict)
	if line := r.runLine(); line != "" {
		fmt.Fprintf(w, "\n%s\n", mdText(line))
	}
	for _, e := range r.StaleExpectations {
		fmt.Fprintf(w, "\nExpected failure %s did not fail: remove it from the list.\n", mdText(e))
	}
	for _, s := range []struct {
		heading string
		entries []entry
	}{
		{"Failures", slices.Concat(ranked[rankFail], ranked[rankExpected])},
		{"Non-strict", ranked[rankNonStrict]},
	} {
		if len(s.entries) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n### %s\n", s.heading)
		for _, e := range s.entries {
			r.writeMarkdownEntry(w, e, true)
		}
	}
	fmt.Fprintf(w, "\n### Matrix\n\n| case | title | %s |\n|---|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(r.Encoders)))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = mdGrade(r.Results[enc][c.ID])
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", c.ID, mdText(c.Title), strings.Join(cells, " | "))
	}
	if rest := slices.Concat(ranked[rankUnsupported], ranked[rankInfo]); len(rest) > 0 {
		fmt.Fprint(w, "\n### Unsupported and info\n")
		for _, e := range rest {
			r.writeMarkdownEntry(w, e, false)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeMarkdownEntry writes a result as a <details> element: a summary
// line with the encoder, the case, the grade and the detail; the case's
// title and rule; the reproduction, or the detail when there is none; and
// the encoder's stderr.
func (r *Report) writeMarkdownEntry(w io.Writer, e entry, open bool) {
	attr := ""
	if open {
		attr = " open"
	}
	fmt.Fprintf(w, "\n<details%s><summary>%s <code>%s</code> %s: %s</summary>\n\n", attr, htmlLine(r.Encoders[e.enc]), e.c.ID, e.res.cell(), htmlLine(e.res.Detail))
	fmt.Fprintf(w, "**%s**: %s\n\n", mdText(e.c.Title), mdText(rule(e.c)))
	if e.res.Repro != "" {
		writeMarkdownCode(w, e.res.Repro)
	} else {
		writeMarkdownCode(w, e.res.Detail)
	}
	if e.res.Stderr != "" {
		fmt.Fprint(w, "\nencoder stderr:\n\n")
		writeMarkdownCode(w, e.res.Stderr)
	}
	fmt.Fprintln(w, "</details>")
}

func mdGrade(res *Result) string {
	switch {
	case res.Expected:
		return "fail (expected)"
	case res.Grade == Fail:
		return "**fail**"
	case res.Grade == NonStrict:
		return "*non-strict*"
	}
	return res.Grade.String()
}

// htmlStyle is the report's style sheet, the page's only resource.
const htmlStyle = `
body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th,td.k{white-space:nowrap}td.n{text-align:right}td.g a{display:block;text-decoration:none;color:#000}
.pass{background:#cfc}.non-strict{background:#ffc}.fail{background:#f99}.info{background:#def}.unsupported{background:#eee}.expected{background:#fdb}
h1 span{padding:0 .3em}p.verdict{font-size:1.2em}
section{border-left:.4em solid #ccc;padding-left:.8em;margin:1em 0}
section.fail,section.pass,section.non-strict,section.info,section.unsupported,section.expected{background:none}
section.fail{border-color:#c00}section.non-strict{border-color:#cc0}section.expected{border-color:#e90}section.pass{border-color:#6c6}
details>summary{cursor:pointer;margin:.5em 0}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto}
`

// htmlReport is the page. Its Content Security Policy allows nothing but
// htmlStyle (by its digest): should an encoder's string ever get past the
// escaping as markup, a browser would neither run nor load it, and would
// log the violation, which ci/render-report.sh fails on.
var htmlReport = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '` + cspHash(htmlStyle) + `'">
<title>hpackcert: {{.Verdict}}</title>
<style>` + htmlStyle + `</style></head><body>
<h1>hpackcert: <span class="{{.VerdictClass}}">{{.Verdict}}</span></h1>
<p class="verdict">{{.VerdictText}}{{with .First}}; first failure: <a href="#{{.Anchor}}">{{.Encoder}} <code>{{.Case.ID}}</code></a> ({{.Case.Title}}){{end}}.</p>
<table class="summary"><tr><th>encoder</th><th>driven</th><th>fail</th><th>non-strict</th><th>unsupported</th><th>info</th><th>pass</th><th>coverage</th><th>time</th></tr>
{{range .Summaries}}<tr><td>{{.Encoder}}{{if .Reported}}<br>reports itself as <code>{{.Reported}}</code>{{end}}</td><td class="k">{{.Kind}}{{if .Binary}}, binary form{{end}}</td>
<td class="n{{if .Fail}} fail{{end}}">{{.Fail}}{{if .Expected}} (+{{.Expected}} expected){{end}}</td><td class="n{{if .NonStrict}} non-strict{{end}}">{{.NonStrict}}</td><td class="n">{{.Unsupported}}</td><td class="n">{{.Info}}</td><td class="n">{{.Pass}}</td><td>{{.Coverage}}</td><td class="k">{{.Elapsed}}</td></tr>
{{end}}</table>
<p>Traffic stories: {{.Traffic}}.{{if .Strict}} Strict: non-strict counts as fail.{{end}}</p>
{{with .Run}}<p>{{.}}</p>
{{end}}{{range .Stale}}<p>Expected failure <code>{{.}}</code> did not fail: remove it from the list.</p>
{{end}}{{with .Failures}}<h2>Failures</h2>
{{range .}}{{template "section" .}}{{end}}{{end}}{{with .NonStrict}}<h2>Non-strict</h2>
{{range .}}{{template "section" .}}{{end}}{{end}}<h2>Matrix</h2>
<table><tr><th>case</th><th>title</th>{{range .Encoders}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td><code>{{.Case.ID}}</code></td><td>{{.Case.Title}}</td>{{range .Cells}}<td class="g {{.Class}}"><a href="#{{.Anchor}}">{{.Label}}</a></td>{{end}}</tr>
{{end}}</table>
{{with .Unsupported}}<h2>Unsupported</h2>
{{range .}}{{template "section" .}}{{end}}{{end}}{{with .Info}}<h2>Measurements</h2>
<details><summary>{{len .}} results graded info</summary>
{{range .}}{{template "section" .}}{{end}}</details>
{{end}}{{with .Passes}}<h2>Passes</h2>
<details><summary>{{len .}} results graded pass</summary>
{{range .}}{{template "section" .}}{{end}}</details>
{{end}}</body></html>
{{define "section"}}<section id="{{.Anchor}}" class="{{.Class}}"><h3>{{.Encoder}} — <code>{{.Case.ID}}</code> {{.Case.Title}}: {{.Label}}</h3>
<p><i>{{.Rule}}</i></p><p>{{.Detail}}{{if .Duration}} ({{.Duration}}){{end}}</p>
{{if .Repro}}<pre>{{.Repro}}</pre>{{end}}{{if .Stderr}}<p>encoder stderr:</p><pre>{{.Stderr}}</pre>{{end}}</section>
{{end}}`))

// cspHash returns the Content Security Policy source that allows an
// inline element with the given text: its SHA-256 digest in base64.
func cspHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// htmlCell is a result in the HTML report: a cell of the matrix and the
// section it links to. The strings the encoder controls are escaped as
// visible says: html/template escapes HTML, not control characters nor
// invalid UTF-8.
type htmlCell struct {
	Case                          Case
	Encoder, Anchor, Class, Label string
	Rule, Detail, Repro, Stderr   string
	Duration                      time.Duration
}

// htmlSummary is an encoder's row in the summary table.
type htmlSummary struct {
	Encoder, Reported, Kind                string
	Binary                                 bool
	Fail, Expected, NonStrict, Unsupported int
	Info, Pass                             int
	Coverage                               string
	Elapsed                                time.Duration
}

// WriteHTML writes a page that shows the verdict first: a heading with
// it, the first failure and a summary table, one row per encoder; then a
// section for every failure and every non-strict result; then the matrix,
// encoders as columns and cases as rows; then the sections of the results
// graded unsupported, then info and pass, those two collapsed in <details>
// elements. Every cell of the matrix links to its result's section.
//
// Every string reaches the page through html/template's escaping, and an
// anchor is made of the encoder's position and the case id, never of the
// encoder's name, so anchors are unique and need no escaping.
func (r *Report) WriteHTML(w io.Writer) error {
	type row struct {
		Case  Case
		Cells []*htmlCell
	}
	ranked := r.ranked()
	data := struct {
		Verdict, VerdictClass, VerdictText string
		First                              *htmlCell
		Summaries                          []htmlSummary
		Traffic, Run                       string
		Strict                             bool
		Stale                              []string
		Encoders                           []string
		Rows                               []row
		Failures, NonStrict, Unsupported   []*htmlCell
		Info, Passes                       []*htmlCell
	}{Traffic: visibleLine(r.TrafficSource), Strict: r.Strict, Run: r.runLine()}
	data.Verdict, data.VerdictText = r.verdict(&ranked)
	data.VerdictClass = strings.ToLower(data.Verdict)
	for _, e := range r.StaleExpectations {
		data.Stale = append(data.Stale, visibleLine(e))
	}
	for _, enc := range r.Encoders {
		data.Encoders = append(data.Encoders, visibleLine(enc))
	}
	cells := make([]map[string]*htmlCell, len(r.Encoders))
	for i, enc := range r.Encoders {
		cells[i] = map[string]*htmlCell{}
		for _, c := range r.Cases {
			res := r.Results[enc][c.ID]
			class := res.Grade.String()
			if res.Expected {
				class = "expected"
			}
			cells[i][c.ID] = &htmlCell{
				Case:     c,
				Encoder:  data.Encoders[i],
				Anchor:   fmt.Sprintf("e%d-%s", i, strings.NewReplacer("/", "-", ".", "_").Replace(c.ID)),
				Class:    class,
				Label:    res.cell(),
				Rule:     rule(c),
				Detail:   visibleLine(res.Detail),
				Repro:    visibleText(res.Repro),
				Stderr:   visibleText(res.Stderr),
				Duration: res.Duration,
			}
		}
	}
	for _, c := range r.Cases {
		rw := row{Case: c}
		for i := range r.Encoders {
			rw.Cells = append(rw.Cells, cells[i][c.ID])
		}
		data.Rows = append(data.Rows, rw)
	}
	sections := func(ranks ...int) []*htmlCell {
		var out []*htmlCell
		for _, k := range ranks {
			for _, e := range ranked[k] {
				out = append(out, cells[e.enc][e.c.ID])
			}
		}
		return out
	}
	data.Failures = sections(rankFail, rankExpected)
	data.NonStrict = sections(rankNonStrict)
	data.Unsupported = sections(rankUnsupported)
	data.Info = sections(rankInfo)
	data.Passes = sections(rankPass)
	if e, ok := firstFailure(&ranked); ok {
		data.First = cells[e.enc][e.c.ID]
	}
	for i, enc := range r.Encoders {
		info := r.Targets[enc]
		n := r.Counts(enc)
		s := htmlSummary{
			Encoder:     data.Encoders[i],
			Kind:        info.Kind,
			Binary:      info.Binary,
			NonStrict:   n[NonStrict],
			Unsupported: n[Unsupported],
			Info:        n[Info],
			Pass:        n[Pass],
			Elapsed:     info.Elapsed.Round(time.Millisecond),
		}
		for _, res := range r.Results[enc] {
			switch res.rank() {
			case rankFail:
				s.Fail++
			case rankExpected:
				s.Expected++
			}
		}
		if reported := visibleLine(info.Reported); reported != s.Encoder {
			s.Reported = reported
		}
		if cov := r.Coverage[enc]; cov != nil {
			s.Coverage = cov.String()
		}
		data.Summaries = append(data.Summaries, s)
	}
	return htmlReport.Execute(w, data)
}
