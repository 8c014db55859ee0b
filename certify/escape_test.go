package certify

import (
	"bytes"
	"slices"
	"testing"
)

func TestVisible(t *testing.T) {
	tests := []struct {
		label   string
		in      string
		keepTab bool
		want    string
		why     string
	}{
		{"plain", "ref 1.2", false, "ref 1.2", "printable ASCII is kept"},
		{"letters", "héllo 日本 \uFFFD", false, "héllo 日本 \uFFFD", "graphic non-ASCII, U+FFFD included, is kept"},
		{"backslash", `a\x1b`, false, `a\x1b`, "a backslash is kept, so Go-quoted values stay readable"},
		{"line feed", "a\nb", false, `a\nb`, "a line break would start a line the report does not control"},
		{"carriage return", "a\rb", false, `a\rb`, "a carriage return moves a terminal's cursor to column 0"},
		{"tab on one line", "a\tb", false, `a\tb`, "a tab would be a column in the text matrix"},
		{"tab kept", "a\tb", true, "a\tb", "multi-line text keeps its tabs"},
		{"escape sequence", "\x1b[2J", false, `\x1b[2J`, "ESC drives the terminal"},
		{"C0 and DEL", "\x00\b\a\v\f\x1f\x7f", false, `\x00\b\a\v\f\x1f\x7f`, "NUL, backspace, bell, tabulation, form feed, unit separator and DEL"},
		{"C1 control", "\u0085\u009b", false, `\u0085\u009b`, "NEL is a line break to some readers, CSI starts a terminal sequence"},
		{"invalid octet", "\x85\xff", false, `\x85\xff`, "an octet outside UTF-8 reads as itself, distinct from the rune U+0085"},
		{"truncated sequence", "a\xc3", false, `a\xc3`, "the first octet of a two-octet sequence, alone"},
		{"bidi override", "\u202eevil\u2066", false, `\u202eevil\u2066`, "format characters reorder what a reader sees"},
		{"line separator", "\u2028\u2029", false, `\u2028\u2029`, "line and paragraph separators break lines for some readers"},
		{"non-ASCII space", "a\u00a0b", false, `a\u00a0b`, "a no-break space looks like a space"},
		{"astral format character", "\U000e0001", false, `\U000e0001`, "a language tag, outside the BMP"},
	}
	for _, tt := range tests {
		if got := visible(tt.in, tt.keepTab); got != tt.want {
			t.Errorf("%s: visible(%q, %v) = %q; want %q (%s)", tt.label, tt.in, tt.keepTab, got, tt.want, tt.why)
		}
	}
}

func TestVisibleLines(t *testing.T) {
	tests := []struct {
		label, in string
		want      []string
	}{
		{"one line", "abc", []string{"abc"}},
		{"empty", "", []string{""}},
		{"final breaks dropped", "a\nb\n\n", []string{"a", "b"}},
		{"CRLF is a line break", "a\r\nb\r\n", []string{"a", "b"}},
		{"empty line kept inside", "a\n\nb", []string{"a", "", "b"}},
		{"lone CR is shown", "ok\rref: 25 pass", []string{`ok\rref: 25 pass`}},
		{"tabs kept, controls shown", "\tat x\x1b[0m", []string{"\tat x\\x1b[0m"}},
	}
	for _, tt := range tests {
		if got := visibleLines(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: visibleLines(%q) = %q; want %q", tt.label, tt.in, got, tt.want)
		}
	}
}

func TestWriteIndented(t *testing.T) {
	var buf bytes.Buffer
	writeIndented(&buf, "  ", "first\n\nref: 25 pass\r\n\x1b[2J\n")
	want := "  first\n\n  ref: 25 pass\n  \\x1b[2J\n"
	if got := buf.String(); got != want {
		t.Errorf("writeIndented = %q; want %q", got, want)
	}
}

