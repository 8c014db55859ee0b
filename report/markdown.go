package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

// WriteMarkdown writes the report for CI step summaries, most urgent
// first: for targets captured live, the live section of a matrix (see
// writeLiveMarkdown); a heading with the verdict, the first failure and a
// summary per encoder, with a line for each that broke down; every
// failure, every MUST case not graded, then every non-strict result, each
// an open <details> element with the rule, the declaration or the root
// causes, what the case judged, the consequences of a root cause, the
// reproduction (or the detail) and the encoder's stderr in code blocks;
// the matrix; the evidence, a table of the instances each case judged for
// each encoder; and the results graded unsupported or info, each a closed
// <details>.
//
// What the encoder controls stays text: its name in the table and the list
// goes through mdText, which escapes every ASCII punctuation character and
// keeps it on one line; names and details in a <summary> are HTML-escaped
// on one line; reproductions and stderr sit in code blocks whose fence is
// longer than any run of backticks they hold (see writeMarkdownCode).
func WriteMarkdown(w io.Writer, report *certify.Report) error {
	r := newRep(report)
	names := r.names(mdText)
	r.writeLiveMarkdown(w)
	ranked := r.ranked()
	word, text := r.verdict(&ranked, names, mdText)
	fmt.Fprintf(w, "## hpackcert: %s\n\n%s", word, text)
	if e, ok := firstFailure(&ranked); ok {
		fmt.Fprintf(w, "; %s: **%s** `%s` (%s)", firstLabel(e), names[e.enc], e.c.ID, mdText(e.c.Title))
	}
	fmt.Fprint(w, ".\n\n")
	if rp := r.Repro; rp != nil {
		writeReproMarkdown(w, rp)
	}
	for i, enc := range r.Encoders {
		fmt.Fprintf(w, "- **%s**: %s", names[i], r.summary(enc))
		if cov := r.Coverage[enc]; cov != nil {
			fmt.Fprintf(w, "; coverage: %s", cov)
		}
		if l := r.Targets[enc].Lacks; l != "" {
			fmt.Fprintf(w, "; declares %s: %s", lacksVerb(r.Report), mdText(l))
		}
		fmt.Fprintln(w)
		if b := r.Targets[enc].Breakdown; b != "" {
			fmt.Fprintf(w, "- **%s**: %s: %s\n", names[i], breakdownWord(r.Targets[enc].BreakdownExpected), mdText(b))
		}
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
		{"Not graded (MUST cases, each fails the run)", ranked[rankUngraded]},
		{"Non-strict", ranked[rankNonStrict]},
	} {
		breakdowns := s.heading == "Failures" && r.brokeDown()
		if len(s.entries) == 0 && !breakdowns {
			continue
		}
		fmt.Fprintf(w, "\n### %s\n", s.heading)
		if breakdowns {
			r.writeMarkdownBreakdowns(w)
		}
		for _, e := range s.entries {
			r.writeMarkdownEntry(w, e, true)
		}
	}
	fmt.Fprintf(w, "\n### Matrix\n\n| case | title | %s |\n|---|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(r.Encoders)))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = r.mdGrade(enc, c.ID, r.Results[enc][c.ID])
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", c.ID, mdText(c.Title), strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\n### Evidence\n\nWhat each case judged: the instances of its rule.\n\n| case | %s |\n|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(r.Encoders)))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = mdText(evidenceCell(r.Results[enc][c.ID].Evidence))
		}
		fmt.Fprintf(w, "| `%s` | %s |\n", c.ID, strings.Join(cells, " | "))
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
// title and rule; its declaration or its root causes; what it judged; the
// consequences of a root cause, a list; the reproduction, or the detail
// when there is none; and the encoder's stderr.
func (r rep) writeMarkdownEntry(w io.Writer, e entry, open bool) {
	attr := ""
	if open {
		attr = " open"
	}
	res := e.res
	fmt.Fprintf(w, "\n<details%s><summary>%s <code>%s</code> %s: %s</summary>\n\n", attr, htmlLine(r.Encoders[e.enc]), e.c.ID, r.cell(r.Encoders[e.enc], e.c.ID, res), htmlLine(res.Detail))
	fmt.Fprintf(w, "**%s**: %s\n\n", mdText(e.c.Title), mdText(e.c.Rule()))
	if res.Declared != "" {
		fmt.Fprintf(w, "Declared: %s\n\n", mdText(res.Declared))
	}
	if len(res.CausedBy) > 0 {
		fmt.Fprintf(w, "%s\n\n", mdText(causedByLine(res)))
	}
	fmt.Fprintf(w, "Evidence: %s\n\n", mdText(res.Evidence.String()))
	if len(res.Consequences) > 0 {
		fmt.Fprintf(w, "%s\n\n", mdText(consequencesHead(e.c, res)))
		for _, cq := range res.Consequences {
			fmt.Fprintf(w, "- %s\n", mdText(cq.String()))
		}
		fmt.Fprintln(w)
	}
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

// mdGrade is a matrix cell: what fails the run in bold, a SHOULD broken
// in italics.
func (r rep) mdGrade(encoder, id string, res *certify.Result) string {
	switch label := r.cell(encoder, id, res); {
	case res.Grade == certify.Fail && !res.Expected, label == "not graded":
		return "**" + label + "**"
	case res.Grade == certify.NonStrict:
		return "*" + label + "*"
	default:
		return label
	}
}

// writeReproMarkdown names the folder of the run's reproductions and the
// command that replays the first failure, in a code block.
func writeReproMarkdown(w io.Writer, rp *certify.Repro) {
	if rp.Files == 0 {
		fmt.Fprintf(w, "Reproductions: none to write to %s (no case failed).\n\n", mdText(rp.Dir))
		return
	}
	fmt.Fprintf(w, "**Reproductions:** %s in %s; replay one with:\n\n", counted(rp.Files, "story file", "story files"), mdText(rp.Dir))
	writeMarkdownCode(w, rp.Replay)
	fmt.Fprintln(w)
}

// brokeDown reports whether a target of the run broke down.
func (r rep) brokeDown() bool {
	for _, enc := range r.Encoders {
		if r.Targets[enc].Breakdown != "" {
			return true
		}
	}
	return false
}

// writeMarkdownBreakdowns writes each target's breakdown in full, open,
// first among the failures: what broke, its reproduction and the
// encoder's stderr, in a code block.
func (r rep) writeMarkdownBreakdowns(w io.Writer) {
	for _, enc := range r.Encoders {
		info := r.Targets[enc]
		if info.Breakdown == "" {
			continue
		}
		fmt.Fprintf(w, "\n<details open><summary>%s %s: %s</summary>\n\n", htmlLine(enc), breakdownWord(info.BreakdownExpected), htmlLine(info.Breakdown))
		writeMarkdownCode(w, r.breakdownText(info))
		fmt.Fprintln(w, "</details>")
	}
}
