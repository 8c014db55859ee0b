package live

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
)

// rfcC31 is the request of RFC 7541 C.3.1: GET http://www.example.com/.
var rfcC31, _ = hex.DecodeString("828684410f7777772e6578616d706c652e636f6d")

// The interfaces a live decoder promises.
var (
	_ certify.DecoderTarget = (*DecoderTarget)(nil)
	_ certify.Decoder       = (*Decoder)(nil)
	_ certify.FieldsHider   = (*Decoder)(nil)
)

// serveLoopback accepts connections on a loopback port until the end of
// the test, handling each with handle in a goroutine of its own, and
// returns the port's http URL. The connections still open are closed
// at the end.
func serveLoopback(t *testing.T, handle func(nc net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, nc)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer nc.Close()
				handle(nc)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, nc := range conns {
			nc.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return "http://" + ln.Addr().String()
}

// serveXNet serves HTTP/2 with prior knowledge (h2c) on a loopback port
// with golang.org/x/net/http2's server, answering every request with 204,
// and returns its URL.
func serveXNet(t *testing.T) string {
	srv := &http2.Server{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	return serveLoopback(t, func(nc net.Conn) { srv.ServeConn(nc, &http2.ServeConnOpts{Handler: handler}) })
}

// newTestDecoderTarget returns a decoder target for url with a short
// block timeout, closed at the end of the test.
func newTestDecoderTarget(t *testing.T, url string, timeout time.Duration) *DecoderTarget {
	t.Helper()
	dt, err := NewDecoderTarget(DecoderOptions{Name: "test", URL: url, BlockTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dt.Close() })
	return dt
}

// openTestDecoder opens a decoder of dt and fails the test when it
// cannot.
func openTestDecoder(t *testing.T, dt *DecoderTarget) *Decoder {
	t.Helper()
	d, err := dt.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	return d.(*Decoder)
}

func TestDecoderXNetServer(t *testing.T) {
	dt := newTestDecoderTarget(t, serveXNet(t), 5*time.Second)
	d := openTestDecoder(t, dt)
	if !d.FieldsHidden() {
		t.Error("FieldsHidden() = false; want true: a server does not echo the fields")
	}
	if err := d.SetMaxDynamicTableSize(4096); err != nil {
		t.Errorf("SetMaxDynamicTableSize(4096), the size x/net advertises: %v", err)
	}
	if err := d.SetMaxDynamicTableSize(0); !errors.Is(err, certify.ErrSettingUnsupported) {
		t.Errorf("SetMaxDynamicTableSize(0) = %v; want an error wrapping ErrSettingUnsupported", err)
	}
	for i := range 3 {
		fields, err := d.DecodeBlock(rfcC31)
		if err != nil || fields != nil {
			t.Fatalf("block %d, RFC 7541 C.3.1: got %v, %v; want nil, nil (accepted)", i+1, fields, err)
		}
		if got := d.LastAnswer(); got != "answered 204" {
			t.Errorf("block %d: LastAnswer() = %q; want \"answered 204\"", i+1, got)
		}
		if d.LastElapsed() <= 0 {
			t.Errorf("block %d: LastElapsed() = %v; want > 0", i+1, d.LastElapsed())
		}
	}
	if _, ok := d.PeakMemory(); ok {
		t.Error("PeakMemory() known for a target without a PID")
	}

	// Index 0 is a decoding error: GOAWAY COMPRESSION_ERROR.
	_, err := d.DecodeBlock([]byte{0x80})
	if !certify.Rejected(err) {
		t.Fatalf("block 0x80 (index 0): got %v; want a refusal", err)
	}
	if !strings.Contains(err.Error(), "GOAWAY COMPRESSION_ERROR") {
		t.Errorf("refusal of 0x80: %q; want it to name GOAWAY COMPRESSION_ERROR", err)
	}
	var g *GoAwayError
	if !errors.As(err, &g) || g.Code != http2.ErrCodeCompression {
		t.Errorf("refusal of 0x80: %v; want a *GoAwayError of COMPRESSION_ERROR", err)
	}
	// The connection is dead; a block on it is a breakdown.
	if _, err := d.DecodeBlock(rfcC31); err == nil || certify.Rejected(err) {
		t.Errorf("a block after a refusal: got %v; want a breakdown", err)
	}
	// The target still serves on a new connection.
	d = openTestDecoder(t, dt)
	if _, err := d.DecodeBlock(rfcC31); err != nil {
		t.Errorf("a valid block on a new connection after a refusal: %v", err)
	}
}

// startFakePeer serves an in-test HTTP/2 peer that does what a test asks
// on every connection: serve gets the connection and a Framer on it once
// the client's preface is read.
func startFakePeer(t *testing.T, serve func(nc net.Conn, fr *http2.Framer) error) string {
	t.Helper()
	return serveLoopback(t, func(nc net.Conn) {
		nc.SetDeadline(time.Now().Add(30 * time.Second))
		preface := make([]byte, len(http2.ClientPreface))
		if _, err := io.ReadFull(nc, preface); err != nil || string(preface) != http2.ClientPreface {
			return
		}
		if err := serve(nc, http2.NewFramer(nc, nc)); err != nil && !closedConn(err) {
			t.Errorf("fake peer: %v", err)
		}
	})
}

// readRequest reads frames, acknowledging the client's SETTINGS, until a
// whole header block of the client's, and returns its stream, the block
// and the count of its CONTINUATION frames.
func readRequest(fr *http2.Framer) (stream uint32, block []byte, continuations int, err error) {
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return 0, nil, 0, err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				if err := fr.WriteSettingsAck(); err != nil {
					return 0, nil, 0, err
				}
			}
		case *http2.HeadersFrame:
			stream = f.StreamID
			block = append(block, f.HeaderBlockFragment()...)
			if f.HeadersEnded() {
				return stream, block, 0, nil
			}
		case *http2.ContinuationFrame:
			continuations++
			block = append(block, f.HeaderBlockFragment()...)
			if f.HeadersEnded() {
				return stream, block, continuations, nil
			}
		}
	}
}

