package livegrade

import (
	"errors"
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
