package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// goAwayTap relays connections to addr and records the GOAWAY frames the
// connecting side sends.
type goAwayTap struct {
	ln   net.Listener
	mu   sync.Mutex
	seen []http2.GoAwayFrame
	wg   sync.WaitGroup
}

func startGoAwayTap(t *testing.T, addr string) *goAwayTap {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tap := &goAwayTap{ln: ln}
	tap.wg.Add(1)
	go func() {
		defer tap.wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", addr)
			if err != nil {
				in.Close()
				continue
			}
			tap.wg.Add(2)
			go func() {
				defer tap.wg.Done()
				io.Copy(in, out)
				in.Close()
			}()
			go func() {
				defer tap.wg.Done()
				defer out.Close()
				in.SetDeadline(time.Now().Add(30 * time.Second))
				r := io.TeeReader(in, out)
				if _, err := io.ReadFull(r, make([]byte, len(http2.ClientPreface))); err != nil {
					return
				}
				fr := http2.NewFramer(nil, r)
				for {
					f, err := fr.ReadFrame()
					if err != nil {
						return
					}
					if g, ok := f.(*http2.GoAwayFrame); ok {
						tap.mu.Lock()
						tap.seen = append(tap.seen, http2.GoAwayFrame{LastStreamID: g.LastStreamID, ErrCode: g.ErrCode})
						tap.mu.Unlock()
					}
				}
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); tap.wg.Wait() })
	return tap
}

// TestGoAwayAsClient: the GOAWAY hpackcert sends as a client names no
// stream of the server's (it takes none, push being refused), not its
// own last request (RFC 9113 §6.8).
func TestGoAwayAsClient(t *testing.T) {
	u := startServer(t, nil)
	tap := startGoAwayTap(t, strings.TrimPrefix(u, "http://"))
	sc := script(t)
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + tap.ln.Addr().String(), Script: sc, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != len(sc.Conns) {
		t.Fatalf("%d connections captured; want %d", len(conns), len(sc.Conns))
	}
	// The tap's readers finish when the capture's connections close: wait
	// for them all, not for a time (a hang is left to go test's -timeout).
	tap.ln.Close()
	tap.wg.Wait()
	tap.mu.Lock()
	defer tap.mu.Unlock()
	if len(tap.seen) != len(sc.Conns) {
		t.Fatalf("%d GOAWAY frames; want one per connection, %d", len(tap.seen), len(sc.Conns))
	}
	for i, g := range tap.seen {
		if g.LastStreamID != 0 || g.ErrCode != http2.ErrCodeNo {
			t.Errorf("GOAWAY %d: last stream %d, %v; want 0, NO_ERROR", i, g.LastStreamID, g.ErrCode)
		}
	}
}

// TestGoAwayAsServer: when hpackcert as a server closes a connection on a
// peer it does not put up with, its GOAWAY names the last stream the
// client opened and the error.
func TestGoAwayAsServer(t *testing.T) {
	var got *http2.GoAwayFrame
	run := func(ctx context.Context, urls []string) error {
		u, err := url.Parse(urls[0])
		if err != nil {
			return err
		}
		nc, err := net.Dial("tcp", u.Host)
		if err != nil {
			return err
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(nc, http2.ClientPreface)
		fr := http2.NewFramer(nc, nc)
		fr.WriteSettings()
		var buf bytes.Buffer
		enc := hpack.NewEncoder(&buf)
		for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "x"}, {":path", Path(0, 0)}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		for _, stream := range []uint32{1, 3} {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: buf.Bytes(), EndHeaders: true, EndStream: true})
		}
		// A frame above SETTINGS_MAX_FRAME_SIZE.
		fr.WriteData(3, false, make([]byte, maxReadFrame+1))
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				return nil
			}
			switch f := f.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					fr.WriteSettingsAck()
				}
			case *http2.GoAwayFrame:
				got = &http2.GoAwayFrame{LastStreamID: f.LastStreamID, ErrCode: f.ErrCode}
				return nil
			}
		}
	}
	_, err := CaptureClient(context.Background(), ClientOptions{Run: run, Timeout: 10 * time.Second, StepTimeout: 2 * time.Second})
	var pe *PeerError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "frame larger than") {
		t.Errorf("CaptureClient: %v; want the PeerError of a frame too large", err)
	}
	if got == nil {
		t.Fatal("no GOAWAY from hpackcert's server")
	}
	if got.LastStreamID != 3 || got.ErrCode != http2.ErrCodeFrameSize {
		t.Errorf("GOAWAY: last stream %d, %v; want 3, FRAME_SIZE_ERROR", got.LastStreamID, got.ErrCode)
	}
}