func TestTextName(t *testing.T) {
	tests := []struct {
		name, want, why string
	}{
		{"ref", "ref", "plain"},
		{"x/net", "x/net", "a slash is plain"},
		{"broken huffman-zero-padding", "broken huffman-zero-padding", "single spaces and hyphens are plain"},
		{"nghttp2 1.64.0 (C, via cgo)", "nghttp2 1.64.0 (C, via cgo)", "version strings are plain"},
		{"", `""`, "an empty name would leave a line starting with a colon"},
		{"ref: 25 pass", `"ref: 25 pass"`, "a colon could forge a summary line"},
		{"a  b", `"a  b"`, "a run of spaces looks like a column break"},
		{" a", `" a"`, "a leading space hides where the name starts"},
		{"a\tb", `"a\tb"`, "a tab is a column of the text matrix"},
		{"a\nref", `"a\nref"`, "a line break"},
		{"\xff", `"\xff"`, "invalid UTF-8"},
		{"héllo", `"héllo"`, "non-ASCII letters are quoted, so that look-alikes show"},
		{`a"b`, `"a\"b"`, "quotes inside a quoted name are escaped"},
	}
	for _, tt := range tests {
		if got := textName(tt.name); got != tt.want {
			t.Errorf("textName(%q) = %s; want %s (%s)", tt.name, got, tt.want, tt.why)
		}
	}
}

func TestMDText(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"ref 1", "ref 1", "letters, digits and spaces are kept"},
		{"a|b", `a\|b`, "a pipe would end the table cell"},
		{"`code`", "\\`code\\`", "a backtick would open a code span"},
		{"<script>", `\<script\>`, "raw HTML"},
		{"&amp;", `\&amp\;`, "an entity"},
		{"# h", `\# h`, "a heading marker"},
		{"- a", `\- a`, "a list marker"},
		{"[l](http://x)", `\[l\]\(http\:\/\/x\)`, "a link, and the colon of an autolink"},
		{"**b** _i_ ~s~", `\*\*b\*\* \_i\_ \~s\~`, "emphasis and strikethrough"},
		{`a\|b`, `a\\\|b`, "a backslash is escaped too, so it cannot unescape the pipe"},
		{"a\nb", `a\\nb`, "one line: the line feed reads \\n"},
		{"é", "é", "non-ASCII is kept"},
	}
	for _, tt := range tests {
		if got := mdText(tt.in); got != tt.want {
			t.Errorf("mdText(%q) = %q; want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestWriteMarkdownCode(t *testing.T) {
	tests := []struct {
		label, in, want string
	}{
		{"no backticks", "a\nb\n", "```\na\nb\n```\n"},
		{"three", "```\n# h\n```", "````\n```\n# h\n```\n````\n"},
		{"longest run counts", "a ```` b `", "`````\na ```` b `\n`````\n"},
		{"controls shown", "a\rb\x00", "```\na\\rb\\x00\n```\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		writeMarkdownCode(&buf, tt.in)
		if got := buf.String(); got != tt.want {
			t.Errorf("%s: writeMarkdownCode(%q) wrote %q; want %q", tt.label, tt.in, got, tt.want)
		}
	}
}

func TestHTMLLine(t *testing.T) {
	in := "</summary>\n\n<script>&\"'"
	want := `&lt;/summary&gt;\n\n&lt;script&gt;&amp;&#34;&#39;`
	if got := htmlLine(in); got != want {
		t.Errorf("htmlLine(%q) = %q; want %q", in, got, want)
	}
}

func TestJSONText(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"plain", "plain", "valid UTF-8 is kept"},
		{"\x1b[2J\n\x00", "\x1b[2J\n\x00", "controls are kept: JSON escapes them"},
		{"\xff", `\xff`, "an invalid octet would become U+FFFD"},
		{"日\xc3本\x85", `日\xc3本\x85`, "each invalid octet reads as itself between valid runes"},
	}
	for _, tt := range tests {
		if got := jsonText(tt.in); got != tt.want {
			t.Errorf("jsonText(%q) = %q; want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}
