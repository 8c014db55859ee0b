package live

import (
	"context"
	"net"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// startServer serves the test script with encoders from newEncoder on a
// loopback port and returns its URL.
func startServer(t *testing.T, newEncoder func() certify.Encoder) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Script: script(t), NewEncoder: newEncoder}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// TestPlantedBugs serves the script with encoders that each break one
// rule (certify/internal/broken) and checks that live grades the case as
// hpackcert run grades the same encoder.
func TestPlantedBugs(t *testing.T) {
	for _, tc := range []struct {
		bug  broken.Bug
		id   string
		want certify.Grade
	}{
		{broken.HuffmanZeroPadding, "enc/5.2/1", certify.Fail},
		{broken.NoUpdateAfterDownUp, "enc/4.2/2", certify.Fail},
		{broken.UpdateAboveSetting, "enc/6.3/1", certify.Fail},
		{broken.IndexNotInserted, "enc/3.2/1", certify.Fail},
		{broken.ThreeUpdates, "enc/4.2/3", certify.NonStrict},
		{broken.AlwaysHuffman, "enc/5.2/2", certify.NonStrict},
		{broken.AuthorizationIndexed, "enc/7.1.3/2", certify.NonStrict},
	} {
		t.Run(tc.bug.String(), func(t *testing.T) {
			t.Parallel()
			newEncoder := func() certify.Encoder { return broken.New(tc.bug) }
			url := startServer(t, newEncoder)
			conns, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: script(t), Known: true})
			if err != nil {
				t.Fatal(err)
			}
			c := &Capture{Name: "planted " + tc.bug.String(), Role: RoleServer, Where: url, Conns: conns, SentExact: true}
			opts := certify.Options{Cases: []string{tc.id}}
			live, err := gradeCaptures([]*Capture{c}, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := live.Results[live.Encoders[0]][tc.id]
			if got.Grade != tc.want {
				t.Errorf("live: %s %v (%s); want %v", tc.id, got.Grade, got.Detail, tc.want)
			}
			opts.TrafficStories, opts.TrafficBlocks = 2, 12
			run, err := certify.Run([]certify.Target{certify.Func("broken", newEncoder)}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r := run.Results[run.Encoders[0]][tc.id]; r.Grade != got.Grade {
				t.Errorf("run grades %s %v (%s), live %v", tc.id, r.Grade, r.Detail, got.Grade)
			}
		})
	}
}

func TestCorrectServerPasses(t *testing.T) {
	// The same server with broken's encoder without a bug passes: the
	// planted bugs, not the server, fail the cases above.
	url := startServer(t, func() certify.Encoder { return broken.New(broken.None) })
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: script(t), Known: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := gradeCaptures([]*Capture{{Name: "broken none", Role: RoleServer, Where: url, Conns: conns, SentExact: true}}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	certifytest.WantGrades(t, rep, nil)
}
