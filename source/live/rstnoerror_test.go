package live

import (
	"context"
	"net"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

// resetsAfterAnswering is a peer that answers every request with
// ":status: 200" ending the stream, then resets the stream with code, as
// gRPC C-core does with NO_ERROR after a trailers-only response.
func resetsAfterAnswering(t *testing.T, code http2.ErrCode) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			fr := servePreface(nc)
			if fr == nil {
				nc.Close()
				return
			}
			for {
				f, err := fr.ReadFrame()
				if err != nil {
					break
				}
				switch f := f.(type) {
				case *http2.SettingsFrame:
					if !f.IsAck() {
						fr.WriteSettingsAck()
					}
				case *http2.HeadersFrame:
					fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: []byte{0x88}, EndHeaders: true, EndStream: true})
					fr.WriteRSTStream(f.StreamID, code)
				}
			}
			nc.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return "http://" + ln.Addr().String()
}

func TestResetNoErrorAfterACompleteResponseIsNoNote(t *testing.T) {
	sc := &Script{Conns: []ScriptConn{{Name: "c00", Steps: []Step{{Label: "a"}, {Label: "b"}, {Label: "c"}}}}}
	for _, tc := range []struct {
		code     http2.ErrCode
		wantNote bool
	}{
		{http2.ErrCodeNo, false},
		{http2.ErrCodeCancel, true},
	} {
		conns, err := CaptureServer(context.Background(), ServerOptions{URL: resetsAfterAnswering(t, tc.code), Script: sc})
		if err != nil {
			t.Fatal(err)
		}
		if len(conns) != 1 || len(conns[0].Blocks) != 3 {
			t.Fatalf("RST_STREAM %v: %d connections, blocks %v; want one connection of 3 blocks", tc.code, len(conns), conns)
		}
		noted := strings.Contains(strings.Join(conns[0].Notes, "\n"), "reset by the peer")
		if noted != tc.wantNote {
			t.Errorf("RST_STREAM %v after a complete response: notes %q; want a reset noted: %v", tc.code, conns[0].Notes, tc.wantNote)
		}
	}
}
