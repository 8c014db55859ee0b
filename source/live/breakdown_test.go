package live

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// hostileScript is the battery's script: stories 1, blocks 8, as
// runHostile asks of hpackcert live.
func hostileScript(t *testing.T) *Script {
	t.Helper()
	sc, err := DefaultScript(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if n := sc.Steps(); n != 79 {
		t.Fatalf("the battery's script has %d requests; the breakdowns of hostiles count 79", n)
	}
	return sc
}

// captureHostile captures h in role over h2c or TLS in this process,
// with the battery's settings.
func captureHostile(t *testing.T, h *hostile, role string, tlsOn bool) (*Capture, error) {
	t.Helper()
	ctx := context.Background()
	c := &Capture{Name: h.name, Role: role, Transport: transportName(tlsOn)}
	var err error
	if role == RoleClient {
		run := func(ctx context.Context, urls []string) error {
			u, err := url.Parse(urls[0])
			if err != nil {
				return err
			}
			nc, err := dialHostile(u, tlsOn)
			if err != nil {
				return err
			}
			// The capture ends the run at its time limit, or once the
			// client stopped.
			go func() { <-ctx.Done(); nc.Close() }()
			h.play(nc, false, u, len(urls))
			return nil
		}
		c.Conns, err = CaptureClient(ctx, ClientOptions{Run: run, Requests: hostileRequests, TLS: tlsOn, Timeout: 5 * time.Second, StepTimeout: time.Second})
		return c, err
	}
	c.Where = serveHostile(t, h, tlsOn)
	c.Conns, err = CaptureServer(ctx, ServerOptions{URL: c.Where, Script: hostileScript(t), Known: role == RoleProxy, StepTimeout: time.Second})
	return c, err
}

// TestHostileBreakdowns plays each hostile peer that stops before the
// schedule ends in this process, as a server and as a client, over h2c
// and TLS, and checks the breakdown of its capture word for word: the
// request it stopped at, the connection, what happened, the peer's own
// text escaped. The breakdown reaches the engine through
// transcript.Recording.Breakdown, and is noted on its connection.
func TestHostileBreakdowns(t *testing.T) {
	for i := range hostiles {
		h := &hostiles[i]
		for _, role := range []string{RoleServer, RoleClient} {
			want := h.stop
			if role == RoleClient {
				want = h.clientStop
			}
			if want == "" {
				continue
			}
			for _, tlsOn := range []bool{false, true} {
				t.Run(role+"/"+transportName(tlsOn)+"/"+h.name, func(t *testing.T) {
					t.Parallel()
					c, err := captureHostile(t, h, role, tlsOn)
					if err != nil {
						t.Fatalf("capture: %v; want the breakdown %q", err, want)
					}
					err = c.Breakdown()
					var be *BreakdownError
					if !errors.As(err, &be) {
						t.Fatalf("Breakdown() = %v; want %q", err, want)
					}
					if got := err.Error(); got != want {
						t.Errorf("Breakdown() = %q\nwant         %q", got, want)
					}
					if c.Blocks() == 0 {
						t.Error("no block captured; want the blocks before the stop, graded")
					}
					if !strings.Contains(strings.Join(connNotes(c), "\n"), stopNote(want)) {
						t.Errorf("notes %q; want %q", connNotes(c), stopNote(want))
					}
					tr := c.Transcript()
					target, _, err := tr.Target()
					if err != nil {
						t.Fatal(err)
					}
					bt, ok := target.(interface{ Breakdown() error })
					if !ok || bt.Breakdown() == nil || bt.Breakdown().Error() != want {
						t.Errorf("the target graded carries no breakdown %q", want)
					}
				})
			}
		}
	}
}

func connNotes(c *Capture) []string {
	var out []string
	for _, conn := range c.Conns {
		out = append(out, conn.Notes...)
	}
	return out
}

// TestGracefulGoAwayGoesOn: a server that ends every connection after
// ten requests with GOAWAY NO_ERROR, as one with a limit of requests per
// connection does, is no breakdown: the rest of the schedule goes over a
// new connection, and every request is answered.
func TestGracefulGoAwayGoesOn(t *testing.T) {
	h := &hostile{name: "graceful-goaway-after-10", answers: true, act: behaveThen(gracefulGoAway)}
	for _, tlsOn := range []bool{false, true} {
		t.Run(transportName(tlsOn), func(t *testing.T) {
			c, err := captureHostile(t, h, RoleServer, tlsOn)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Breakdown(); err != nil {
				t.Errorf("Breakdown() = %v; want none", err)
			}
			var names []string
			for _, conn := range c.Conns {
				names = append(names, conn.Name)
			}
			// The targeted connection has more than ten requests, the
			// exercise connection more than thirty; the story and the
			// others fewer.
			if got, want := strings.Join(names, " "), "c00-targeted c00-targeted-conn2 c01-story_21 c02-again-story_21 c03-exercise c03-exercise-conn2 c03-exercise-conn3 c03-exercise-conn4 c04-sizes c05-start-at-zero"; got != want {
				t.Errorf("connections %s; want %s", got, want)
			}
			if c.Blocks() != 79 {
				t.Errorf("%d blocks; want 79, one per request", c.Blocks())
			}
			note := "the target ended the connection (GOAWAY NO_ERROR, last stream 19) after request 10; the requests from 11 on go over a new connection"
			if !strings.Contains(strings.Join(connNotes(c), "\n"), note) {
				t.Errorf("notes %q; want %q", connNotes(c), note)
			}
		})
	}
}

// TestGracefulGoAwayWithoutProgress: a server that ends each new
// connection gracefully before answering a request stops the schedule:
// a new connection would fare no better.
func TestGracefulGoAwayWithoutProgress(t *testing.T) {
	h := &hostile{name: "goaway-at-once", act: func(p *peerConn) error {
		return p.fr.WriteGoAway(0, 0, nil)
	}}
	c, err := captureHostile(t, h, RoleServer, false)
	if err == nil {
		t.Fatalf("capture: %d blocks, breakdown %v; want an error: no block at all", c.Blocks(), c.Breakdown())
	}
	if want := "after its GOAWAY NO_ERROR (last stream 0) before the response to request 1 ended"; !strings.Contains(err.Error(), want) {
		t.Errorf("capture: %v; want it to name %s", err, want)
	}
}

// TestServerGoneAfterGracefulGoAway: a server that ends a connection
// gracefully and then takes no new one stopped where the new connection
// was to go on, on that connection.
func TestServerGoneAfterGracefulGoAway(t *testing.T) {
	ln := refusingListener(t)
	h := &hostile{name: "graceful-goaway-then-gone", answers: true, act: behaveThen(gracefulGoAway)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		nc, err := ln.Accept()
		ln.Close()
		if err == nil {
			h.play(nc, true, nil, 0)
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + ln.Addr().String(), Script: hostileScript(t), StepTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := &Capture{Conns: conns}
	want := fmt.Sprintf("target stopped at request 11 of 79 on connection c00-targeted-conn2: the target took no new connection: dial tcp %s: connect: connection refused", ln.Addr())
	if err := c.Breakdown(); err == nil || err.Error() != want {
		t.Errorf("Breakdown() = %v\nwant         %s", err, want)
	}
	if c.Blocks() != 10 {
		t.Errorf("%d blocks; want the 10 before the stop", c.Blocks())
	}
}

func TestBreakdownText(t *testing.T) {
	stop := Stop{Request: 1, Requests: 9, What: "the client ended after " + counted(0, "request")}
	for _, tc := range []struct {
		got, want string
	}{
		{(&BreakdownError{Stop: stop}).Error(), "target stopped at request 1 of 9: the client ended after 0 requests"},
		{(&BreakdownError{Conn: "c01-story_21", Stop: stop}).Error(), "target stopped at request 1 of 9 on connection c01-story_21: the client ended after 0 requests"},
		{stop.String(), "stopped at request 1 of 9: the client ended after 0 requests"},
		{counted(1, "request"), "1 request"},
		{counted(2, "connection"), "2 connections"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q; want %q", tc.got, tc.want)
		}
	}
}
