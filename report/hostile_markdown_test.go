package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

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
