package report

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/visible"
)

// htmlStyle is the report's style sheet, the page's only resource.
const htmlStyle = `
body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th,td.k{white-space:nowrap}td.n{text-align:right}td.g a{display:block;text-decoration:none;color:#000}
.pass{background:#cfc}.non-strict{background:#ffc}.fail{background:#f99}.info{background:#def}.unsupported{background:#eee}.expected{background:#fdb}
.ungraded{background:#fbb}.declared{background:#ddf}.consequence{background:#f4e4e4}.na{background:#f8f8f8;color:#777}
h1 span{padding:0 .3em}p.verdict{font-size:1.2em}
section{border-left:.4em solid #ccc;padding-left:.8em;margin:1em 0}
section.fail,section.pass,section.non-strict,section.info,section.unsupported,section.expected,section.ungraded,section.declared,section.consequence{background:none}
section.fail,section.ungraded{border-color:#c00}section.non-strict{border-color:#cc0}section.expected{border-color:#e90}section.pass{border-color:#6c6}
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
<p class="verdict">{{.VerdictText}}{{with .First}}; {{$.FirstLabel}}: <a href="#{{.Anchor}}">{{.Encoder}} <code>{{.Case.ID}}</code></a> ({{.Case.Title}}){{end}}.</p>
{{with .Repro}}{{if .Files}}<p class="repro">Reproductions: {{.Count}} in <code>{{.Dir}}</code>; replay one with</p><pre><code>{{.Replay}}</code></pre>{{else}}<p class="repro">Reproductions: none to write to <code>{{.Dir}}</code> (no case failed).</p>{{end}}
{{end}}
<table class="summary"><tr><th>encoder</th><th>driven</th><th>fail</th><th>non-strict</th><th>unsupported</th><th>n/a</th><th>info</th><th>pass</th><th>coverage</th><th>time</th></tr>
{{range .Summaries}}<tr><td>{{.Encoder}}{{if .Reported}}<br>reports itself as <code>{{.Reported}}</code>{{end}}</td><td class="k">{{.Kind}}{{if .Binary}}, binary form{{end}}</td>
<td class="n{{if or .Fail .Ungraded}} fail{{end}}">{{.Fail}}{{if .Expected}} (+{{.Expected}} expected){{end}}{{if .Ungraded}}, {{.Ungraded}} not graded{{end}}</td><td class="n{{if .NonStrict}} non-strict{{end}}">{{.NonStrict}}</td><td class="n">{{.Unsupported}}</td><td class="n">{{.NA}}</td><td class="n">{{.Info}}</td><td class="n">{{.Pass}}</td><td>{{.Coverage}}</td><td class="k">{{.Elapsed}}</td></tr>
{{with .Breakdown}}<tr><td class="fail" colspan="10">{{.}}</td></tr>
{{end}}{{with .BreakdownFull}}<tr><td colspan="10"><details><summary>its reproduction</summary><pre><code>{{.}}</code></pre></details></td></tr>
{{end}}{{end}}</table>
<p>Traffic stories: {{.Traffic}}.{{if .Strict}} Strict: non-strict counts as fail.{{end}}</p>
{{with .Run}}<p>{{.}}</p>
{{end}}{{range .Stale}}<p>Expected failure <code>{{.}}</code> did not fail: remove it from the list.</p>
{{end}}{{with .Failures}}<h2>Failures</h2>
{{range .}}{{template "section" .}}{{end}}{{end}}{{with .Ungraded}}<h2>Not graded</h2>
<p>MUST cases not graded for an encoder the certifier drives: each fails the run.</p>
{{range .}}{{template "section" .}}{{end}}{{end}}{{with .NonStrict}}<h2>Non-strict</h2>
{{range .}}{{template "section" .}}{{end}}{{end}}<h2>Matrix</h2>
<table><tr><th>case</th><th>title</th>{{range .Encoders}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td><code>{{.Case.ID}}</code></td><td>{{.Case.Title}}</td>{{range .Cells}}<td class="g {{.Class}}" title="{{.Tooltip}}"><a href="#{{.Anchor}}">{{.Label}}</a></td>{{end}}</tr>
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
<p><i>{{.Rule}}</i></p>{{with .Declared}}<p class="declared">declared: {{.}}</p>{{end}}{{with .CausedBy}}<p>{{.}}</p>{{end}}<p>{{.Detail}}</p>
<p class="evidence">evidence: {{.Evidence}}</p>{{with .ConsequencesHead}}<p>{{.}}</p><ul>{{range $.Consequences}}<li>{{.}}</li>{{end}}</ul>{{end}}{{if .Took}}<p class="took">time: {{.Took}}</p>{{end}}
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
	Case                                   certify.Case
	Encoder, Anchor, Class, Label, Tooltip string
	Rule, Detail, Repro, Stderr            string
	Evidence, Declared, CausedBy           string
	ConsequencesHead                       string
	Consequences                           []string
	Took                                   string
}

// htmlRepro is certify.Repro as the page shows it.
type htmlRepro struct {
	Dir, Count, Replay string
	Files              int
}

// htmlSummary is an encoder's row in the summary table.
type htmlSummary struct {
	Encoder, Reported, Kind                string
	Binary                                 bool
	Fail, Expected, NonStrict, Unsupported int
	NA, Ungraded, Info, Pass               int
	Coverage, Breakdown, BreakdownFull     string
	Elapsed                                time.Duration
}

// WriteHTML writes a page that shows the verdict first: a heading with
// it, the first failure and a summary table, one row per encoder and one
// more under an encoder that broke down, saying how; then a section for
// every failure, every MUST case not graded and every non-strict result;
// then the matrix, encoders as columns and cases as rows; then the
// sections of the results graded unsupported (declared ones and
// consequences of a failure among them), then info and pass, those two
// collapsed in <details> elements. Every cell of the matrix links to its
// result's section, and its title (the tooltip) says what the case judged,
// and why it was not graded or is declared. A section has the rule, the
// declaration or the root causes, the detail, what the case judged, the
// consequences of a root cause, the time, the reproduction and the stderr.
//
// Every string reaches the page through html/template's escaping, and an
// anchor is made of the encoder's position and the case id, never of the
// encoder's name, so anchors are unique and need no escaping.
func WriteHTML(w io.Writer, report *certify.Report) error {
	r := newRep(report)
	type row struct {
		Case  certify.Case
		Cells []*htmlCell
	}
	ranked := r.ranked()
	data := struct {
		Verdict, VerdictClass, VerdictText string
		First                              *htmlCell
		FirstLabel                         string
		Summaries                          []htmlSummary
		Traffic, Run                       string
		Repro                              *htmlRepro
		Strict                             bool
		Stale                              []string
		Encoders                           []string
		Rows                               []row
		Failures, Ungraded                 []*htmlCell
		NonStrict, Unsupported             []*htmlCell
		Info, Passes                       []*htmlCell
	}{Traffic: visible.Line(r.TrafficSource), Strict: r.Strict, Run: r.runLine()}
	for _, enc := range r.Encoders {
		data.Encoders = append(data.Encoders, visible.Line(enc))
	}
	data.Verdict, data.VerdictText = r.verdict(&ranked, data.Encoders, visible.Line)
	if rp := r.Repro; rp != nil {
		data.Repro = &htmlRepro{Dir: visible.Line(rp.Dir), Files: rp.Files, Count: counted(rp.Files, "story file", "story files"), Replay: visible.Line(rp.Replay)}
	}
	data.VerdictClass = strings.ToLower(data.Verdict)
	for _, e := range r.StaleExpectations {
		data.Stale = append(data.Stale, visible.Line(e))
	}
	cells := make([]map[string]*htmlCell, len(r.Encoders))
	for i, enc := range r.Encoders {
		cells[i] = map[string]*htmlCell{}
		for _, c := range r.Cases {
			res := r.Results[enc][c.ID]
			hc := &htmlCell{
				Case:     c,
				Encoder:  data.Encoders[i],
				Anchor:   fmt.Sprintf("e%d-%s", i, strings.NewReplacer("/", "-", ".", "_").Replace(c.ID)),
				Class:    res.Grade.String(),
				Label:    r.cell(enc, c.ID, res),
				Rule:     c.Rule(),
				Detail:   visible.Line(res.Detail),
				Repro:    visible.Text(res.Repro),
				Stderr:   visible.Text(res.Stderr),
				Evidence: visible.Line(res.Evidence.String()),
				Declared: visible.Line(res.Declared),
				Took:     took(res.Duration),
			}
			tooltip := []string{hc.Evidence}
			switch {
			case res.Expected:
				hc.Class = "expected"
			case res.Declared != "":
				hc.Class = "declared"
				tooltip = append(tooltip, "declared: "+hc.Declared)
			case res.Grade == certify.Unsupported && len(res.CausedBy) > 0:
				hc.Class = "consequence"
				hc.CausedBy = visible.Line(causedByLine(res))
				tooltip = append(tooltip, hc.CausedBy)
			case res.Grade == certify.Unsupported && res.NotApplicable:
				hc.Class = "na"
			case r.ungraded[enc][c.ID]:
				hc.Class = "ungraded"
				tooltip = append(tooltip, "not graded, which fails the run: "+cut(hc.Detail))
			}
			if len(res.Consequences) > 0 {
				hc.ConsequencesHead = visible.Line(consequencesHead(c, res))
				for _, cq := range res.Consequences {
					hc.Consequences = append(hc.Consequences, visible.Line(cq.String()))
				}
				tooltip = append(tooltip, fmt.Sprintf("%s; see the section", counted(len(hc.Consequences), "consequence", "consequences")))
			}
			hc.Tooltip = strings.Join(tooltip, "; ")
			cells[i][c.ID] = hc
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
	data.Ungraded = sections(rankUngraded)
	data.NonStrict = sections(rankNonStrict)
	data.Unsupported = sections(rankUnsupported)
	data.Info = sections(rankInfo)
	data.Passes = sections(rankPass)
	if e, ok := firstFailure(&ranked); ok {
		data.First = cells[e.enc][e.c.ID]
		data.FirstLabel = firstLabel(e)
	}
	for i, enc := range r.Encoders {
		info := r.Targets[enc]
		n, inapplicable := r.counts(enc)
		s := htmlSummary{
			NA:          inapplicable,
			Encoder:     data.Encoders[i],
			Kind:        info.Kind,
			Binary:      info.Binary,
			NonStrict:   n[certify.NonStrict],
			Unsupported: n[certify.Unsupported],
			Info:        n[certify.Info],
			Pass:        n[certify.Pass],
			Elapsed:     info.Elapsed.Round(time.Millisecond),
		}
		if info.Breakdown != "" {
			s.Breakdown = breakdownLine(s.Encoder, visible.Line(info.Breakdown), info.BreakdownExpected)
			s.BreakdownFull = visible.Text(r.breakdownText(info))
		}
		for id, res := range r.Results[enc] {
			switch r.rank(enc, id, res) {
			case rankFail:
				s.Fail++
			case rankUngraded:
				s.Ungraded++
			case rankExpected:
				s.Expected++
			}
		}
		if reported := visible.Line(info.Reported); reported != s.Encoder {
			s.Reported = reported
		}
		if cov := r.Coverage[enc]; cov != nil {
			s.Coverage = cov.String()
		}
		data.Summaries = append(data.Summaries, s)
	}
	return htmlReport.Execute(w, data)
}

// took is a case's time as a page shows it, apart from its finding: in
// milliseconds, to a tenth; empty for none.
func took(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
