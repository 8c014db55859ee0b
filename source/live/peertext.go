package live

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/internal/visible"
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

// PeerText returns s on one line, cut to maxPeerLine octets, with what a
// terminal would act on shown as escapes, as internal/visible writes
// them (C0 and C1 control characters, DEL, the Unicode bidirectional
// controls, invalid UTF-8). Line breaks and tabs become spaces. The
// catalogue of targets quotes its programs' logs through it too.
func PeerText(s string) string {
	out := visible.Line(lineBreaks.Replace(s))
	if len(out) <= maxPeerLine {
		return out
	}
	cut := maxPeerLine
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d octets in all)", out[:cut], len(s))
}

// lineBreaks turns the line breaks and tabs of a peer's text into spaces.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// cleanError is an error whose text, from a started program or a peer,
// is shown through PeerText; errors.Is and As still see the error.
type cleanError struct{ err error }

func (e cleanError) Error() string { return PeerText(e.err.Error()) }
func (e cleanError) Unwrap() error { return e.err }

// cleanErr wraps err in cleanError; nil stays nil.
func cleanErr(err error) error {
	if err == nil {
		return nil
	}
	return cleanError{err}
}
