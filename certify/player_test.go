package certify_test

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// storyPlayer is a source that plays its scenarios itself, as a source
// of another package would (certify.Player): it answers the traffic
// scenario with one recorded story, and every other with a reason.
type storyPlayer struct{ story *vectors.Story }

const onlyTraffic = "the player records traffic only"

func (storyPlayer) Name() string { return "player" }
func (storyPlayer) NewEncoder() (certify.Encoder, error) {
	return nil, nil // never called: the player plays its scenarios itself
}
func (storyPlayer) Close() error { return nil }

func (p storyPlayer) Play(sc string) (*certify.Transcript, error) {
	if sc != transcript.ScenarioTraffic {
		return &certify.Transcript{Scenario: sc, Unsupported: onlyTraffic}, nil
	}
	st := transcript.Story{Name: p.story.Path}
	for _, c := range p.story.Cases {
		st.Blocks = append(st.Blocks, transcript.Block{Acked: c.AckedSizes(), Sent: c.Headers, Wire: c.Wire})
	}
	return &certify.Transcript{Scenario: sc, Stories: []transcript.Story{st}}, nil
}

// TestPlayerTranscript grades a source's own transcripts through
// certify.Player: the blocks it hands the engine are graded as recorded
// wire (a defect in them found and placed), and a scenario it does not
// play is unsupported with its reason.
func TestPlayerTranscript(t *testing.T) {
	ref := certify.Func("ref", func() certify.Encoder { return certify.NewReference(encoder.Config{}) })
	in := list(":status", "200", "content-type", "application/javascript")
	size := uint32(256)
	good, err := certify.EncodeStory(ref, &vectors.Story{Path: "good", Cases: []vectors.Case{{Headers: in}, {HeaderTableSize: &size, Headers: in}}})
	if err != nil {
		t.Fatal(err)
	}
	opts := certify.Options{Cases: []string{"enc/3.2/1", "enc/5.2/4", "enc/3.2/2"}}
	rep, err := certify.Run([]certify.Target{storyPlayer{good}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results["player"]
	if r := res["enc/3.2/1"]; r.Grade != certify.Pass || r.Evidence.Blocks != 2 {
		t.Errorf("enc/3.2/1: %v, %d blocks (%s); want pass on the 2 blocks played", r.Grade, r.Evidence.Blocks, r.Detail)
	}
	if r := res["enc/3.2/2"]; r.Grade != certify.Unsupported || !strings.Contains(r.Detail, onlyTraffic) {
		t.Errorf("enc/3.2/2: %v (%s); want unsupported saying %q", r.Grade, r.Detail, onlyTraffic)
	}
	if kind := rep.Targets["player"].Kind; kind != "recorded" {
		t.Errorf("kind %q; want recorded, a source that plays its own scenarios", kind)
	}

	rep, err = certify.Run([]certify.Target{storyPlayer{wrongCodeStory(t)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results["player"]["enc/5.2/4"]; r.Grade != certify.Fail || r.At != "story wrong-code, block 0" {
		t.Errorf("wrong Huffman code: enc/5.2/4 %v at %q (%s); want fail at story wrong-code, block 0", r.Grade, r.At, r.Detail)
	}
}

// TestRecordedReplayOf refuses a recording whose story replays a story
// it does not hold, naming both.
func TestRecordedReplayOf(t *testing.T) {
	rec := &certify.Recording{Target: "rec", Stories: []transcript.Story{{Name: "a", ReplayOf: "nosuch", Blocks: []transcript.Block{{Wire: []byte{0x82}}}}}}
	if _, err := certify.Recorded(rec); err == nil || !strings.Contains(err.Error(), `"nosuch"`) || !strings.Contains(err.Error(), "story a") {
		t.Errorf("Recorded with ReplayOf nosuch: %v; want an error naming story a and \"nosuch\"", err)
	}
	rec.Stories = append(rec.Stories, transcript.Story{Name: "nosuch", Blocks: []transcript.Block{{Wire: []byte{0x82}}}})
	if _, err := certify.Recorded(rec); err != nil {
		t.Errorf("Recorded with ReplayOf a story it holds: %v", err)
	}
}
