package certify

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
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
	Kind string `json:"kind"`
	// Reported is the name (and version) the encoder gave for itself, the
	// answer to hello for a stdio encoder; for others, Target.Name.
	Reported string `json:"reported"`
	// Binary is set for a stdio encoder that offered the binary form.
	Binary bool `json:"binary,omitempty"`
	// Elapsed is how long its cases took.
	Elapsed time.Duration `json:"-"`
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

// firstFailure returns the first failing result, in case order then
// encoder order, preferring unexpected failures.
func (r *Report) firstFailure() (string, Case, *Result) {
	for _, wantExpected := range []bool{false, true} {
		for _, c := range r.Cases {
			for _, enc := range r.Encoders {
				if res := r.Results[enc][c.ID]; res != nil && res.Grade == Fail && res.Expected == wantExpected {
					return enc, c, res
				}
			}
		}
	}
	return "", Case{}, nil
}

// WriteText writes the terminal report: one line per case with a column
// per encoder, a summary per encoder, the details of every case not
// graded pass, and the reproduction of the first failure.
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
	fmt.Fprintln(w)
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
	for _, e := range r.StaleExpectations {
		fmt.Fprintf(w, "expected failure %q did not fail: remove it from the list\n", e)
	}
	var details strings.Builder
	for _, c := range r.Cases {
		for i, enc := range r.Encoders {
			res := r.Results[enc][c.ID]
			if res.Grade == Pass {
				continue
			}
			lines := visibleLines(res.Detail)
			fmt.Fprintf(&details, "  %s %s %s: %s\n", names[i], c.ID, res.cell(), lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(&details, "    %s\n", l)
			}
		}
	}
	if details.Len() > 0 {
		fmt.Fprintf(w, "\ndetails:\n%s", details.String())
	}
	if enc, c, res := r.firstFailure(); res != nil {
		fmt.Fprintf(w, "\nfirst failure: %s %s (%s)\n  %s\n", textName(enc), c.ID, c.Title, c.RFC)
		if res.Repro != "" {
			writeIndented(w, "  ", res.Repro)
		} else {
			writeIndented(w, "  ", res.Detail)
		}
		if res.Stderr != "" {
			fmt.Fprintln(w, "encoder stderr:")
			writeIndented(w, "  ", res.Stderr)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
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
	Summary  map[string]int        `json:"summary"`
	Coverage *Coverage             `json:"coverage,omitempty"`
	Cases    map[string]jsonResult `json:"cases"`
}

type jsonReport struct {
	Traffic           string                 `json:"traffic"`
	Strict            bool                   `json:"strict"`
	Encoders          map[string]jsonEncoder `json:"encoders"`
	StaleExpectations []string               `json:"stale_expectations,omitempty"`
}

// WriteJSON writes the report as one object: "traffic" (where the traffic
// stories came from), "strict", and "encoders", which maps each encoder's
// name to its "summary" (cases per grade), its "coverage" (see Coverage)
// and its "cases", each case id mapped to {grade, detail, duration in
// seconds, repro, expected_failure, stderr}.
//
// Strings are kept as they are, control characters included (JSON escapes
// them), except that an octet which is not part of valid UTF-8, in an
// encoder's name or in what it wrote, reads \xNN (see jsonText).
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Traffic: jsonText(r.TrafficSource), Strict: r.Strict, Encoders: map[string]jsonEncoder{}}
	for _, e := range r.StaleExpectations {
		out.StaleExpectations = append(out.StaleExpectations, jsonText(e))
	}
	for _, enc := range r.Encoders {
		je := jsonEncoder{Summary: map[string]int{}, Coverage: r.Coverage[enc], Cases: map[string]jsonResult{}}
		for id, res := range r.Results[enc] {
			je.Cases[id] = jsonResult{res.Grade, jsonText(res.Detail), res.Duration.Seconds(), jsonText(res.Repro), res.Expected, jsonText(res.Stderr)}
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

// WriteMarkdown writes a Markdown matrix for CI step summaries, then the
// details of every case that did not pass, each in a <details> element
// with its reproduction (or detail) and the encoder's stderr in code
// blocks.
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
	fmt.Fprintf(w, "## hpackcert\n\n| case | title | %s |\n|---|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(r.Encoders)))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = mdGrade(r.Results[enc][c.ID])
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", c.ID, mdText(c.Title), strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
	for i, enc := range r.Encoders {
		fmt.Fprintf(w, "- **%s**: %s\n", names[i], r.summary(enc))
	}
	for _, c := range r.Cases {
		for _, enc := range r.Encoders {
			res := r.Results[enc][c.ID]
			if res.Grade == Pass {
				continue
			}
			fmt.Fprintf(w, "\n<details><summary>%s <code>%s</code> %s: %s</summary>\n\n", htmlLine(enc), c.ID, res.cell(), htmlLine(res.Detail))
			if res.Repro != "" {
				writeMarkdownCode(w, res.Repro)
			} else {
				writeMarkdownCode(w, res.Detail)
			}
			if res.Stderr != "" {
				fmt.Fprint(w, "\nencoder stderr:\n\n")
				writeMarkdownCode(w, res.Stderr)
			}
			fmt.Fprintln(w, "</details>")
		}
	}
	_, err := fmt.Fprintln(w)
	return err
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

var htmlReport = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hpackcert report</title>
<style>
body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
td.g a{display:block;text-decoration:none;color:#000}
.pass{background:#cfc}.non-strict{background:#ffc}.fail{background:#f99}.info{background:#def}.unsupported{background:#eee}.expected{background:#fdb}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto}
</style></head><body>
<h1>hpackcert report</h1>
<p>Traffic stories: {{.Traffic}}.{{if .Strict}} Strict: non-strict counts as fail.{{end}}</p>
<table><tr><th>case</th><th>title</th>{{range .Encoders}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td><code>{{.Case.ID}}</code></td><td>{{.Case.Title}}</td>{{range .Cells}}<td class="g {{.Class}}"><a href="#{{.Anchor}}">{{.Label}}</a></td>{{end}}</tr>
{{end}}</table>
<ul>{{range .Summaries}}<li><b>{{.Encoder}}</b>: {{.Text}}</li>{{end}}</ul>
<h2>Details</h2>
{{range .Rows}}{{$c := .Case}}{{range .Cells}}<section id="{{.Anchor}}"><h3>{{.Encoder}} — <code>{{$c.ID}}</code> {{$c.Title}}: {{.Label}}</h3>
<p><i>RFC 7541 §{{$c.Section}}</i>: {{$c.RFC}}</p><p>{{.Detail}}{{if .Duration}} ({{.Duration}}){{end}}</p>
{{if .Repro}}<pre>{{.Repro}}</pre>{{end}}{{if .Stderr}}<p>encoder stderr:</p><pre>{{.Stderr}}</pre>{{end}}</section>
{{end}}{{end}}</body></html>
`))

// htmlCell is a cell of the HTML matrix and the section it links to. The
// strings the encoder controls are escaped as visible says: html/template
// escapes HTML, not control characters nor invalid UTF-8.
type htmlCell struct {
	Encoder, Anchor, Class, Label string
	Detail, Repro, Stderr         string
	Duration                      time.Duration
}

// WriteHTML writes a matrix with the encoders as columns and the cases as
// rows; every cell links to a section with its detail and reproduction.
// Every string reaches the page through html/template's escaping, and an
// anchor is made of the encoder's position and the case id, never of the
// encoder's name, so anchors are unique and need no escaping.
func (r *Report) WriteHTML(w io.Writer) error {
	type row struct {
		Case  Case
		Cells []htmlCell
	}
	type summary struct{ Encoder, Text string }
	data := struct {
		Traffic   string
		Strict    bool
		Encoders  []string
		Rows      []row
		Summaries []summary
	}{Traffic: visibleLine(r.TrafficSource), Strict: r.Strict}
	for _, enc := range r.Encoders {
		data.Encoders = append(data.Encoders, visibleLine(enc))
	}
	for _, c := range r.Cases {
		rw := row{Case: c}
		for i, enc := range r.Encoders {
			res := r.Results[enc][c.ID]
			class := res.Grade.String()
			if res.Expected {
				class = "expected"
			}
			cell := htmlCell{
				Encoder:  data.Encoders[i],
				Anchor:   fmt.Sprintf("e%d-%s", i, strings.NewReplacer("/", "-", ".", "_").Replace(c.ID)),
				Class:    class,
				Label:    res.cell(),
				Detail:   visibleLine(res.Detail),
				Repro:    visibleText(res.Repro),
				Stderr:   visibleText(res.Stderr),
				Duration: res.Duration,
			}
			rw.Cells = append(rw.Cells, cell)
		}
		data.Rows = append(data.Rows, rw)
	}
	for i, enc := range r.Encoders {
		data.Summaries = append(data.Summaries, summary{data.Encoders[i], r.summary(enc)})
	}
	return htmlReport.Execute(w, data)
}
