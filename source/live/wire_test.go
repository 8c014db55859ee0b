package live

import (
	"context"
	"net"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

func TestBlocksCarryTheSettingsAckedBeforeThem(t *testing.T) {
	sc := script(t)
	url := startServer(t, nil)
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: sc, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != len(sc.Conns) {
		t.Fatalf("%d connections; want %d", len(conns), len(sc.Conns))
	}
	for ci, c := range conns {
		steps := sc.Conns[ci].Steps
		if len(c.Blocks) != len(steps) {
			t.Fatalf("%s: %d blocks; want one per step, %d (notes %q)", c.Name, len(c.Blocks), len(steps), c.Notes)
		}
		for i, b := range c.Blocks {
			if b.Step != steps[i].Label {
				t.Errorf("%s block %d answers %q; want %q", c.Name, i, b.Step, steps[i].Label)
			}
			want := steps[i].Settings
			if i == 0 && sc.Conns[ci].StartsAtZero {
				want = []uint32{0}
			}
			if !reflect.DeepEqual(b.Acked, want) {
				t.Errorf("%s block %d: acked %v; want the step's settings %v", c.Name, i, b.Acked, want)
			}
			if want, _ := OriginResponse(steps[i].Response); !reflect.DeepEqual(b.Sent, want) {
				t.Errorf("%s block %d: sent %v; want %v", c.Name, i, b.Sent, want)
			}
		}
	}
}

func TestBlocksSpanContinuationFrames(t *testing.T) {
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: startServer(t, nil), Script: script(t), Known: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range conns[0].Blocks {
		if strings.Contains(b.Step, "30000") {
			if len(b.Wire) <= 16384 {
				t.Errorf("the block of %q is %d octets; want more than one frame", b.Step, len(b.Wire))
			}
			return
		}
	}
	t.Error("no block answers the step of a field of 30000 octets")
}

// acksOneInThree is a peer that acknowledges the first of every three
// SETTINGS frames after its first, as a peer that answers frames read
// together with one acknowledgement does.
func acksOneInThree(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		fr := servePreface(nc)
		if fr == nil {
			return
		}
		settings := 0
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				return
			}
			if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
				if settings%3 == 0 {
					fr.WriteSettingsAck()
				}
				settings++
			}
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return "http://" + ln.Addr().String()
}

func TestProbeNotesMissingSettingsAcks(t *testing.T) {
	sc := &Script{Conns: []ScriptConn{{Name: "probe"}}}
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: acksOneInThree(t), Script: sc})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(conns[0].Notes, "\n")
	if !strings.Contains(notes, "3 SETTINGS frames sent in one write got 1 acknowledgements") {
		t.Errorf("notes %q; want the missing acknowledgements noted", notes)
	}
}

func TestProbeQuietForAnExactPeer(t *testing.T) {
	sc := &Script{Conns: []ScriptConn{{Name: "probe"}}}
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: startServer(t, nil), Script: sc})
	if err != nil {
		t.Fatal(err)
	}
	if len(conns[0].Notes) > 0 {
		t.Errorf("notes %q against hpackcert's own server; want none", conns[0].Notes)
	}
}

func TestCaptureServerErrors(t *testing.T) {
	ln := refusingListener(t)
	closed := "http://" + ln.Addr().String()
	ln.Close()
	for _, url := range []string{closed, "ftp://127.0.0.1:1", "127.0.0.1:80"} {
		if _, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: script(t)}); err == nil {
			t.Errorf("CaptureServer(%q) succeeded; want an error", url)
		}
	}
}

// TestRefusingListenerHoldsItsPort checks the tests' closed port: after
// the listener closes, connections are refused and no other listener
// can take the port.
func TestRefusingListenerHoldsItsPort(t *testing.T) {
	ln := refusingListener(t)
	addr := ln.Addr().String()
	ln.Close()
	if nc, err := net.Dial("tcp", addr); err == nil {
		nc.Close()
		t.Errorf("a connection to %s succeeded; want refused", addr)
	}
	if other, err := net.Listen("tcp", addr); err == nil {
		other.Close()
		t.Errorf("another listener took %s", addr)
	}
}
