package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/internal/visible"
)

// The encoder under test controls much of what a report prints: its name
// (a stdio encoder's hello answer), the details and reproductions that
// quote what it sent or answered, and its stderr. Every such string goes
// through one function of this file for the context it lands in, so that
// it reads as it was sent and cannot act on a terminal, a parser or a page.

// writeIndented writes s to w line by line, escaped as visibleLines does,
// each line after prefix (empty lines stay empty): no line of s starts at
// the left margin, where the report's own lines start.
func writeIndented(w io.Writer, prefix, s string) {
	for _, l := range visible.Lines(s) {
		if l == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%s%s\n", prefix, l)
	}
}

// textName is how an encoder's name reads in the text report: as it is
// when it is made of ASCII letters, digits and the punctuation of version
// strings, with single spaces between words (ref, x/net, nghttp2 1.64.0),
// and a colon inside a word (recorded:nghttp2, the name of a recording);
// Go-quoted otherwise. A colon that ends a word, a tab, a run of spaces or
// a control character gets the name quoted, so that it cannot pass for a
// summary line ("NAME: ..."), a column or a case row of the report.
func textName(name string) string {
	if plainName(name) {
		return name
	}
	return strconv.Quote(name)
}

func plainName(name string) bool {
	if name == "" || name[0] == ' ' || name[len(name)-1] == ' ' || strings.Contains(name, "  ") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte(" ._-+/()@,=~", c) >= 0:
		case c == ':' && i+1 < len(name) && name[i+1] != ' ':
		default:
			return false
		}
	}
	return true
}

// mdText escapes s for Markdown inline content, a table cell or a list
// item: on one line (visibleLine), with a backslash before every ASCII
// punctuation character. CommonMark reads each such pair as the character
// itself, so s opens no emphasis, code span, link, autolink, raw HTML,
// entity or block (a heading, a quote, a list item) and, in a GFM table,
// ends no cell: GFM reads \| as a pipe inside the cell.
func mdText(s string) string {
	s = visible.Line(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		if asciiPunct(s[i]) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// asciiPunct reports whether c is ASCII punctuation as CommonMark defines
// it: the characters a backslash may escape.
func asciiPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// writeMarkdownCode writes s as a fenced code block, line by line escaped
// as visibleLines does. The fence is a run of backticks longer than any in
// s, so no line of s can close it; inside it, HTML and Markdown are text.
func writeMarkdownCode(w io.Writer, s string) {
	body := visible.Text(s)
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	fmt.Fprintf(w, "%s\n%s\n%s\n", fence, body, fence)
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// htmlLine escapes s for raw HTML on one line, such as a <summary> in a
// Markdown report, where a line break could end the HTML block.
func htmlLine(s string) string { return template.HTMLEscapeString(visible.Line(s)) }

// jsonText returns s with each octet that is not part of valid UTF-8
// written as \xNN: encoding/json would turn it into U+FFFD and the octet
// would be lost. Valid text, control characters included, is kept: JSON
// escapes those without loss.
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// jsonEscapeControls returns the JSON text b with every C1 control and
// every bidirectional control written as a \uNNNN escape, as
// encoding/json writes the C0 controls: the document means the same, and
// a terminal that prints it acts on none of them. Such runes occur only
// inside strings, where the escape is valid.
func jsonEscapeControls(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if isC1OrBidi(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+32), b[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// isC1OrBidi reports whether r is a C1 control or a Unicode bidirectional
// control (the embeddings, overrides and isolates, and the marks).
func isC1OrBidi(r rune) bool {
	switch {
	case 0x80 <= r && r <= 0x9f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return r == 0x200e || r == 0x200f || r == 0x061c
}
