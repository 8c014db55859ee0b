package certify

import (
	"errors"
	"fmt"
	"slices"

	ts "github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/vectors"
)

// The encoder side's transcript types, package transcript's: what a
// source hands the engine, and the interface of a source that plays
// scenarios itself.
type (
	// Transcript is one scenario played against one target.
	Transcript = ts.Encoder
	// Player is a target whose source plays each scenario itself.
	Player = ts.EncoderPlayer
	// Recording is what a source recorded of an encoder target.
	Recording = ts.Recording
)

// Recorded returns the engine's target for a recording: the stories a
// source recorded of an encoder, graded instead of running one. It is a
// Player: each scenario a case needs is asked of it once, and answered
// with the recording's stories of that scenario (Play). Only the cases
// that examine existing blocks can run; the others are graded
// unsupported. A story's ReplayOf must name another story of the
// recording, and the recording's Role be "request", "response" or none.
func Recorded(rec *Recording) (Target, error) {
	if rec.Role != "" && rec.Role != "request" && rec.Role != "response" {
		return nil, fmt.Errorf("certify: recording %s: role %q; want \"request\", \"response\" or none", rec.Target, rec.Role)
	}
	t := &recordedTarget{rec: rec}
	for _, st := range rec.Stories {
		if st.ReplayOf != "" && t.story(st.ReplayOf) == nil {
			return nil, fmt.Errorf("certify: story %s of %s replays %q, which the recording does not hold", st.Name, rec.Target, st.ReplayOf)
		}
	}
	return t, nil
}

// RecordedStories returns a target that grades the wire recorded in
// stories (the hpack-test-case format) instead of running an encoder:
// Recorded on their recording (transcript.FromStories), where (a
// directory or a file) naming the stories in errors and name the target
// in reports. A story whose cases carry no "wire" (header lists only)
// has nothing to grade: its cases are unsupported, with the reason, not
// an error.
func RecordedStories(name, where string, vs []*vectors.Story) (Target, error) {
	rec, err := ts.FromStories(name, where, vs)
	if err != nil {
		return nil, err
	}
	return Recorded(rec)
}

// recordedTarget is a recording as the engine grades it.
type recordedTarget struct {
	rec *Recording
}

// story returns the recorded story named name, or nil.
func (t *recordedTarget) story(name string) *ts.Story {
	for i := range t.rec.Stories {
		if t.rec.Stories[i].Name == name {
			return &t.rec.Stories[i]
		}
	}
	return nil
}

// replays maps the name of each story recorded again on a fresh context
// to the name of its first recording.
func (t *recordedTarget) replays() map[string]string {
	out := map[string]string{}
	for _, st := range t.rec.Stories {
		if st.ReplayOf != "" {
			out[st.Name] = st.ReplayOf
		}
	}
	return out
}

// hasGenerated reports whether any story is driven by a generated
// schedule (Story.Generated).
func (t *recordedTarget) hasGenerated() bool {
	return slices.ContainsFunc(t.rec.Stories, func(st ts.Story) bool { return st.Generated })
}

// scGenerated is the scenario under which a recording's generated stories
// play (Story.Generated): every case that judges the generated and targeted
// scenarios judges them there.
const scGenerated = ts.ScenarioGenerated

// Play answers a scenario with the recorded stories it plays: on a
// recording with generated stories, those for scGenerated and the others
// for the traffic; on one without, every story for the traffic, and no
// other scenario.
func (t *recordedTarget) Play(sc string) (*Transcript, error) {
	tr := &Transcript{Scenario: sc}
	switch {
	case t.hasGenerated():
		for _, st := range t.rec.Stories {
			if st.Generated == (sc == scGenerated) {
				tr.Stories = append(tr.Stories, st)
			}
		}
		if len(tr.Stories) == 0 {
			what := "stories of real traffic"
			if sc == scGenerated {
				what = "stories of a generated schedule"
			}
			tr.Unsupported = "the recording holds no " + what
		}
	case sc != scTraffic:
		// One reason for every scenario, so that a case of several says
		// it once.
		tr.Unsupported = "recorded stories carry only their own blocks; the generated and targeted scenarios need an encoder to drive"
	case len(t.rec.Stories) == 0:
		tr.Unsupported = recordedWithoutWire(t.rec.WithoutWire)
	default:
		tr.Stories = t.rec.Stories
	}
	return tr, nil
}

// scenariosOf returns the scenarios a case plays on a target: on a
// recording with generated stories, the generated and targeted scenarios
// of the case are the one scenario of those stories.
func scenariosOf(t Target, c *Case) []string {
	rt, ok := t.(*recordedTarget)
	if !ok {
		return c.scenarios
	}
	if !rt.hasGenerated() {
		if slices.Equal(c.scenarios, []string{vectors.ScenarioOctets}) {
			// The octet case judges the octets a recording carries,
			// whatever its stories are (recordedOctets): a client's
			// requests, a recording of traffic.
			return []string{scTraffic}
		}
		return c.scenarios
	}
	var out []string
	for _, sc := range c.scenarios {
		if sc != scTraffic {
			sc = scGenerated
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// Breakdown returns the recording's breakdown, or nil.
func (t *recordedTarget) Breakdown() error { return t.rec.Breakdown }

func (t *recordedTarget) Name() string { return t.rec.Target }
func (t *recordedTarget) NewEncoder() (Encoder, error) {
	return nil, errors.New("recorded stories have no encoder")
}
func (t *recordedTarget) Close() error { return nil }

// EncodeStory encodes every case of s with a fresh context from t and
// returns a copy of s with each case's "wire" filled in and its "seqno"
// set to its position, 0, 1, 2, ...
func EncodeStory(t Target, s *vectors.Story) (*vectors.Story, error) {
	enc, err := t.NewEncoder()
	if err != nil {
		return nil, err
	}
	defer closeEncoder(enc)
	out := *s
	out.Cases = make([]vectors.Case, len(s.Cases))
	var buf []byte
	for i, c := range s.Cases {
		wire, err := encodeSafely(enc, buf[:0], &c)
		if err != nil {
			return nil, fmt.Errorf("%s: case %d: %w", s.Path, i, err)
		}
		buf = wire
		c.Wire = append([]byte(nil), wire...)
		c.Seqno = i
		out.Cases[i] = c
	}
	return &out, nil
}
