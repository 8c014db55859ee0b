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
func WriteText(w io.Writer, report *certify.Report) error {
	r := rep{report}
	names := r.names(textName)
	r.writeLiveText(w, names)
	ranked := r.ranked()
	word, text := r.verdict(&ranked)
	fmt.Fprintf(w, "verdict: %s: %s\n", word, text)
	if e, ok := firstFailure(&ranked); ok {
		fmt.Fprintf(w, "%s: %s %s (%s)\n", firstLabel(e), names[e.enc], e.c.ID, e.c.Title)
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
	fmt.Fprintf(w, "traffic stories: %s%s\n", visible.Line(r.TrafficSource), strict)
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
			cells[i] = cell(r.Results[enc][c.ID])
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, strings.Join(cells, "\t"), c.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rest := slices.Concat(ranked[rankUnsupported], ranked[rankInfo]); len(rest) > 0 {
		fmt.Fprintf(w, "\ndetails:\n")
		for _, e := range rest {
			lines := visible.Lines(e.res.Detail)
			fmt.Fprintf(w, "  %s %s %s: %s\n", names[e.enc], e.c.ID, cell(e.res), lines[0])
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
	fmt.Fprintf(w, "  %s %s %s: %s\n", name, e.c.ID, cell(e.res), e.c.Title)
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
