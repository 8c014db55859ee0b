package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/visible"
)

// WriteText writes the terminal report, most urgent first: for targets
// captured live, what was captured and how (see writeLiveText); the verdict
// (what fails the run, what calls for a look, the MUST cases a recording
// does not exercise), a line per target that broke down ("E: breakdown:
// ...") and the first failure; a summary per encoder with its coverage;
// every failure, every MUST case not graded, then every non-strict result,
// in full (the rule, the detail, what the case judged, the consequences
// of a root cause, the reproduction, the encoder's stderr); the matrix,
// one line per case with a column per encoder; the evidence, the instances
// each case judged for each encoder; and a line for each result graded
// unsupported or info, with its declaration or its root causes.
//
// What the encoder controls cannot act on the terminal nor pass for the
// report's own lines: an encoder's name is Go-quoted unless it is plain
// (see textName); details, reproductions and stderr show control
// characters and invalid UTF-8 as escapes (see visible), and each of
// their lines is indented.
func WriteText(w io.Writer, report *certify.Report) error {
	r := newRep(report)
	names := r.names(textName)
	r.writeLiveText(w, names)
	ranked := r.ranked()
	word, text := r.verdict(&ranked, names, visible.Line)
	fmt.Fprintf(w, "verdict: %s: %s\n", word, text)
	for i, enc := range r.Encoders {
		if b := r.Targets[enc].Breakdown; b != "" {
			fmt.Fprintln(w, breakdownLine(names[i], visible.Line(b), r.Targets[enc].BreakdownExpected))
		}
	}
	if e, ok := firstFailure(&ranked); ok {
		fmt.Fprintf(w, "%s: %s %s (%s)\n", firstLabel(e), names[e.enc], e.c.ID, e.c.Title)
	}
	for i, enc := range r.Encoders {
		fmt.Fprintf(w, "%s: %s\n", names[i], r.summary(enc))
		if l := r.Targets[enc].Lacks; l != "" {
			fmt.Fprintf(w, "  declares %s: %s\n", lacksVerb(r.Report), visible.Line(l))
		}
		if cov := r.Coverage[enc]; cov != nil {
			fmt.Fprintf(w, "  coverage: %s\n", cov)
		}
	}
	strict := ""
	if r.Strict {
		strict = " (--strict: non-strict counts as fail)"
	}
	fmt.Fprintf(w, "traffic stories: %s%s\n", visible.Line(r.TrafficSource), strict)
	if line := r.runLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	for _, e := range r.StaleExpectations {
		fmt.Fprintf(w, "expected failure %q did not fail: remove it from the list\n", e)
	}
	r.writeBreakdownsText(w, names)
	for _, s := range []struct {
		heading string
		entries []entry
	}{
		{"failures:", slices.Concat(ranked[rankFail], ranked[rankExpected])},
		{"not graded (MUST cases, each fails the run):", ranked[rankUngraded]},
		{"non-strict:", ranked[rankNonStrict]},
	} {
		if len(s.entries) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", s.heading)
		for _, e := range s.entries {
			r.writeTextEntry(w, names[e.enc], e)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "case\t%s\ttitle\n", strings.Join(names, "\t"))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = r.cell(enc, c.ID, r.Results[enc][c.ID])
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, strings.Join(cells, "\t"), c.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "evidence\t%s\n", strings.Join(names, "\t"))
	for _, c := range r.Cases {
		cells := make([]string, len(r.Encoders))
		for i, enc := range r.Encoders {
			cells[i] = visible.Line(evidenceCell(r.Results[enc][c.ID].Evidence))
		}
		fmt.Fprintf(tw, "%s\t%s\n", c.ID, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rest := slices.Concat(ranked[rankUnsupported], ranked[rankInfo]); len(rest) > 0 {
		fmt.Fprintf(w, "\ndetails:\n")
		for _, e := range rest {
			res := e.res
			label := r.cell(r.Encoders[e.enc], e.c.ID, res)
			switch {
			case res.Declared != "":
				fmt.Fprintf(w, "  %s %s %s: %s\n", names[e.enc], e.c.ID, label, visible.Line(res.Declared))
				writeIndented(w, "    ", res.Detail)
			case len(res.CausedBy) > 0:
				fmt.Fprintf(w, "  %s %s %s: %s\n", names[e.enc], e.c.ID, label, visible.Line(causedByLine(res)))
				writeIndented(w, "    ", res.Detail)
			default:
				lines := visible.Lines(res.Detail)
				fmt.Fprintf(w, "  %s %s %s: %s\n", names[e.enc], e.c.ID, label, lines[0])
				for _, l := range lines[1:] {
					fmt.Fprintf(w, "    %s\n", l)
				}
			}
			writeTextConsequences(w, e)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeTextEntry writes a result in full: a line with the encoder's name,
// the case and its title, then, indented, the rule, the detail, what the
// case judged, the consequences of a root cause, the reproduction and the
// encoder's stderr. A reproduction starts with the problem its block
// shows, which the detail starts with too (and may add to, "; 4 blocks
// not judged ..."): that line is written once, the whole detail.
func (r rep) writeTextEntry(w io.Writer, name string, e entry) {
	fmt.Fprintf(w, "  %s %s %s: %s\n", name, e.c.ID, r.cell(r.Encoders[e.enc], e.c.ID, e.res), e.c.Title)
	writeIndented(w, "    ", e.c.Rule())
	repro := e.res.Repro
	problem, rest, _ := strings.Cut(repro, "\n")
	if problem != "" && (e.res.Detail == problem || strings.HasPrefix(e.res.Detail, problem+"; ")) {
		repro = rest
	}
	writeIndented(w, "    ", e.res.Detail)
	fmt.Fprintf(w, "    evidence: %s\n", visible.Line(e.res.Evidence.String()))
	writeTextConsequences(w, e)
	if repro != "" {
		writeIndented(w, "    ", repro)
	}
	if e.res.Stderr != "" {
		fmt.Fprintln(w, "    encoder stderr:")
		writeIndented(w, "      ", e.res.Stderr)
	}
}

// writeTextConsequences writes, under a root cause, what followed from it,
// one line each.
func writeTextConsequences(w io.Writer, e entry) {
	if len(e.res.Consequences) == 0 {
		return
	}
	fmt.Fprintf(w, "    %s\n", visible.Line(consequencesHead(e.c, e.res)))
	for _, c := range e.res.Consequences {
		fmt.Fprintf(w, "      %s\n", visible.Line(c.String()))
	}
}

// writeBreakdownsText writes each target's breakdown in full: what broke,
// its reproduction and the program's stderr, indented.
func (r rep) writeBreakdownsText(w io.Writer, names []string) {
	heading := false
	for i, enc := range r.Encoders {
		info := r.Targets[enc]
		if info.Breakdown == "" {
			continue
		}
		if !heading {
			fmt.Fprintf(w, "\nbreakdowns (each the target's one failure):\n")
			heading = true
		}
		fmt.Fprintf(w, "  %s: breakdown\n", names[i])
		writeIndented(w, "    ", info.Breakdown)
		if info.BreakdownRepro != "" {
			writeIndented(w, "    ", info.BreakdownRepro)
		}
		if info.BreakdownStderr != "" {
			fmt.Fprintln(w, "    "+r.stderrHeading())
			writeIndented(w, "      ", info.BreakdownStderr)
		}
	}
}
