package live

import (
	"fmt"
	"io"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

// WriteMarkdown writes the live section of a matrix: a table of the
// targets (role, encoder, transport, blocks, grades, declared
// transformation), their notes, and then rep, the graded captures, as
// certify writes Markdown.
func WriteMarkdown(w io.Writer, captures []*Capture, rep *certify.Report) error {
	fmt.Fprint(w, "# Live certification\n\n")
	fmt.Fprint(w, "`hpackcert live` speaks HTTP/2 to real servers, proxies and clients on loopback, keeps every header block they write with the SETTINGS_HEADER_TABLE_SIZE values they acknowledged before it, and grades the blocks as recorded wire with the cases and oracles of `hpackcert run` (the cases that need an encoder of their own are unsupported). ")
	fmt.Fprintf(w, "%s.\n\n", mdEscape(ScheduleText()))
	fmt.Fprint(w, "| target | version | role | HPACK encoder | transport | blocks | pass | non-strict | fail | declared transformation |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for i, c := range captures {
		counts := map[certify.Grade]int{}
		if rep != nil && i < len(rep.Encoders) {
			counts = rep.Counts(rep.Encoders[i])
		}
		transform := c.Transform.String()
		if c.Role == RoleClient {
			transform = "adds " + strings.Join(c.Transform.Add, ", ")
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %d | %d | %d | %s |\n",
			mdEscape(c.Name), mdEscape(c.Version), c.Role, mdEscape(c.Encoder), c.Transport, c.Blocks(),
			counts[certify.Pass], counts[certify.NonStrict], counts[certify.Fail], mdEscape(transform))
	}
	var notes []string
	for _, c := range captures {
		for _, n := range c.Notes {
			notes = append(notes, fmt.Sprintf("- **%s**: %s", mdEscape(c.Name), mdEscape(oneLine(n))))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\nNotes:\n\n%s\n", strings.Join(notes, "\n"))
	}
	fmt.Fprintln(w)
	if rep == nil {
		return nil
	}
	return rep.WriteMarkdown(w)
}

// mdEscape makes s one line of Markdown text that renders as itself in a
// table cell or a list item: the punctuation Markdown or a table gives a
// meaning backslash-escaped, control octets dropped.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch {
		case r < 0x20 || r == 0x7f:
			continue
		case r < 0x80 && strings.ContainsRune("\\`*_[]<>|~", r):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
