package live

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
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
	NeverIndexes *NeverIndexPolicy
	// SentExact is set when each block's Sent is exactly the list the
	// target's encoder was given: hpackcert's own server encoding the
	// script with an encoder of this process (ref-server, a planted bug).
	// A block that decodes to another list is then its encoder's defect,
	// filed under the rule it breaks. Otherwise Sent is what the target
	// was given to relay or answer with, and a list that every oracle
	// decodes alike but otherwise is the target's own doing, an
	// undeclared transformation (certify.WithInferredLists).
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

// Target returns the capture as a target of recorded wire, graded by
// certify.Run like recorded stories: the traffic cases run on the
// connections that played real traffic, the cases of the generated and
// targeted scenarios on the others (certify.WithGenerated), and a
// connection that plays another again is its replay (certify.WithReplay).
// A capture that broke
// down (Breakdown) is marked so (certify.WithBreakdown): the blocks
// captured before are graded, and the breakdown is the target's one
// failure. Its notes are those of Stories, added to the capture's.
func (c *Capture) Target() (certify.Target, error) {
	stories, notes := Stories(c.Conns, c.Transform)
	c.Notes = append(c.Notes, notes...)
	switch {
	case c.SensitiveRelayed:
	case c.SensitiveByName:
		markByName(stories, c.Conns)
	default:
		for _, st := range stories {
			for ci := range st.Cases {
				for fi := range st.Cases[ci].Headers {
					st.Cases[ci].Headers[fi].Sensitive = false
				}
			}
		}
	}
	if p := c.NeverIndexes; p != nil {
		for _, st := range stories {
			for ci := range st.Cases {
				for fi := range st.Cases[ci].Headers {
					h := &st.Cases[ci].Headers[fi]
					h.Sensitive = h.Sensitive || p.Covers(h.Name, h.Value)
				}
			}
		}
	}
	if len(stories) == 0 {
		if err := c.Breakdown(); err != nil {
			return nil, fmt.Errorf("%w from %s (%s): %v", ErrNoBlocks, c.Name, c.Where, err)
		}
		return nil, fmt.Errorf("%w from %s (%s)", ErrNoBlocks, c.Name, c.Where)
	}
	t, err := certify.RecordedStories(c.Name, c.Where, stories)
	if err != nil {
		return nil, err
	}
	// A server's or proxy's connections play either a story of real
	// traffic or lists built for the cases; a client's carry the
	// fields of its run, traffic or generated (ClientRun.Generated).
	var generated []string
	for _, cn := range c.Conns {
		if !cn.Traffic && len(cn.Blocks) > 0 {
			generated = append(generated, cn.Name)
		}
	}
	if t, err = certify.WithGenerated(t, generated...); err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, cn := range c.Conns {
		have[cn.Name] = len(cn.Blocks) > 0
	}
	for _, cn := range c.Conns {
		// Both connections must have recorded blocks: a target that
		// stopped may leave either without a story.
		if cn.ReplayOf != "" && have[cn.Name] && have[cn.ReplayOf] {
			if t, err = certify.WithReplay(t, cn.Name, cn.ReplayOf); err != nil {
				return nil, err
			}
		}
	}
	role := "response"
	if c.Role == RoleClient {
		role = "request"
	}
	if t, err = certify.WithFieldRole(t, role); err != nil {
		return nil, err
	}
	if !c.SentExact {
		if t, err = certify.WithInferredLists(t); err != nil {
			return nil, err
		}
	}
	return certify.WithBreakdown(t, c.Breakdown()), nil
}

// markByName makes the expected fields of each block sensitive exactly
// when their name is one of SensitiveNames of what was sent for it: the
// names the app marked. stories are Stories(conns, ...): one story per
// connection with blocks, one case per block.
func markByName(stories []*vectors.Story, conns []Conn) {
	si := 0
	for _, conn := range conns {
		if len(conn.Blocks) == 0 {
			continue
		}
		st := stories[si]
		si++
		for bi, b := range conn.Blocks {
			names := SensitiveNames(b.Sent)
			for fi := range st.Cases[bi].Headers {
				h := &st.Cases[bi].Headers[fi]
				h.Sensitive = slices.Contains(names, h.Name)
			}
		}
	}
}

// NeverIndexPolicy is the fields an HPACK library sends never-indexed by
// itself (RFC 7541 §7.1.3 leaves the choice to the encoder): every field of
// Names, and cookie fields whose value is shorter than ShortCookie octets
// when ShortCookie is above 0; with StaticFirst, not a field equal to a
// static entry (authorization, cookie and set-cookie with empty values are
// entries 23, 32 and 55), which the library sends by its index. Why says
// where the library does so.
type NeverIndexPolicy struct {
	Names       []string
	ShortCookie int
	StaticFirst bool
	Why         string
}

