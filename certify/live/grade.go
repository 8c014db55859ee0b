package live

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
)

// Capture is what one target wrote, ready to be graded.
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

// Target returns the capture as a target of recorded wire, graded by
// certify.Run like recorded stories: the traffic cases run on the
// captured blocks, the others are unsupported. Its notes are those of
// Stories, added to the capture's.
func (c *Capture) Target() (certify.Target, error) {
	stories, notes := Stories(c.Conns, c.Transform)
	c.Notes = append(c.Notes, notes...)
	if len(stories) == 0 {
		return nil, fmt.Errorf("%w from %s (%s)", ErrNoBlocks, c.Name, c.Where)
	}
	return certify.RecordedStories(c.Name, c.Where, stories)
}

// Grade grades captures in one run, one column each, with opts as
// hpackcert run takes them.
func Grade(captures []*Capture, opts certify.Options) (*certify.Report, error) {
	var targets []certify.Target
	for _, c := range captures {
		t, err := c.Target()
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	return certify.Run(targets, opts)
}

// WriteSummary writes, for each capture, what was certified and how: the
// role, the encoder, the transport, the declared transformation, the
// blocks and connections captured, and the notes.
func WriteSummary(w io.Writer, captures []*Capture) error {
	for _, c := range captures {
		fmt.Fprintf(w, "%s: %s over %s at %s", c.Name, c.Role, c.Transport, c.Where)
		if c.Version != "" {
			fmt.Fprintf(w, ", version %s", peerText(c.Version))
		}
		if c.Encoder != "" {
			fmt.Fprintf(w, " (HPACK: %s)", c.Encoder)
		}
		fmt.Fprintf(w, "\n  %d header blocks on %d connections in %.1fs\n", c.Blocks(), len(c.Conns), c.Elapsed.Seconds())
		if c.Role != "client" || len(c.Transform.Add)+len(c.Transform.Drop)+len(c.Transform.Replace) > 0 {
			fmt.Fprintf(w, "  declared transformation: %s\n", c.Transform)
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "  note: %s\n", oneLine(n))
		}
	}
	_, err := fmt.Fprintf(w, "settings: %s\n\n", ScheduleText())
	return err
}

// oneLine returns a note on one line, with what a peer or a started
// program put in it that a terminal would act on shown as escapes.
func oneLine(s string) string { return strings.Join(strings.Fields(peerText(s)), " ") }