func TestDecoderPeerSettings(t *testing.T) {
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: 1024}, http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: 8000}); err != nil {
			return err
		}
		_, _, _, err := readRequest(fr)
		return err
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
	if size, list, ok := d.PeerSettings(); size != 1024 || list != 8000 || !ok {
		t.Errorf("PeerSettings() = %d, %d, %v; want 1024, 8000, true", size, list, ok)
	}
	for _, c := range []struct {
		set     func(uint32) error
		name    string
		n       uint32
		refused bool
	}{
		{d.SetMaxDynamicTableSize, "SetMaxDynamicTableSize", 1024, false},
		{d.SetMaxDynamicTableSize, "SetMaxDynamicTableSize", 4096, true},
		{d.SetMaxHeaderListSize, "SetMaxHeaderListSize", 0, false},
		{d.SetMaxHeaderListSize, "SetMaxHeaderListSize", 8000, false},
		{d.SetMaxHeaderListSize, "SetMaxHeaderListSize", 65536, false},
		{d.SetMaxHeaderListSize, "SetMaxHeaderListSize", 7999, true},
	} {
		err := c.set(c.n)
		if c.refused != errors.Is(err, certify.ErrSettingUnsupported) || (!c.refused && err != nil) {
			t.Errorf("%s(%d) = %v; want unsupported %v", c.name, c.n, err, c.refused)
		}
	}
}

func TestDecoderSplitsLargeBlocks(t *testing.T) {
	large := bytes.Repeat([]byte{0x82}, 40000) // :method GET, 40,000 times
	got := make(chan []byte, 1)
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		stream, block, continuations, err := readRequest(fr)
		if err != nil {
			return err
		}
		if continuations != 2 {
			t.Errorf("a block of 40,000 octets came with %d CONTINUATION frames; want 2 (frames of 16,384)", continuations)
		}
		got <- block
		// A PING first: the client must answer it and go on reading.
		if err := fr.WritePing(false, [8]byte{1}); err != nil {
			return err
		}
		if err := fr.WriteRSTStream(stream, http2.ErrCodeProtocol); err != nil {
			return err
		}
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				return err
			}
			if p, ok := f.(*http2.PingFrame); ok && p.IsAck() {
				io.Copy(io.Discard, nc)
				return nil
			}
		}
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
	if _, err := d.DecodeBlock(large); err != nil {
		t.Fatalf("a reset stream is an accepted block: got %v", err)
	}
	if got, want := d.LastAnswer(), "reset the stream (RST_STREAM PROTOCOL_ERROR)"; got != want {
		t.Errorf("LastAnswer() = %q; want %q", got, want)
	}
	if b := <-got; !bytes.Equal(b, large) {
		t.Errorf("the peer got %d octets; want the %d of the block", len(b), len(large))
	}
}

