package live

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds on a peer's or a started program's words that live writes in a
// note or an error itself.
const (
	// maxPeerText bounds a string from the peer (GOAWAY debug data, a
	// path) quoted in a note or an error, in octets.
	maxPeerText = 96
	// maxPeerLine bounds a line of text from a started program (the end
	// of its output or its log) in an error, in octets.
	maxPeerLine = 512
)

// quotePeer returns a string from the peer quoted with its control and
// non-ASCII characters escaped, cut to maxPeerText octets.
func quotePeer(b []byte) string {
	if len(b) <= maxPeerText {
		return strconv.QuoteToASCII(string(b))
	}
	return strconv.QuoteToASCII(string(b[:maxPeerText])) + fmt.Sprintf(" (%d octets in all)", len(b))
}

// peerText returns s on one line, cut to maxPeerLine octets, with what a
// terminal would act on shown as escapes: C0 and C1 control characters,
// DEL, the Unicode bidirectional controls and invalid UTF-8. Line breaks
// and tabs become spaces.
func peerText(s string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		if b.Len() >= maxPeerLine {
			fmt.Fprintf(&b, "... (%d octets in all)", len(s))
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
	}
	return b.String()
}

// isBidiControl reports whether r is a Unicode bidirectional control:
// the embeddings and overrides U+202A-U+202E, the isolates
// U+2066-U+2069, and the marks U+200E, U+200F and U+061C.
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// cleanError is an error whose text, from a started program or a peer,
// is shown through peerText; errors.Is and As still see the error.
type cleanError struct{ err error }

func (e cleanError) Error() string { return peerText(e.err.Error()) }
func (e cleanError) Unwrap() error { return e.err }

// cleanErr wraps err in cleanError; nil stays nil.
func cleanErr(err error) error {
	if err == nil {
		return nil
	}
	return cleanError{err}
}
