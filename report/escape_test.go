package report

import (
	"bytes"
	"testing"
)

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
		{"recorded:nghttp2", "recorded:nghttp2", "a colon inside a word forges nothing: a recording's name"},
		{"recorded:", `"recorded:"`, "a colon at the end would read as the summary's"},
		{"a:b: 3 pass", `"a:b: 3 pass"`, "a colon before a space could forge a summary line"},
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
