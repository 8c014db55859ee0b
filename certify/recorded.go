package certify

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hpackcert/hpackcert/vectors"
)

// RecordedStories returns a target that grades the wire recorded in
// stories (the hpack-test-case format) instead of running an encoder:
// each "wire" is decoded by every oracle and compared with its "headers",
// with the table sizes acknowledged before the block. Only the cases that
// examine existing blocks can run; the others are graded unsupported. A
// story whose cases carry no "wire" (header lists only) has nothing to
// grade: its cases are unsupported, with the reason, not an error. where
// (a directory or a file) names the stories in errors; name names the
// target in reports. The recorded and live sources make their targets
// with it.
func RecordedStories(name, where string, vs []*vectors.Story) (Target, error) {
	dir := where
	t := &recordedTarget{name: name}
	for _, s := range vs {
		if len(s.Cases) == 0 {
			return nil, fmt.Errorf("%s: the story has no cases", s.Path)
		}
		missing := 0
		for _, c := range s.Cases {
			if c.Wire == nil {
				missing++
			}
		}
		switch missing {
		case 0:
			t.stories = append(t.stories, fromVectors([]*vectors.Story{s})...)
		case len(s.Cases):
			t.withoutWire = append(t.withoutWire, filepath.Base(s.Path))
		default:
			// One missing block leaves the compression context of every
			// later block unknown: the story cannot be graded.
			return nil, fmt.Errorf("%s: %d of %d cases have no \"wire\"; a recorded story needs the wire of every case, since each block depends on the ones before it", s.Path, missing, len(s.Cases))
		}
	}
	if len(t.stories) > 0 && len(t.withoutWire) > 0 {
		return nil, fmt.Errorf("%s: %d story files carry \"wire\" and %d do not (%s ...): grade the recorded ones from a directory of their own", dir, len(t.stories), len(t.withoutWire), t.withoutWire[0])
	}
	return t, nil
}

type recordedTarget struct {
	name    string
	stories []story
	// withoutWire names the story files that hold header lists only.
	withoutWire []string
	// breakdown is why the source stopped before it had recorded all it
	// was to record (WithBreakdown).
	breakdown error
	// generated holds the paths of the stories a generated schedule
	// drove (WithGenerated).
	generated map[string]bool
	// role is "request" or "response" for a recording of one role's
	// field sections sent through HTTP (WithFieldRole).
	role string
	// replays maps the path of a story recorded again on a fresh context
	// to the path of its first recording (WithReplay).
	replays map[string]string
	// inferred is set when the stories' lists are inferred
	// (WithInferredLists).
	inferred bool
}

// WithReplay marks the story of a target made by RecordedStories at path
// again as the same input as the story at first, recorded again from a
// fresh context (a live target's second connection playing the same
// schedule): enc/2.2/1 compares their blocks, as it compares a driven
// encoder's two runs. Blocks are compared up to the first whose input
// (the list expected and the settings acknowledged) differs: a target
// that writes its own date may be given a new one. t must come from
// RecordedStories; a path that names no story is an error.
func WithReplay(t Target, again, first string) (Target, error) {
	rt, ok := t.(*recordedTarget)
	if !ok {
		return nil, fmt.Errorf("certify: WithReplay needs a target made by RecordedStories, not %T", t)
	}
	for _, p := range []string{again, first} {
		if rt.story(p) == nil {
			return nil, fmt.Errorf("certify: WithReplay: no recorded story %q in %s", p, rt.name)
		}
	}
	if rt.replays == nil {
		rt.replays = map[string]string{}
	}
	rt.replays[filepath.Base(again)] = filepath.Base(first)
	return t, nil
}

