// Package livegrade grades what the live source captured: transcripts of
// real HTTP/2 servers, proxies and clients, one per target, each a list of
// connections whose header blocks carry the SETTINGS_HEADER_TABLE_SIZE
// values acknowledged before them, the header list they were sent to
// carry where the source knows it, and their wire. The source
// (source/live) captures and knows the targets; this package holds what
// the engine infers from a capture and how it is graded, so that live is
// a source like the others and nothing grades twice.
//
// Files: livegrade.go, the transcript, its conversion into the encoder
// side's (Transcript.Recording, a transcript.Recording like recorded
// wire's) and Grade (certify.Run on it, each target described in the
// report);
// expect.go, the list each block must decode to, inferred from what was
// sent, the target's declared transformation and the oracles' decoding;
// transform.go, the transformation a target declares (Transform) and its
// syntax; neverindex.go, what an HPACK library sends never-indexed of its
// own accord (NeverIndexPolicy; the libraries' policies are in the
// catalogue, source/live/targets).
package livegrade

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/vectors"
)

// The roles of a live target: what it is to the certifier.
const (
	RoleServer = "server" // an origin server; hpackcert is its client
	RoleProxy  = "proxy"  // a proxy; hpackcert is its client and its origin
	RoleClient = "client" // a client; hpackcert is its server
)

// Block is one header block a target wrote, as it came off the wire.
type Block struct {
	// Acked lists the SETTINGS_HEADER_TABLE_SIZE values the target
	// acknowledged since its previous block, in order: the history its
	// encoder wrote the block under.
	Acked []uint32
	// Wire is the header block, its CONTINUATION fragments joined.
	Wire []byte
	// Sent is the header list the block carries before the target's
	// transformations, in order; nil when the source cannot know it.
	Sent []vectors.Field
	// Step names the request of the script the block belongs to.
	Step string
	// Marked names the fields the target's app was asked to send
	// never-indexed, for a transcript marked ByName.
	Marked []string
}

// Conn is the header blocks of one HTTP/2 connection, in the order the
// target wrote them.
type Conn struct {
	// Name names the connection in reports, such as "c03-story_23".
	Name   string
	Blocks []Block
	// Notes says what went wrong or was left out on the connection.
	Notes []string
	// Traffic is set when the blocks encode a story of real traffic, and
	// unset when they carry lists built for the cases (generated stories).
	Traffic bool
	// ReplayOf names the connection this one plays again from a fresh
	// context (enc/2.2/1), or is empty.
	ReplayOf string
}

// Marks says which fields of a transcript the target must send
// never-indexed, beside those its library's NeverIndexPolicy covers.
type Marks int

const (
	// Unmarked: the source could not ask the target to mark any field, so
	// none is expected never-indexed, and enc/7.1.3/1 is declared
	// unsupported unless a NeverIndexPolicy grades it.
	Unmarked Marks = iota
	// AsSent: the fields Sent marks sensitive, as a proxy that got them
	// never-indexed from an h2c origin must relay them (RFC 7541 §6.2.3).
	AsSent
	// ByName: the fields named in each block's Marked, as an app that
	// marks fields by name was told.
	ByName
)

// Transcript is what the live source captured of one target, with the
// facts about the target the grading needs.
type Transcript struct {
	// Name names the target in reports and in expected failures.
	Name string
	// Version, Role (RoleServer, RoleProxy or RoleClient), Encoder, Where and
	// Transport describe the target in the report (certify.LiveInfo).
	Version, Role, Encoder, Where, Transport string
	// Transform is what the target was declared to do to the lists.
	Transform Transform
	// Marks and NeverIndexes say which fields are expected never-indexed.
	Marks        Marks
	NeverIndexes *NeverIndexPolicy
	// SentExact is set when each block's Sent is exactly the list the
	// target's encoder was given (hpackcert's own server): a block that
	// decodes to another list is its encoder's defect. Otherwise a list
	// every oracle decodes alike but otherwise is the target's own doing,
	// an undeclared transformation (transcript.Recording.InferredLists).
	SentExact bool
	Conns     []Conn
	// Breakdown, when set, is how the target stopped before its schedule
	// ended: its one failure.
	Breakdown error
	// Notes says what went wrong or was left out, one line each.
	Notes   []string
	Elapsed time.Duration
}

// ErrNoBlocks is returned when a transcript holds no header block to
// grade.
var ErrNoBlocks = errors.New("live: no header block was captured")

// sensitiveLack is why enc/7.1.3/1 goes ungraded live.
const sensitiveLack = "a live target encodes fields of its own choosing, and hpackcert cannot mark one sensitive for it; the case is graded when the target sends a field never-indexed itself"

// Target returns the transcript as a target of recorded wire, graded by
// certify.Run like recorded stories (certify.Recorded on Recording), and
// the notes of its stories (Stories).
func (t *Transcript) Target() (certify.Target, []string, error) {
	rec, notes, err := t.Recording()
	if err != nil {
		return nil, notes, err
	}
	target, err := certify.Recorded(rec)
	return target, notes, err
}

