package report

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
)

// Page is a published matrix page (docs/MATRIX.md, docs/MATRIX-decoders.md):
// the Markdown report of one run with what a reader needs around it to
// trust and redo it. WritePage writes it: the title, the introduction, a
// table of the programs certified with their package and version, the
// command that made the report, its exit status, the page's own sections,
// then the report.
type Page struct {
	// Title is the page's one level-1 heading.
	Title string
	// Intro is Markdown, written as it is: what the page certifies, when
	// and at which commit.
	Intro string
	// Columns are the headings of the program table.
	Columns [3]string
	// Programs are the table's rows.
	Programs []ProgramRow
	// Setup is what must run before Command, Markdown ("`adapters/install.sh`").
	Setup string
	// Command is hpackcert's arguments, the subcommand first; Outputs
	// are the report flags the page shows after them (the run wrote its
	// reports to files of its own).
	Command []string
	Outputs []string
	// Status is hpackcert's exit status.
	Status int
	// Sections follow the exit status, before the report.
	Sections []PageSection
	// ReportHeading, when set, is a level-2 heading before the report.
	ReportHeading string
	// Tags are the build tags of the command, "nghttp2" when empty.
	Tags string
}

// ProgramRow is one row of a page's program table: a program hpackcert
// ran (or a label such as "built-in"), the package it comes from and the
// package's version.
type ProgramRow struct {
	Program, Package, Version string
}

// PageSection is a level-2 section of a page: a paragraph, then a list.
type PageSection struct {
	Heading, Text string
	Items         []string
}

// WritePage writes p around the Markdown report md. A program cell is a
// code span when the program is one the command ran (an --exec argument),
// plain text otherwise; the command is quoted for a POSIX shell.
func WritePage(w io.Writer, p *Page, md []byte) error {
	ran := map[string]bool{}
	for i, a := range p.Command {
		if a == "--exec" && i+1 < len(p.Command) {
			ran[p.Command[i+1]] = true
		}
	}
	fmt.Fprintf(w, "# %s\n\n%s\n\n", p.Title, strings.TrimRight(p.Intro, "\n"))
	fmt.Fprintf(w, "| %s |\n|---|---|---|\n", strings.Join(p.Columns[:], " | "))
	for _, r := range p.Programs {
		program := tableCell(r.Program)
		if ran[r.Program] {
			program = codeSpan(program)
		}
		fmt.Fprint(w, "|")
		for _, cell := range []string{program, tableCell(r.Package), tableCell(r.Version)} {
			if cell != "" {
				cell = " " + cell
			}
			fmt.Fprintf(w, "%s |", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nCommand (from the repository root, after %s):\n\n", p.Setup)
	tags := p.Tags
	if tags == "" {
		tags = "nghttp2"
	}
	fmt.Fprintf(w, "```sh\ngo build -tags %s -o hpackcert ./cmd/hpackcert\n", tags)
	fmt.Fprintf(w, "./hpackcert %s\n```\n\n", shell.Join(slices.Concat(p.Command, p.Outputs)))
	fmt.Fprintf(w, "hpackcert exited %d.\n\n", p.Status)
	for _, s := range p.Sections {
		fmt.Fprintf(w, "## %s\n\n%s\n\n", s.Heading, strings.TrimRight(s.Text, "\n"))
		for _, item := range s.Items {
			fmt.Fprintf(w, "- %s\n", item)
		}
		fmt.Fprintln(w)
	}
	if p.ReportHeading != "" {
		fmt.Fprintf(w, "## %s\n\n", p.ReportHeading)
	}
	_, err := w.Write(md)
	return err
}

// tableCell keeps s inside its cell of a GFM table, where a bare pipe
// would end the cell even inside a code span.
func tableCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// codeSpan writes s as a code span, its fence longer than any run of
// backticks it holds, padded when s starts or ends with one.
func codeSpan(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// ReadProgramRows reads a page's program table from TSV: one row a line,
// "program<TAB>package<TAB>version" (a cell may be empty); a line that is
// not three cells is an error naming its number.
func ReadProgramRows(r io.Reader) ([]ProgramRow, error) {
	var rows []ProgramRow
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		cells := strings.Split(sc.Text(), "\t")
		if len(cells) != 3 {
			return nil, fmt.Errorf("line %d: %d tab-separated cells, want 3 (program, package, version): %q", n, len(cells), sc.Text())
		}
		rows = append(rows, ProgramRow{cells[0], cells[1], cells[2]})
	}
	return rows, sc.Err()
}

// AdapterLimits lists, for each target of an encoder run, the cases
// graded unsupported because its adapter answered {"unsupported": ...}
// (the engine's detail says "the encoder cannot express"), and the
// reasons it gave: "**NAME**: CASES (REASONS)", by name.
func AdapterLimits(r *JSONReport) []string {
	var items []string
	for _, name := range slices.Sorted(maps.Keys(r.Encoders)) {
		var cases, reasons []string
		target := r.Encoders[name]
		for _, id := range slices.Sorted(maps.Keys(target.Cases)) {
			if reason, ok := adapterLimit(target.Cases[id]); ok {
				cases = append(cases, id)
				if !slices.Contains(reasons, reason) {
					reasons = append(reasons, reason)
				}
			}
		}
		if len(cases) > 0 {
			slices.Sort(reasons)
			items = append(items, fmt.Sprintf("**%s**: %s (%s)", mdText(name), strings.Join(cases, ", "), mdText(strings.Join(reasons, "; "))))
		}
	}
	return items
}

// adapterLimit returns the reason the adapter gave for the first block it
// could not express, from the detail "...the encoder cannot express N
// blocks, ... (first: story S, block B: REASON)".
func adapterLimit(res JSONResult) (string, bool) {
	const mark = "the encoder cannot express "
	if res.Grade != certify.Unsupported || !strings.Contains(res.Detail, mark) {
		return "", false
	}
	reason := res.Detail
	if _, after, ok := strings.Cut(reason, "(first: "); ok {
		reason = after
	}
	reason, _, _ = strings.Cut(reason, "\n")
	if _, after, ok := strings.Cut(reason, ": "); ok {
		reason = after
	}
	return strings.TrimRight(reason, ")"), true
}
