package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/visible"
)

// liveTargets returns the positions in Encoders of the targets captured
// live, in order.
func (r rep) liveTargets() []int {
	var out []int
	for i, enc := range r.Encoders {
		if r.Targets[enc].Live != nil {
			out = append(out, i)
		}
	}
	return out
}

// oneLine joins the words of s with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeLiveText writes, for each target captured live, what was certified
// and how: the role, the encoder, the transport, the declared
// transformation, the blocks and connections captured, and the notes;
// then the settings schedule. Everything but the counts comes from the
// target or its catalogue entry and is escaped as visible says.
func (r rep) writeLiveText(w io.Writer, names []string) {
	live := r.liveTargets()
	if len(live) == 0 {
		return
	}
	for _, i := range live {
		l := r.Targets[r.Encoders[i]].Live
		fmt.Fprintf(w, "%s: %s over %s at %s", names[i], visible.Line(l.Role), visible.Line(l.Transport), visible.Line(l.Where))
		if l.Version != "" {
			fmt.Fprintf(w, ", version %s", visible.Line(l.Version))
		}
		if l.Encoder != "" {
			fmt.Fprintf(w, " (HPACK: %s)", visible.Line(l.Encoder))
		}
		fmt.Fprintf(w, "\n  %s on %s in %.1fs\n", counted(l.Blocks, "header block", "header blocks"), counted(l.Conns, "connection", "connections"), l.Elapsed.Seconds())
		if l.Declared {
			fmt.Fprintf(w, "  declared transformation: %s\n", visible.Line(l.Transform))
		}
		for _, n := range l.Notes {
			fmt.Fprintf(w, "  note: %s\n", visible.Line(oneLine(n)))
		}
	}
	fmt.Fprintf(w, "settings: %s\n\n", visible.Line(r.LiveSchedule))
}

// writeLiveMarkdown writes the live section of a matrix: a table of the
// targets captured live (role, encoder, transport, blocks, grades,
// declared transformation) and their notes, a target's breakdown (it
// stopped before its schedule ended, or never acknowledged a setting)
// first.
func (r rep) writeLiveMarkdown(w io.Writer) {
	live := r.liveTargets()
	if len(live) == 0 {
		return
	}
	fmt.Fprint(w, "# Live certification\n\n")
	fmt.Fprint(w, "`hpackcert live` speaks HTTP/2 to real servers, proxies and clients on loopback, keeps every header block they write with the SETTINGS_HEADER_TABLE_SIZE values they acknowledged before it, and grades the blocks as recorded wire with the cases and oracles of `hpackcert run` (the cases that need an encoder of their own are unsupported). ")
	fmt.Fprintf(w, "%s.\n\n", mdText(r.LiveSchedule))
	fmt.Fprint(w, "| target | version | role | HPACK encoder | transport | blocks | pass | non-strict | fail | declared transformation |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var notes []string
	for _, i := range live {
		enc := r.Encoders[i]
		l := r.Targets[enc].Live
		counts := r.Counts(enc)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %d | %d | %d | %s |\n",
			mdText(enc), mdText(l.Version), mdText(l.Role), mdText(l.Encoder), mdText(l.Transport), l.Blocks,
			counts[certify.Pass], counts[certify.NonStrict], counts[certify.Fail], mdText(l.Transform))
		if b := r.Targets[enc].Breakdown; b != "" {
			notes = append(notes, fmt.Sprintf("- **%s**: %s: %s", mdText(enc), breakdownWord(r.Targets[enc].BreakdownExpected), mdText(oneLine(b))))
		}
		for _, n := range l.Notes {
			notes = append(notes, fmt.Sprintf("- **%s**: %s", mdText(enc), mdText(oneLine(n))))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\nNotes:\n\n%s\n", strings.Join(notes, "\n"))
	}
	fmt.Fprintln(w)
}
