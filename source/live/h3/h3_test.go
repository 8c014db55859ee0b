package h3

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// decodedSection is a field section of a transcript as the strict
// decoder read it.
type decodedSection struct {
	stream uint64
	list   int
	fields []qpack.Field
}

// replay decodes a transcript with the strict decoder, in its delivery
// order, and returns its sections in the order they were decoded; every
// section must decode, none stay blocked.
func replay(t *testing.T, tr *qpack.Transcript) []decodedSection {
	t.Helper()
	d := qstrict.New(qstrict.Settings{MaxTableCapacity: tr.Settings.MaxTableCapacity, BlockedStreams: tr.Settings.BlockedStreams})
	var written [][]byte // encoder-stream octets written, not yet delivered
	var pending []qpack.Event
	lists := map[uint64]int{}
	var out []decodedSection
	unblocked := func() {
		for _, u := range d.Unblocked() {
			out = append(out, decodedSection{u.StreamID, lists[u.StreamID], u.Fields})
		}
	}
	for i, e := range tr.Events {
		switch e.Kind {
		case qpack.Wrote:
			written = append(written, e.Data)
		case qpack.DeliverEncoderStream:
			if len(written) == 0 || len(written[0]) != e.Count {
				t.Fatalf("event %d: delivers %d encoder-stream octets, not the %d written", i, e.Count, len(written))
			}
			if err := d.EncoderStream(written[0]); err != nil {
				t.Fatalf("event %d: encoder stream: %v", i, err)
			}
			written = written[1:]
			unblocked()
		case qpack.Section:
			pending = append(pending, e)
		case qpack.DeliverSection:
			j := slices.IndexFunc(pending, func(p qpack.Event) bool { return p.Stream == e.Stream })
			if j < 0 {
				t.Fatalf("event %d: delivers a section of stream %d never written", i, e.Stream)
			}
			s := pending[j]
			pending = slices.Delete(pending, j, j+1)
			lists[s.Stream] = s.List
			fields, status, err := d.DecodeSection(s.Stream, s.Data)
			if err != nil {
				t.Fatalf("event %d: section of stream %d: %v", i, s.Stream, err)
			}
			if status == qstrict.Decoded {
				out = append(out, decodedSection{s.Stream, s.List, fields})
			}
		}
	}
	if b := d.BlockedStreams(); len(b) > 0 {
		t.Fatalf("sections of streams %v still blocked at the end", b)
	}
	return out
}

// field returns the value of the field called name in fields, and
// whether there is exactly one.
func field(fields []qpack.Field, name string) (string, bool) {
	var v string
	n := 0
	for _, f := range fields {
		if f.Name == name {
			v, n = f.Value, n+1
		}
	}
	return v, n == 1
}

// checkResponses checks that a server's transcript holds the responses
// to n requests (Request), one per request stream in order, each a 200
// that names the request's path and index as respond does.
func checkResponses(t *testing.T, tr *qpack.Transcript, n int) {
	t.Helper()
	if tr.Settings != settings || tr.Lists != nil {
		t.Errorf("settings %+v, lists %v: want %+v and no lists", tr.Settings, tr.Lists, settings)
	}
	sections := replay(t, tr)
	if len(sections) != n {
		t.Fatalf("%d response sections, want %d", len(sections), n)
	}
	for i, s := range sections {
		want := map[string]string{
			":status":        "200",
			"x-h3live-path":  "/h3live/" + strconv.Itoa(i%4),
			"x-h3live-index": strconv.Itoa(i),
		}
		if s.stream != uint64(4*i) || s.list != -1 {
			t.Errorf("section %d: stream %d list %d, want stream %d list -1", i, s.stream, s.list, 4*i)
		}
		for name, v := range want {
			if got, ok := field(s.fields, name); !ok || got != v {
				t.Errorf("section %d: %s %q (once: %v), want %q in %v", i, name, got, ok, v, s.fields)
			}
		}
	}
}

func TestQuicGoServer(t *testing.T) {
	const n = 8
	tr := capture(t, "quicgo-h3-server", n)
	checkResponses(t, tr, n)
}

func TestQuicGoClient(t *testing.T) {
	const n = 8
	tr := capture(t, "quicgo-h3-client", n)
	if len(tr.Lists) != n {
		t.Fatalf("%d lists, want %d", len(tr.Lists), n)
	}
	for i, l := range tr.Lists {
		if err := sameRequest(l, Request(pc127, i)); err != nil {
			t.Errorf("list %d: %v", i, err)
		}
	}
	sections := replay(t, tr)
	if len(sections) != n {
		t.Fatalf("%d request sections, want %d", len(sections), n)
	}
	for i, s := range sections {
		if s.stream != uint64(4*i) || s.list != i {
			t.Errorf("section %d: stream %d list %d, want stream %d list %d", i, s.stream, s.list, 4*i, i)
			continue
		}
		if !slices.Equal(s.fields, tr.Lists[i]) {
			t.Errorf("section %d decodes to %v, want the list the client encoded %v", i, s.fields, tr.Lists[i])
		}
	}
}

// pc127 stands for the authority of a request to the certifier's
// server, which the client names by its address: sameRequest matches
// any port of 127.0.0.1.
const pc127 = "127.0.0.1:port"

// sameRequest reports how got, the list a client encoded, differs from
// want, a Request: the same fields, the pseudo-fields first, the rest in
// any order (Go keeps them in a map), and an authority on 127.0.0.1.
func sameRequest(got, want []qpack.Field) error {
	for i, f := range got {
		if i > 0 && strings.HasPrefix(f.Name, ":") && !strings.HasPrefix(got[i-1].Name, ":") {
			return fmt.Errorf("pseudo-field %s after a regular field in %v", f.Name, got)
		}
		if f.Name == ":authority" {
			if host, _, err := net.SplitHostPort(f.Value); err != nil || host != "127.0.0.1" {
				return fmt.Errorf(":authority %q is not on 127.0.0.1", f.Value)
			}
		}
	}
	norm := func(l []qpack.Field) []string {
		var out []string
		for _, f := range l {
			if f.Name == ":authority" {
				f.Value = "127.0.0.1"
			}
			out = append(out, f.Name+": "+f.Value)
		}
		slices.Sort(out)
		return out
	}
	if g, w := norm(got), norm(want); !slices.Equal(g, w) {
		return fmt.Errorf("fields %v, want %v", g, w)
	}
	return nil
}

// capture captures the live target name with n requests.
func capture(t *testing.T, name string, n int) *qpack.Transcript {
	t.Helper()
	target, err := NewTarget(name, Options{Requests: n})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	ts, err := target.Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Name != name {
		t.Fatalf("%d transcripts, the first named %q: want one named %q", len(ts), ts[0].Name, name)
	}
	return ts[0]
}

func TestCaddy(t *testing.T) {
	if _, err := caddyPath(); err != nil {
		testenv.Missing(t, err.Error())
	}
	const n = 8
	tr := capture(t, "caddy-h3", n)
	checkResponses(t, tr, n)
}
