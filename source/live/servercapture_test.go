package live

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// orderedClient returns a client run on x/net's Transport that requests
// at most limit of its URLs (all when limit is 0), one after the other,
// each with headers, all under one name so that the Transport writes them
// in order (it writes distinct names in a map's order; its own
// user-agent and accept-encoding come last).
func orderedClient(headers []vectors.Field, limit int) func(ctx context.Context, urls []string) error {
	return func(ctx context.Context, urls []string) error {
		tr := &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		for i, u := range urls {
			if limit > 0 && i == limit {
				return nil
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return err
			}
			for _, f := range headers {
				req.Header.Add(f.Name, f.Value)
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return nil
	}
}

// runHeaders returns n fields named x-run, values tagged with tag.
func runHeaders(tag string, n int) []vectors.Field {
	var out []vectors.Field
	for i := range n {
		out = append(out, vectors.Field{Name: "x-run", Value: filler(tag+"-"+string(rune('a'+i%26)), 40+i)})
	}
	return out
}

func TestClientRuns(t *testing.T) {
	first, generated := runHeaders("t", 60), runHeaders("g", 90)
	run := orderedClient(first, 0)
	conns, err := CaptureClient(context.Background(), ClientOptions{
		Run: run, Headers: first, Timeout: 30 * time.Second, StepTimeout: 5 * time.Second,
		More: []ClientRun{
			{Name: "client-again", Run: run, Headers: first, Again: FirstRun},
			{Name: "client-generated", Run: orderedClient(generated, 0), Headers: generated, Generated: true},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, replayOf string
		traffic        bool
		path           string
		sent           []vectors.Field
	}{
		{"client-conn0", "", true, Path(0, 0), first},
		{"client-again-conn0", "client-conn0", true, Path(0, 0), first},
		{"client-generated-conn0", "", false, Path(2, 0), generated},
	}
	if len(conns) != len(want) {
		t.Fatalf("%d connections; want %d, one a run", len(conns), len(want))
	}
	for i, w := range want {
		c := conns[i]
		if c.Name != w.name || c.ReplayOf != w.replayOf || c.Traffic != w.traffic {
			t.Errorf("connection %d: %s, replay of %q, traffic %v; want %s, %q, %v", i, c.Name, c.ReplayOf, c.Traffic, w.name, w.replayOf, w.traffic)
		}
		if len(c.Blocks) != DefaultRequests {
			t.Errorf("%s: %d blocks; want %d", c.Name, len(c.Blocks), DefaultRequests)
			continue
		}
		b := c.Blocks[0]
		if p := fieldValue(b.Sent, ":path"); p != w.path {
			t.Errorf("%s: first request for %s; want %s", c.Name, p, w.path)
		}
		if got := b.Sent[4:]; !equalFields(got, w.sent) {
			t.Errorf("%s: first request expected with %d fields after the pseudo-header fields; want the run's %d", c.Name, len(got), len(w.sent))
		}
	}
	capture := &Capture{Name: "x-net-client", Role: RoleClient, Where: "in process", Transform: Transform{Add: []string{"user-agent", "accept-encoding"}}, Conns: conns}
	rep, err := gradeCaptures([]*Capture{capture}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	results := rep.Results[rep.Encoders[0]]
	if r := results["enc/2.2/1"]; r.Grade != certify.Info || !strings.Contains(r.Detail, "deterministic: 14 blocks") {
		t.Errorf("enc/2.2/1: %s, %q; want info, the 14 blocks of the replay identical", r.Grade, r.Detail)
	}
	for _, id := range []string{"enc/3.2/2", "enc/2.3.2/2", "enc/3.2/1"} {
		if r := results[id]; r.Grade != certify.Pass {
			t.Errorf("%s: %s, %q; want pass, graded on the generated run or the traffic", id, r.Grade, r.Detail)
		}
	}
}

func TestClientRunAgainLeftOut(t *testing.T) {
	first := runHeaders("t", 4)
	// The first run makes 3 of its requests and ends: its replay cannot
	// be the same input, and is left out; the generated run is not.
	short := orderedClient(first, 3)
	conns, err := CaptureClient(context.Background(), ClientOptions{
		Run: short, Headers: first, Timeout: 30 * time.Second, StepTimeout: 5 * time.Second,
		More: []ClientRun{
			{Name: "client-again", Run: short, Headers: first, Again: FirstRun},
			{Name: "client-generated", Run: orderedClient(first, 0), Headers: first, Generated: true},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range conns {
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != "client-conn0 client-generated-conn0" {
		t.Fatalf("connections %q; want the first run's and the generated run's", names)
	}
	if conns[0].Stop == nil || conns[0].Stop.Request != 4 {
		t.Errorf("first run's stop %v; want one at request 4", conns[0].Stop)
	}
	const note = "run client-again left out: run client, which it was to make again, did not make all its requests"
	if !strings.Contains(strings.Join(conns[0].Notes, "\n"), note) {
		t.Errorf("notes %q; want %q", conns[0].Notes, note)
	}
}

func TestClientRunsChecked(t *testing.T) {
	run := orderedClient(nil, 0)
	for _, tc := range []struct {
		more []ClientRun
		want string
	}{
		{[]ClientRun{{Name: FirstRun, Run: run}}, `client run "client": want a name of its own`},
		{[]ClientRun{{Name: "", Run: run}}, `client run "": want a name of its own`},
		{[]ClientRun{{Name: "x", Run: run, Again: "y"}}, `client run "x": no run "y" before it to make again`},
		{[]ClientRun{{Name: "x"}}, `client run "x": no Run`},
		{[]ClientRun{{Name: "x", Run: run, Requests: -1}}, `client run "x": -1 requests`},
		{[]ClientRun{{Name: "x", Run: run, Requests: 5}, {Name: "y", Run: run, Again: "x"}}, `client run "y": makes run "x" again with other requests`},
		{[]ClientRun{{Name: "x", Run: run, Steady: true}, {Name: "y", Run: run, Again: "x"}}, `client run "y": makes run "x" again with other requests`},
	} {
		_, err := CaptureClient(context.Background(), ClientOptions{Run: run, More: tc.more})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("runs %+v: %v; want an error saying %q", tc.more, err, tc.want)
		}
	}
}

func TestGeneratedClientHeaders(t *testing.T) {
	small, large := GeneratedClientHeaders("x", false), GeneratedClientHeaders("x", true)
	if len(large) != len(small)+1 || fieldValue(large, "x-giant-c") == "" {
		t.Errorf("large adds %d fields to the %d; want one, the field past one frame", len(large)-len(small), len(small))
	}
	if small[0] != (vectors.Field{Name: "x-hpackcert", Value: "x"}) {
		t.Errorf("first field %v; want x-hpackcert: x", small[0])
	}
	count := map[string]int{}
	fill := 0
	for _, f := range large {
		count[f.Name]++
		if strings.HasPrefix(f.Name, ":") || !isToken(f.Name) || !isFieldValue(f.Value) {
			t.Errorf("field %q is no request field a client can be given", f.Name)
		}
		if strings.HasPrefix(f.Name, "x-fill-") {
			fill += int(f.Size())
		}
	}
	// Repeated in one list of the targeted connection, and no other.
	for name, n := range map[string]int{"set-cookie": 3, "vary": 2, "x-dup": 2, "content-type": 1, "x-hpackcert": 1, "cookie": 1} {
		if count[name] != n {
			t.Errorf("%s given %d times; want %d", name, count[name], n)
		}
	}
	if fill <= 4096 {
		t.Errorf("the fill fields take %d octets of a table; want more than 4096, to evict each other in one block", fill)
	}
}

func fieldValue(list []vectors.Field, name string) string {
	for _, f := range list {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

func equalFields(a, b []vectors.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestClientSteadyRun(t *testing.T) {
	first := runHeaders("t", 4)
	run := orderedClient(first, 0)
	conns, err := CaptureClient(context.Background(), ClientOptions{
		Run: run, Headers: first, Timeout: 30 * time.Second, StepTimeout: 5 * time.Second,
		More: []ClientRun{{Name: "client-steady", Run: run, Headers: first, Requests: 40, Steady: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != 2 || conns[1].Name != "client-steady-conn0" {
		t.Fatalf("%d connections; want client-conn0 and client-steady-conn0", len(conns))
	}
	acked := func(c Conn) int {
		n := 0
		for _, b := range c.Blocks {
			n += len(b.Acked)
		}
		return n
	}
	if n := acked(conns[0]); n == 0 {
		t.Errorf("first run: no table size acknowledged; want ClientSchedule's")
	}
	steady := conns[1]
	if len(steady.Blocks) != 40 {
		t.Fatalf("steady run: %d blocks; want its 40 requests", len(steady.Blocks))
	}
	if n := acked(steady); n != 0 {
		t.Errorf("steady run: %d table sizes acknowledged; want none", n)
	}
	if p := fieldValue(steady.Blocks[39].Sent, ":path"); p != Path(1, 39) {
		t.Errorf("steady run's last request expected for %s; want %s", p, Path(1, 39))
	}
	if steady.Stop != nil || !steady.Traffic {
		t.Errorf("steady run: stop %v, traffic %v; want no stop, traffic", steady.Stop, steady.Traffic)
	}
}

// TestClientOpenConnectionsBounded holds more than maxClientConns
// connections open at once, in a run whose requests allow more in all:
// the capture ends with a PeerError saying so, as each open connection
// may hold a block under way.
func TestClientOpenConnectionsBounded(t *testing.T) {
	run := func(ctx context.Context, urls []string) error {
		u := strings.TrimPrefix(urls[0], "http://")
		u = u[:strings.Index(u, "/")]
		var held []net.Conn
		defer func() {
			for _, nc := range held {
				nc.Close()
			}
		}()
		for range maxClientConns + 6 {
			nc, err := net.Dial("tcp", u)
			if err != nil {
				return nil
			}
			held = append(held, nc)
			io.WriteString(nc, http2.ClientPreface)
		}
		<-ctx.Done()
		return nil
	}
	_, err := CaptureClient(context.Background(), ClientOptions{Run: run, Requests: 128, Timeout: 10 * time.Second, StepTimeout: time.Second})
	var pe *PeerError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "had more than 64 connections open at once") {
		t.Fatalf("CaptureClient: %v; want a PeerError about 64 connections open at once", err)
	}
}