// Covers reports whether the policy sends the field never-indexed.
func (p *NeverIndexPolicy) Covers(name, value string) bool {
	if p.StaticFirst && slices.Contains(spec.StaticTable[:], spec.Field{Name: name, Value: value}) {
		return false
	}
	if slices.Contains(p.Names, name) {
		return true
	}
	return p.ShortCookie > 0 && name == "cookie" && len(value) < p.ShortCookie
}

// String describes the policy for a report's notes.
func (p *NeverIndexPolicy) String() string {
	s := strings.Join(p.Names, ", ")
	if p.ShortCookie > 0 {
		s += fmt.Sprintf(" and cookies under %d octets", p.ShortCookie)
	}
	if p.StaticFirst {
		s += ", but for fields equal to a static entry"
	}
	return s + " (" + p.Why + ")"
}

// Nghttp2NeverIndex is libnghttp2's deflater's own choice: authorization,
// and cookie values under 20 octets, go never-indexed whatever the flags
// of the nghttp2_nv (nghttp2_hd.c, deflate_nv).
var Nghttp2NeverIndex = &NeverIndexPolicy{Names: []string{"authorization"}, ShortCookie: 20, Why: "libnghttp2's deflater does so whatever the caller's flags"}

// PythonH2NeverIndex is python-h2's: before its hpack encoder sees them,
// h2 turns authorization and proxy-authorization fields, and cookies under
// 20 octets, into never-indexed ones (h2.utilities, secure headers).
var PythonH2NeverIndex = &NeverIndexPolicy{Names: []string{"authorization", "proxy-authorization"}, ShortCookie: 20, Why: "python-h2 marks them so before encoding"}

// JettyNeverIndex is Jetty 9.4's HpackEncoder's: authorization,
// set-cookie and set-cookie2 go never-indexed, by name.
var JettyNeverIndex = &NeverIndexPolicy{Names: []string{"authorization", "set-cookie", "set-cookie2"}, StaticFirst: true, Why: "Jetty's HpackEncoder never-indexes these names, after a field equal to a static entry"}

// sensitiveLack is why enc/7.1.3/1 goes ungraded live.
const sensitiveLack = "a live target encodes fields of its own choosing, and hpackcert cannot mark one sensitive for it; the case is graded when the target sends a field never-indexed itself"

// Grade grades captures in one run, one column each, with opts as
// hpackcert run takes them. Each capture's target is described in the
// report (certify.TargetInfo.Live), so every report writer shows what was
// captured and how.
func Grade(captures []*Capture, opts certify.Options) (*certify.Report, error) {
	var targets []certify.Target
	for _, c := range captures {
		t, err := c.Target()
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
		// The fields a live target sends are its own: hpackcert cannot
		// ask it to mark one sensitive, so the never-indexed rule has
		// nothing to judge unless the target marks one itself. It is the
		// source's lack, declared for every live target (a case it does
		// judge is graded all the same) but a proxy that got the fields
		// never-indexed from an h2c origin, which must relay them so,
		// and a server whose app marks them by name (SensitiveByName).
		if !c.SensitiveRelayed && !c.SensitiveByName && c.NeverIndexes == nil {
			opts.Declared = append(slices.Clip(opts.Declared), certify.Declaration{Case: "enc/7.1.3/1", Encoder: t.Name(), Reason: sensitiveLack})
		}
	}
	rep, err := certify.Run(targets, opts)
	if err != nil {
		return nil, err
	}
	rep.LiveSchedule = ScheduleText()
	for i, c := range captures {
		enc := rep.Encoders[i]
		info := rep.Targets[enc]
		info.Kind = "live"
		info.Live = &certify.LiveInfo{
			Version:   c.Version,
			Role:      c.Role,
			Encoder:   c.Encoder,
			Where:     c.Where,
			Transport: c.Transport,
			Transform: c.Transform.String(),
			Declared:  c.Role != RoleClient || !c.Transform.None(),
			Blocks:    c.Blocks(),
			Conns:     len(c.Conns),
			Notes:     c.Notes,
			Elapsed:   c.Elapsed,
		}
		if c.Role == RoleClient {
			info.Live.Transform = "adds " + strings.Join(c.Transform.Add, ", ")
		}
		rep.Targets[enc] = info
	}
	return rep, nil
}
