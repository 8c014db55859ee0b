package certify

import (
	"errors"
	"fmt"
	"path/filepath"

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
			return nil, fmt.Errorf("certify: %s: the story has no cases", s.Path)
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
			return nil, fmt.Errorf("certify: %s: %d of %d cases have no \"wire\"; a recorded story needs the wire of every case, since each block depends on the ones before it", s.Path, missing, len(s.Cases))
		}
	}
	if len(t.stories) > 0 && len(t.withoutWire) > 0 {
		return nil, fmt.Errorf("certify: %s: %d story files carry \"wire\" and %d do not (%s ...): grade the recorded ones from a directory of their own", dir, len(t.stories), len(t.withoutWire), t.withoutWire[0])
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
			return nil, fmt.Errorf("certify: %s: case %d: %w", s.Path, i, err)
		}
		buf = wire
		c.Wire = append([]byte(nil), wire...)
		c.Seqno = i
		out.Cases[i] = c
	}
	return &out, nil
}
