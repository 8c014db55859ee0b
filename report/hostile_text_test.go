package report_test

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

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
