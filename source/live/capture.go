package live

import (
	"time"

	"github.com/hpackcert/hpackcert/certify/livegrade"
)

// Capture is what one target wrote, and what the source knows of the
// target; Transcript hands it to the engine (package livegrade).
type Capture struct {
	// Name names the target in reports and in expected failures: "nginx".
	Name string
	// Version is the target's version, when known: "1.22.1".
	Version string
	// Role is "server", "proxy" or "client".
	Role string
	// Encoder says whose HPACK encoder the target uses, when known.
	Encoder string
	// Where is the URL or command captured.
	Where string
	// Transport is "h2c" (prior knowledge) or "TLS".
	Transport string
	// Transform is what the target was declared to do to the lists.
	Transform Transform
	// SensitiveRelayed is set on a proxy's capture when hpackcert's origin
	// answered it over h2c only: the origin sent the script's sensitive
	// fields never-indexed, and the proxy must relay them so (RFC 7541
	// §6.2.3, "Intermediaries MUST use the same representation"). Over
	// HTTP/1.1 the mark cannot reach the proxy, and the fields are
	// expected as any others.
	SensitiveRelayed bool
	// SensitiveByName is set on the capture of a server whose app marks
	// fields never-indexed by name, as the origin tells it
	// (SensitiveNames, MarksHeader): the fields of those names are
	// expected never-indexed, the script's other sensitive fields as any
	// others.
	SensitiveByName bool
	// NeverIndexes, when set, is what the target's HPACK library sends
	// never-indexed of its own accord, whatever its user asks (libnghttp2's
	// deflater, python-h2): the captured fields it covers are expected
	// never-indexed, beside any the other marks make sensitive, and
	// enc/7.1.3/1 is graded on them.
	NeverIndexes *livegrade.NeverIndexPolicy
	// SentExact is set when each block's Sent is exactly the list the
	// target's encoder was given: hpackcert's own server encoding the
	// script with an encoder of this process (ref-server, a planted bug).
	// A block that decodes to another list is then its encoder's defect,
	// filed under the rule it breaks. Otherwise Sent is what the target
	// was given to relay or answer with (livegrade.Transcript.SentExact).
	SentExact bool
	Conns     []Conn
	// Notes says what went wrong or was left out, one line each.
	Notes   []string
	Elapsed time.Duration
}

// Blocks returns the number of blocks captured.
func (c *Capture) Blocks() int {
	n := 0
	for _, conn := range c.Conns {
		n += len(conn.Blocks)
	}
	return n
}

// Breakdown returns the capture's breakdown, a *BreakdownError: the
// first connection on which the target stopped before its schedule
// ended, or nil.
func (c *Capture) Breakdown() error {
	for _, conn := range c.Conns {
		if conn.Stop == nil {
			continue
		}
		e := &BreakdownError{Stop: *conn.Stop}
		if len(c.Conns) > 1 {
			e.Conn = conn.Name
		}
		return e
	}
	return nil
}

// Transcript returns the capture as the engine grades it: its
// connections' blocks with the settings acknowledged before each, the list
// sent where known and the wire, the fields the target must send
// never-indexed (a proxy's as sent, over h2c; by SensitiveNames for a
// server whose app marks by name), and its breakdown.
func (c *Capture) Transcript() livegrade.Transcript {
	t := livegrade.Transcript{
		Name: c.Name, Version: c.Version, Role: c.Role, Encoder: c.Encoder, Where: c.Where, Transport: c.Transport,
		Transform: c.Transform, NeverIndexes: c.NeverIndexes, SentExact: c.SentExact,
		Breakdown: c.Breakdown(), Notes: c.Notes, Elapsed: c.Elapsed,
	}
	switch {
	case c.SensitiveRelayed:
		t.Marks = livegrade.AsSent
	case c.SensitiveByName:
		t.Marks = livegrade.ByName
	}
	for _, conn := range c.Conns {
		tc := livegrade.Conn{Name: conn.Name, Notes: conn.Notes, Traffic: conn.Traffic, ReplayOf: conn.ReplayOf}
		for _, b := range conn.Blocks {
			tb := livegrade.Block{Acked: b.Acked, Wire: b.Wire, Sent: b.Sent, Step: b.Step}
			if t.Marks == livegrade.ByName {
				tb.Marked = SensitiveNames(b.Sent)
			}
			tc.Blocks = append(tc.Blocks, tb)
		}
		t.Conns = append(t.Conns, tc)
	}
	return t
}

// Transcripts returns the transcripts of captures, in order.
func Transcripts(captures []*Capture) []livegrade.Transcript {
	out := make([]livegrade.Transcript, len(captures))
	for i, c := range captures {
		out[i] = c.Transcript()
	}
	return out
}