func TestDecoderSilentPeerIsABreakdown(t *testing.T) {
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		if _, _, _, err := readRequest(fr); err != nil {
			return err
		}
		io.Copy(io.Discard, nc)
		return nil
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 300*time.Millisecond))
	// The block timeout, not a clock in the test, ends the wait: the
	// breakdown names it (a hang is left to go test's -timeout).
	_, err := d.DecodeBlock(rfcC31)
	if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), "no answer to block 1 (stream 1) within 300ms") {
		t.Errorf("a silent peer: got %v; want a breakdown saying no answer came within the block timeout of 300ms", err)
	}
}

func TestDecoderGarbage(t *testing.T) {
	for _, c := range []struct {
		name    string
		garbage []byte
		want    string
	}{
		{"HTTP/1.1", []byte("HTTP/1.1 400 Bad Request\r\n\r\n"), "frame larger than"},
		{"DATA on stream 0", []byte{0, 0, 1, 0, 0, 0, 0, 0, 0, 'x'}, "not HTTP/2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
				if err := fr.WriteSettings(); err != nil {
					return err
				}
				if _, _, _, err := readRequest(fr); err != nil {
					return err
				}
				if _, err := nc.Write(c.garbage); err != nil {
					return err
				}
				io.Copy(io.Discard, nc)
				return nil
			})
			d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
			_, err := d.DecodeBlock(rfcC31)
			if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v; want a breakdown saying %q", err, c.want)
			}
		})
	}
}

func TestDecoderCloseWithoutGoAwayIsARefusal(t *testing.T) {
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		_, _, _, err := readRequest(fr)
		return err
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
	_, err := d.DecodeBlock(rfcC31)
	if !certify.Rejected(err) || !strings.Contains(err.Error(), "without GOAWAY") {
		t.Errorf("got %v; want a refusal saying the connection closed without GOAWAY", err)
	}
}

func TestDecoderGracefulGoAwayIsABreakdown(t *testing.T) {
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		if _, _, _, err := readRequest(fr); err != nil {
			return err
		}
		return fr.WriteGoAway(0, http2.ErrCodeNo, nil)
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
	_, err := d.DecodeBlock(rfcC31)
	if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), "without taking block 1") {
		t.Errorf("got %v; want a breakdown: the target did not take the stream", err)
	}
}

func TestDecoderNewDecoderAfterTheTargetStopped(t *testing.T) {
	ln := refusingListener(t)
	url := "http://" + ln.Addr().String()
	ln.Close()
	_, err := newTestDecoderTarget(t, url, time.Second).NewDecoder()
	if err == nil || !strings.Contains(err.Error(), "target stopped serving before any connection was served") {
		t.Errorf("NewDecoder of a closed port: %v; want \"target stopped serving before any connection was served\"", err)
	}
	url = startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		io.Copy(io.Discard, nc)
		return nil
	})
	_, err = newTestDecoderTarget(t, url, 300*time.Millisecond).NewDecoder()
	if err == nil || !strings.Contains(err.Error(), "no SETTINGS frame") {
		t.Errorf("NewDecoder of a peer that sends no SETTINGS: %v; want \"no SETTINGS frame\"", err)
	}
}

func TestDecoderTargetURL(t *testing.T) {
	for _, url := range []string{"", "ftp://127.0.0.1:1", "http://127.0.0.1", "127.0.0.1:80"} {
		if _, err := NewDecoderTarget(DecoderOptions{Name: "bad", URL: url}); err == nil {
			t.Errorf("NewDecoderTarget(%q): no error", url)
		}
	}
}
