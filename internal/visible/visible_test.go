package visible

import (
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
		if got := String(tt.in, tt.keepTab); got != tt.want {
			t.Errorf("%s: String(%q, %v) = %q; want %q (%s)", tt.label, tt.in, tt.keepTab, got, tt.want, tt.why)
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
		if got := Lines(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Lines(%q) = %q; want %q", tt.label, tt.in, got, tt.want)
		}
	}
}
