// Package visible writes untrusted text so that it reads as it was sent
// and cannot act on a terminal, a parser or a page: what an encoder, a
// recorded file or an HTTP/2 peer controls (names, values, errors, stderr,
// GOAWAY debug data) goes through it before any report format escapes it
// further. The engine uses it for the one-line problems it quotes in
// reproductions; package report builds each format's escaper on it.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with each octet sequence a terminal or a parser could
// act on written as a Go-style escape: an octet that is not part of valid
// UTF-8 as \xNN; the C0 controls Go string literals name as \a, \b, \f,
// \n, \r, \t and \v; other C0 controls and DEL as \xNN; C1 controls and
// every other rune that is not graphic (line and paragraph separators,
// bidirectional and other format characters, non-ASCII spaces,
// noncharacters) as \uNNNN or \UNNNNNNNN. keepTab leaves tabs as they
// are, for multi-line text.
//
// A backslash is left as it is, so that a detail which quotes a value in
// Go syntax stays readable; the price is that an encoder which writes the
// four characters \x1b reads the same as one which writes an ESC.
func String(s string, keepTab bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !shownAsIs(r, size, keepTab) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case shownAsIs(r, size, keepTab):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < utf8.RuneSelf && shortEscape[r] != "":
			b.WriteString(shortEscape[r])
		case r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}

// shortEscape holds the escapes of Go string literals for the controls
// that have one, as strconv.Quote writes them.
var shortEscape = [utf8.RuneSelf]string{'\a': `\a`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\v': `\v`}

func shownAsIs(r rune, size int, keepTab bool) bool {
	if r == utf8.RuneError && size == 1 {
		return false // an invalid octet, not U+FFFD itself
	}
	return unicode.IsPrint(r) || (r == '\t' && keepTab)
}

// Line returns s on one line, escaped as String says.
func Line(s string) string { return String(s, false) }

// Lines splits s into lines and escapes each as String says, keeping
// tabs. A carriage return before a line feed is part of the line break;
// line breaks at the end of s are dropped.
func Lines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\r\n"), "\n")
	for i, l := range lines {
		lines[i] = String(strings.TrimSuffix(l, "\r"), true)
	}
	return lines
}

// Text returns s escaped line by line as Lines does.
func Text(s string) string { return strings.Join(Lines(s), "\n") }
