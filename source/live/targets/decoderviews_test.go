package targets

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// echoDecoder starts go-server's echo in this process, each echo passed
// through alter first (a planted decoding bug), and returns it as a live
// decoder target declaring what its role cannot show.
func echoDecoder(t *testing.T, alter func([]vectors.Field) []vectors.Field) certify.DecoderTarget {
	t.Helper()
	script, err := live.DefaultScript(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	origin, err := live.StartOrigin("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { origin.Close() })
	env := &startEnv{ctx: context.Background(), dir: t.TempDir(), origin: origin}
	run, err := startGoServer(env, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin.Show(alter(goRequestFields(r)))
		w.WriteHeader(http.StatusNoContent)
	}))
	if err != nil {
		t.Fatal(err)
	}
	dt, err := live.NewDecoderTarget(live.DecoderOptions{Name: "echo", URL: run.url, Stop: run.stop, Shown: origin, View: viewFor("go-server", false)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dt.Close() })
	return certify.DeclareDecoder(dt, decoderLacks("go-server"))
}

// gradeEcho grades an echo decoder on every dec/ case but dec/7.3's,
// the bomb's and the timing's, which judge no field and take long.
func gradeEcho(t *testing.T, alter func([]vectors.Field) []vectors.Field) map[string]*certify.Result {
	t.Helper()
	rep, err := certify.RunDecoders([]certify.DecoderTarget{echoDecoder(t, alter)}, certify.DecoderOptions{
		Cases: []string{"dec/2", "dec/3", "dec/4", "dec/5", "dec/6", "dec/7.1"}, Kinds: map[string]string{"echo": "live"}})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results["echo"]
}

// TestDecoderEchoPlantedBug grades go-server's echo twice: as it is, and
// with a planted bug, the last octet of every value of 127 octets or more
// lost, as a decoder that misreads a string length of several octets
// would. The bug fails dec/5.1/1, the case of integers of several octets,
// and changes nothing else but what it causes; every case a server's role
// can show is graded.
func TestDecoderEchoPlantedBug(t *testing.T) {
	honest := gradeEcho(t, func(f []vectors.Field) []vectors.Field { return f })
	ungraded := 0
	for id, res := range honest {
		switch {
		case res.NotApplicable, len(res.CausedBy) > 0:
		case res.Grade == certify.Unsupported:
			ungraded++
			t.Logf("%s ungraded: %s", id, res.Detail)
		}
		if strings.Contains(res.Detail, "does not show the fields") {
			t.Errorf("%s: %s; want the echo's fields compared", id, res.Detail)
		}
	}
	if ungraded > 3 {
		t.Errorf("%d cases ungraded beyond n/a and consequences; want at most 3", ungraded)
	}
	const planted = "dec/5.1/1"
	if honest[planted].Grade != certify.Pass {
		t.Fatalf("%s without the bug: %s (%s); want a pass", planted, honest[planted].Grade, honest[planted].Detail)
	}
	buggy := gradeEcho(t, func(list []vectors.Field) []vectors.Field {
		for i := range list {
			if len(list[i].Value) >= 127 {
				list[i].Value = list[i].Value[:len(list[i].Value)-1]
			}
		}
		return list
	})
	if got := buggy[planted]; got.Grade != certify.Fail || !strings.Contains(got.Detail, "where") {
		t.Errorf("%s with the bug: %s (%s); want a fail naming the field", planted, got.Grade, got.Detail)
	}
	// A refusal case's grade may change with the machine's load (a close
	// that comes after the settling wait): only new failures are the
	// bug's.
	for id, res := range buggy {
		if id != planted && res.Grade == certify.Fail && honest[id].Grade != certify.Fail {
			t.Errorf("%s with the bug: %s (%s); without: %s; want only %s to fail", id, res.Grade, res.Detail, honest[id].Grade, planted)
		}
	}
}
