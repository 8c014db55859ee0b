package live

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/http2"
)

// Stop says where and how a target stopped before its schedule ended on
// one connection: it closed the connection, reset it or the stream of a
// request, sent GOAWAY with an error, stopped answering, or never
// acknowledged a SETTINGS frame (RFC 9113 §6.5.3). The blocks it wrote
// before are graded; the stop is the capture's breakdown
// (Capture.Breakdown), its one failure.
type Stop struct {
	// Request is the request of the schedule the target stopped at,
	// counted from 1 over every connection of the capture, and Requests
	// the schedule's length.
	Request, Requests int
	// What says what happened, what came from the peer escaped and cut.
	What string
}

// String says where the target stopped and how, as a note of its
// connection: "stopped at request 11 of 23: ...".
func (s *Stop) String() string {
	return fmt.Sprintf("stopped at request %d of %d: %s", s.Request, s.Requests, s.What)
}

// BreakdownError is a capture's breakdown: the first Stop of its
// connections.
type BreakdownError struct {
	// Conn names the connection the target stopped on when the capture
	// has several, and is empty otherwise.
	Conn string
	Stop
}

func (e *BreakdownError) Error() string {
	s := fmt.Sprintf("target stopped at request %d of %d", e.Request, e.Requests)
	if e.Conn != "" {
		s += " on connection " + e.Conn
	}
	return s + ": " + e.What
}

// sentSettings is a SETTINGS frame hpackcert sent and the peer has not
// acknowledged yet.
type sentSettings struct {
	settings []http2.Setting
	// before is the request of the schedule the frame was sent before,
	// counted from 1; 0 for the frames sent as the connection began.
	before int
}

// sizes returns the SETTINGS_HEADER_TABLE_SIZE values the frame carries.
func (s sentSettings) sizes() []uint32 {
	var out []uint32
	for _, st := range s.settings {
		if st.ID == http2.SettingHeaderTableSize {
			out = append(out, st.Val)
		}
	}
	return out
}

// String names the frame by its settings and when it was sent:
// "SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request
// 2".
func (s sentSettings) String() string {
	parts := make([]string, len(s.settings))
	for i, st := range s.settings {
		parts[i] = fmt.Sprintf("SETTINGS_%v = %d", st.ID, st.Val)
	}
	when := "at the start of the connection"
	if s.before > 0 {
		when = fmt.Sprintf("before request %d", s.before)
	}
	return fmt.Sprintf("SETTINGS frame (%s) sent %s", strings.Join(parts, ", "), when)
}

// unacknowledged returns the frame whose acknowledgement is missing: the
// first pending one that changes SETTINGS_HEADER_TABLE_SIZE, the
// settings an encoder must apply, or else the first pending.
func (w *wireConn) unacknowledged() sentSettings {
	for _, s := range w.pending {
		if len(s.sizes()) > 0 {
			return s
		}
	}
	return w.pending[0]
}

// settingsStop says that the peer never acknowledged a SETTINGS frame,
// before the step timeout passed or the connection ended on err.
func (w *wireConn) settingsStop(err error, timeout time.Duration) string {
	s := fmt.Sprintf("the target never acknowledged the %v", w.unacknowledged())
	if isTimeout(err) {
		return fmt.Sprintf("%s within %v (RFC 9113 §6.5.3)", s, timeout)
	}
	return s + " (RFC 9113 §6.5.3): " + w.why(err)
}

// why says what ended the connection on err: the peer's GOAWAY with an
// error code, the close or reset of the connection, or err itself.
func (w *wireConn) why(err error) string {
	if g := w.goAway; g != nil && g.code != http2.ErrCodeNo {
		return w.goAwayText()
	}
	var s string
	switch {
	case errors.Is(err, syscall.ECONNRESET):
		s = "the target reset the connection (TCP reset)"
	case closedConn(err):
		s = "the target closed the connection"
	default:
		s = PeerText(err.Error())
	}
	if g := w.goAway; g != nil {
		s += fmt.Sprintf(" after its GOAWAY NO_ERROR (last stream %d)", g.lastStream)
	}
	return s
}

// goAwayText describes the peer's GOAWAY.
func (w *wireConn) goAwayText() string {
	g := w.goAway
	return fmt.Sprintf("the target sent GOAWAY %v%s (last stream %d)", g.code, g.debug, g.lastStream)
}

// isTimeout reports whether err is a deadline that passed.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, errNoAnswer) || (errors.As(err, &ne) && ne.Timeout())
}

// counted returns n and noun, in the plural unless n is 1: "1 request",
// "10 requests".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