// Recording converts the capture into the encoder side's transcript
// (transcript.Recording), the type every source of recorded wire hands
// the engine, and returns it with the notes of its stories (Stories).
// The traffic cases run on the connections that played real traffic,
// the cases of the generated and targeted scenarios on the others
// (Story.Generated), and a connection that plays another again is its
// replay (Story.ReplayOf). A transcript that broke down keeps its
// breakdown (Recording.Breakdown): the blocks captured before are
// graded, and the breakdown is the target's one failure.
func (t *Transcript) Recording() (*transcript.Recording, []string, error) {
	stories, notes := Stories(t.Conns, t.Transform)
	switch t.Marks {
	case AsSent:
	case ByName:
		markByName(stories, t.Conns)
	default:
		for _, st := range stories {
			for ci := range st.Cases {
				for fi := range st.Cases[ci].Headers {
					st.Cases[ci].Headers[fi].Sensitive = false
				}
			}
		}
	}
	if p := t.NeverIndexes; p != nil {
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
		if t.Breakdown != nil {
			return nil, notes, fmt.Errorf("%w from %s (%s): %v", ErrNoBlocks, t.Name, t.Where, t.Breakdown)
		}
		return nil, notes, fmt.Errorf("%w from %s (%s)", ErrNoBlocks, t.Name, t.Where)
	}
	rec, err := transcript.FromStories(t.Name, t.Where, stories)
	if err != nil {
		return nil, notes, err
	}
	// A server's or proxy's connections play either a story of real
	// traffic or lists built for the cases; a client's carry the
	// fields of its run, traffic or generated. Stories made one story
	// per connection with blocks, in order.
	have := map[string]bool{}
	for _, cn := range t.Conns {
		have[cn.Name] = len(cn.Blocks) > 0
	}
	si := 0
	for _, cn := range t.Conns {
		if !have[cn.Name] {
			continue
		}
		st := &rec.Stories[si]
		si++
		st.Generated = !cn.Traffic
		// Both connections must have recorded blocks: a target that
		// stopped may leave either without a story.
		if cn.ReplayOf != "" && have[cn.ReplayOf] {
			st.ReplayOf = cn.ReplayOf
		}
	}
	rec.Role = "response"
	if t.Role == RoleClient {
		rec.Role = "request"
	}
	rec.InferredLists = !t.SentExact
	rec.Breakdown = t.Breakdown
	return rec, notes, nil
}

// markByName makes the expected fields of each block sensitive exactly
// when their name is one its Marked lists. stories are Stories(conns,
// ...): one story per connection with blocks, one case per block.
func markByName(stories []*vectors.Story, conns []Conn) {
	si := 0
	for _, conn := range conns {
		if len(conn.Blocks) == 0 {
			continue
		}
		st := stories[si]
		si++
		for bi, b := range conn.Blocks {
			for fi := range st.Cases[bi].Headers {
				h := &st.Cases[bi].Headers[fi]
				h.Sensitive = slices.Contains(b.Marked, h.Name)
			}
		}
	}
}

// Grade grades transcripts in one run, one column each, with opts as
// hpackcert run takes them, and describes each target in the report
// (certify.TargetInfo.Live) so that every report writer shows what was
// captured and how; schedule describes the SETTINGS_HEADER_TABLE_SIZE
// schedule the targets were driven through (certify.Report.LiveSchedule).
func Grade(ts []Transcript, schedule string, opts certify.Options) (*certify.Report, error) {
	var targets []certify.Target
	notes := make([][]string, len(ts))
	for i := range ts {
		t := &ts[i]
		target, storyNotes, err := t.Target()
		if err != nil {
			return nil, err
		}
		notes[i] = append(slices.Clip(t.Notes), storyNotes...)
		targets = append(targets, target)
		// The fields a live target sends are its own: hpackcert cannot
		// ask it to mark one sensitive, so the never-indexed rule has
		// nothing to judge unless the target marks one itself. It is the
		// source's lack, declared for every live target (a case it does
		// judge is graded all the same) but one whose fields are marked
		// (Marks) or whose library never-indexes some by itself.
		if t.Marks == Unmarked && t.NeverIndexes == nil {
			opts.Declared = append(slices.Clip(opts.Declared), certify.Declaration{Case: "enc/7.1.3/1", Encoder: target.Name(), Reason: sensitiveLack})
		}
	}
	rep, err := certify.Run(targets, opts)
	if err != nil {
		return nil, err
	}
	rep.LiveSchedule = schedule
	for i := range ts {
		t := &ts[i]
		enc := rep.Encoders[i]
		info := rep.Targets[enc]
		info.Kind = "live"
		info.Live = &certify.LiveInfo{
			Version:   t.Version,
			Role:      t.Role,
			Encoder:   t.Encoder,
			Where:     t.Where,
			Transport: t.Transport,
			Transform: t.Transform.String(),
			Declared:  t.Role != RoleClient || !t.Transform.None(),
			Blocks:    t.blocks(),
			Conns:     len(t.Conns),
			Notes:     notes[i],
			Elapsed:   t.Elapsed,
		}
		if t.Role == RoleClient {
			info.Live.Transform = "adds " + strings.Join(t.Transform.Add, ", ")
		}
		rep.Targets[enc] = info
	}
	return rep, nil
}

// blocks returns the number of blocks captured.
func (t *Transcript) blocks() int {
	n := 0
	for _, conn := range t.Conns {
		n += len(conn.Blocks)
	}
	return n
}
