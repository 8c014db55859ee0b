package livegrade

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// TestGradeDescribesTargets grades a server's transcript and a client's
// and checks what the report says of each: kind live, the facts of the
// transcript, the transformation as the report words it (a client's is
// what it adds, declared only when it adds anything), the blocks and
// connections counted, the transcript's notes then those of its stories,
// the schedule; and enc/7.1.3/1 declared for a target whose fields nothing
// marks, not for one marked as sent.
func TestGradeDescribesTargets(t *testing.T) {
	conns := func() []Conn {
		return []Conn{{Name: "empty", Notes: []string{"nothing"}}, {Name: "c", Traffic: true, Blocks: []Block{{Wire: []byte{0x88}, Step: "s"}}}}
	}
	ts := []Transcript{
		{Name: "srv", Version: "1.0", Role: RoleServer, Encoder: "e", Where: "http://x", Transport: "h2c", Transform: Transform{Add: []string{"date"}, Why: "why"}, Notes: []string{"a note"}, Conns: conns()},
		{Name: "cli", Role: RoleClient, Where: "cmd", Transport: "TLS", Marks: AsSent, Conns: conns()},
	}
	rep, err := Grade(ts, "the schedule", certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LiveSchedule != "the schedule" || !reflect.DeepEqual(rep.Encoders, []string{"srv", "cli"}) {
		t.Fatalf("schedule %q, encoders %q; want the schedule given and srv, cli", rep.LiveSchedule, rep.Encoders)
	}
	unknown := "c: 1 of 1 blocks with a header list hpackcert does not know, graded on their own decoded list"
	for _, want := range []struct {
		name string
		info certify.LiveInfo
	}{
		{"srv", certify.LiveInfo{Version: "1.0", Role: RoleServer, Encoder: "e", Where: "http://x", Transport: "h2c", Transform: "adds date (why)", Declared: true, Blocks: 1, Conns: 2, Notes: []string{"a note", "empty: nothing", unknown}}},
		{"cli", certify.LiveInfo{Role: RoleClient, Where: "cmd", Transport: "TLS", Transform: "adds ", Blocks: 1, Conns: 2, Notes: []string{"empty: nothing", unknown}}},
	} {
		info := rep.Targets[want.name]
		if info.Kind != "live" || info.Live == nil || !reflect.DeepEqual(*info.Live, want.info) {
			t.Errorf("%s: kind %q, live %+v\nwant live %+v", want.name, info.Kind, info.Live, want.info)
		}
	}
	if res := rep.Results["srv"]["enc/7.1.3/1"]; res.Declared == "" {
		t.Errorf("srv: enc/7.1.3/1 %v, not declared; want it declared (nothing marks its fields)", res.Grade)
	}
	if res := rep.Results["cli"]["enc/7.1.3/1"]; res.Declared != "" {
		t.Errorf("cli: enc/7.1.3/1 declared %q; want it graded (its fields are marked as sent)", res.Declared)
	}
	if !reflect.DeepEqual(ts[0].Notes, []string{"a note"}) {
		t.Errorf("the transcript's notes became %q; want them left as they were", ts[0].Notes)
	}
}

// TestGradeNoBlocks: a transcript without a block is an error naming the
// target, where it was and, when it broke down, how.
func TestGradeNoBlocks(t *testing.T) {
	ts := []Transcript{{Name: "t", Where: "http://x", Role: RoleServer, Conns: []Conn{{Name: "c"}}, Breakdown: errors.New("target stopped at request 1 of 2: closed")}}
	_, err := Grade(ts, "", certify.Options{})
	if !errors.Is(err, ErrNoBlocks) || !strings.Contains(err.Error(), "from t (http://x): target stopped at request 1 of 2: closed") {
		t.Errorf("Grade = %v; want ErrNoBlocks naming t, its URL and its breakdown", err)
	}
}

// TestRecording converts a capture into the encoder side's transcript:
// one story per connection with blocks, named after it, each block with
// its acknowledged sizes and wire; the generated connections marked so,
// a replay kept only when both connections have blocks; a client's
// requests, a server's responses; lists inferred unless sent exactly;
// the breakdown kept.
func TestRecording(t *testing.T) {
	stop := errors.New("stopped")
	b := Block{Acked: []uint32{0}, Wire: []byte{0x20, 0x88}}
	tr := Transcript{Name: "srv", Where: "http://x", Role: RoleServer, Breakdown: stop, Conns: []Conn{
		{Name: "traffic", Traffic: true, Blocks: []Block{b}},
		{Name: "gen", Blocks: []Block{b, b}},
		{Name: "again", ReplayOf: "gen", Blocks: []Block{b, b}},
		{Name: "lost", ReplayOf: "none", Blocks: []Block{b}},
		{Name: "empty"},
	}}
	rec, _, err := tr.Recording()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range rec.Stories {
		got = append(got, fmt.Sprintf("%s/%d/%v/%s", st.Name, len(st.Blocks), st.Generated, st.ReplayOf))
	}
	want := []string{"traffic/1/false/", "gen/2/true/", "again/2/true/gen", "lost/1/true/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stories %q; want %q", got, want)
	}
	if blk := rec.Stories[1].Blocks[1]; !reflect.DeepEqual(blk.Acked, b.Acked) || !reflect.DeepEqual(blk.Wire, b.Wire) {
		t.Errorf("block gen/1: acked %v, wire %x; want %v, %x", blk.Acked, blk.Wire, b.Acked, b.Wire)
	}
	if rec.Target != "srv" || rec.Role != "response" || !rec.InferredLists || !errors.Is(rec.Breakdown, stop) {
		t.Errorf("recording %q role %q, inferred %v, breakdown %v; want srv, response, inferred, stopped", rec.Target, rec.Role, rec.InferredLists, rec.Breakdown)
	}
	tr.Role, tr.SentExact = RoleClient, true
	if rec, _, err = tr.Recording(); err != nil {
		t.Fatal(err)
	}
	if rec.Role != "request" || rec.InferredLists {
		t.Errorf("a client's recording sent exactly: role %q, inferred %v; want request, not inferred", rec.Role, rec.InferredLists)
	}
}