// WithFieldRole marks a target made by RecordedStories as a recording of
// HTTP field sections of one role, "request" or "response" (a live
// target's: a server's or proxy's responses, a client's requests): its
// coverage then says how much of each set that role can carry at all
// (CoverageSet.Reach), and why the rest is out of its reach.
func WithFieldRole(t Target, role string) (Target, error) {
	rt, ok := t.(*recordedTarget)
	if !ok {
		return nil, fmt.Errorf("certify: WithFieldRole needs a target made by RecordedStories, not %T", t)
	}
	if role != "request" && role != "response" {
		return nil, fmt.Errorf("certify: WithFieldRole: role %q; want \"request\" or \"response\"", role)
	}
	rt.role = role
	return t, nil
}

// story returns the recorded story at path, or nil.
func (t *recordedTarget) story(path string) *story {
	for i := range t.stories {
		if t.stories[i].Path == filepath.Base(path) {
			return &t.stories[i]
		}
	}
	return nil
}

// scGenerated is the scenario under which a recording's generated stories
// play (WithGenerated): every case that judges the generated and targeted
// scenarios judges them there.
const scGenerated = "generated"

// WithGenerated marks the stories of a target made by RecordedStories at
// the given paths (as the stories' Path) as driven by a generated
// schedule rather than taken from real traffic: a live target made to
// encode lists built for the cases (every octet, the static table,
// integer boundaries, churn, fields larger than the table). They are
// graded by the cases of the generated and targeted scenarios (enc/3.2/2,
// enc/2.3.2/2, enc/5.2/3, ...) and the other stories by those of the
// traffic (enc/3.2/1, enc/2.3.2/1, ...); a case of both judges both, each
// story once. t must come from RecordedStories; a path that names no
// story is an error.
func WithGenerated(t Target, paths ...string) (Target, error) {
	rt, ok := t.(*recordedTarget)
	if !ok {
		return nil, fmt.Errorf("certify: WithGenerated needs a target made by RecordedStories, not %T", t)
	}
	for _, p := range paths {
		if rt.story(p) == nil {
			return nil, fmt.Errorf("certify: WithGenerated: no recorded story %q in %s", p, rt.name)
		}
		if rt.generated == nil {
			rt.generated = map[string]bool{}
		}
		rt.generated[filepath.Base(p)] = true
	}
	return t, nil
}

// storiesOf returns the recorded stories a scenario plays: the generated
// ones for scGenerated, the others for the traffic.
func (t *recordedTarget) storiesOf(sc string) []story {
	var out []story
	for _, st := range t.stories {
		if t.generated[st.Path] == (sc == scGenerated) {
			out = append(out, st)
		}
	}
	return out
}

// scenariosOf returns the scenarios a case plays on a target: on a
// recording with generated stories, the generated and targeted scenarios
// of the case are the one scenario of those stories.
func scenariosOf(t Target, c *Case) []string {
	rt, ok := t.(*recordedTarget)
	if !ok {
		return c.scenarios
	}
	if len(rt.generated) == 0 {
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

// WithBreakdown marks a target made by RecordedStories as broken down:
// its source stopped before it recorded everything it was to record (a
// live target that closed the connection, reset it or stopped answering
// before its schedule ended, a SETTINGS frame never acknowledged). What
// was recorded is still graded; the breakdown is the target's one failure
// (TargetInfo.Breakdown), and the run fails. A nil err leaves t as it is;
// t must come from RecordedStories.
func WithBreakdown(t Target, err error) Target {
	if rt, ok := t.(*recordedTarget); ok && err != nil {
		rt.breakdown = err
	}
	return t
}

// Breakdown returns the error given to WithBreakdown, or nil.
func (t *recordedTarget) Breakdown() error { return t.breakdown }

func (t *recordedTarget) Name() string { return t.name }
func (t *recordedTarget) NewEncoder() (Encoder, error) {
	return nil, errors.New("recorded stories have no encoder")
}
func (t *recordedTarget) Close() error                 { return nil }
func (t *recordedTarget) recordedStories() []story     { return t.stories }
func (t *recordedTarget) storiesWithoutWire() []string { return t.withoutWire }

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
