package live

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// The hostile-peer battery runs the real hpackcert live in a subprocess
// against HTTP/2 peers that misbehave on purpose, in every role and over
// h2c and TLS, under a 2 GiB address-space ceiling (which keeps a runaway from taking the machine; Go reserves more than 1 GiB of it for its own threads and heap arenas), and holds each run to
// a clear error or verdict (exit 1 or 2) and the memory bound the README
// states (peak RSS 256 MiB). Each run ends by its own --timeout; the
// battery asserts no time (a hang is left to go test's -timeout), only
// that the output names what the peer did.

// hostileClientEnv names the hostile client a re-executed test binary
// plays (hpackcert live runs it as its --client); see TestMain.
const hostileClientEnv = "HPACKCERT_HOSTILE_CLIENT"

// Bounds of the battery: every hostile peer stops by itself after
// hostileRun, so that none outlives the test binary for long.
const (
	hostileRun    = 20 * time.Second
	maxPeakRSSKiB = 256 << 10
	addressSpace  = 2 << 30
)

func TestMain(m *testing.M) {
	testenv.RunMeasured()
	if peer := os.Getenv(hostileClientEnv); peer != "" {
		os.Exit(runHostileClient(peer, os.Args[1:]))
	}
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// hostile is one misbehaving peer. act runs after the connection preface
// (the client's, then a SETTINGS frame each way); raw, when set, runs
// instead, on the bare connection.
type hostile struct {
	name string
	act  func(p *peerConn) error
	raw  func(p *peerConn) error
	// answers makes act read hpackcert's frames through p.events rather
	// than have them dropped.
	answers bool
	// want is what hpackcert's output must say, as a regular expression.
	want string
	// stop and clientStop, when set, are the breakdown the peer must
	// yield (Capture.Breakdown) as a server or proxy and as a client,
	// with the battery's script (stories 1, blocks 8: 79 requests on six
	// connections) and requests (hostileRequests); the note of its
	// connection says the same.
	stop, clientStop string
}

// hostileRequests is the number of requests asked of a hostile client:
// more than the ten some peers make.
const hostileRequests = 16

// peerConn is a hostile peer's end of one connection.
type peerConn struct {
	nc     net.Conn
	fr     *http2.Framer
	server bool
	// path is the request path a hostile client asks for.
	path, authority string
	// requests is the number of URLs a hostile client was given: one
	// that behaves until its lapse makes no more than those.
	requests int
	stop     time.Time
	drained  chan struct{}
	events   chan peerEvent
}

// running reports whether the peer may go on.
func (p *peerConn) running() bool { return time.Now().Before(p.stop) }

// drain reads and drops everything hpackcert sends, so that its writes
// never block and a flood goes on until hpackcert stops it.
func (p *peerConn) drain() {
	p.drained = make(chan struct{})
	go func() {
		io.Copy(io.Discard, p.nc)
		close(p.drained)
	}()
}

// block returns a header block of n octets, each the static entry
// ":method: GET" (index 2): short on the wire, long as a header list.
func block(n int) []byte { return bytes.Repeat([]byte{0x82}, n) }

// bomb writes a block of DefaultMaxBlock-16384 octets on stream, ending
// it.
func (p *peerConn) bomb(stream uint32) error {
	const frames = DefaultMaxBlock/16384 - 1
	if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block(16384), EndStream: true}); err != nil {
		return err
	}
	for i := range frames - 1 {
		if err := p.fr.WriteContinuation(stream, i == frames-2, block(16384)); err != nil {
			return err
		}
	}
	return nil
}

// peerEvent is what a peer that answers read: a SETTINGS frame to
// acknowledge (with whether it changes SETTINGS_HEADER_TABLE_SIZE), or
// the first frame of a header block.
type peerEvent struct {
	settings, tableSize, headers bool
	stream                       uint32
}

// listen reads hpackcert's frames and passes on those an answering peer
// acts on; the peer alone writes.
func (p *peerConn) listen() {
	p.events = make(chan peerEvent, 64)
	go func() {
		defer close(p.events)
		for {
			f, err := p.fr.ReadFrame()
			if err != nil {
				return
			}
			switch f := f.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					_, size := f.Value(http2.SettingHeaderTableSize)
					p.events <- peerEvent{settings: true, tableSize: size}
				}
			case *http2.HeadersFrame:
				p.events <- peerEvent{headers: true, stream: f.StreamID}
			}
		}
	}()
}

// fields encodes a short valid response or request header block.
func (p *peerConn) fields() []byte { return p.request(p.path) }

// request encodes a short valid response, or a request for path, as a
// block that leaves the dynamic table alone.
func (p *peerConn) request(path string) []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	if p.server {
		enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	} else {
		for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", p.authority}, {":path", path}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1], Sensitive: true})
		}
	}
	return buf.Bytes()
}

// lapse is what a peer that behaves for a while does then.
type lapse int

const (
	closeConn      lapse = iota // it closes the connection
	resetConn                   // it resets it (TCP RST)
	goAwayError                 // it sends GOAWAY PROTOCOL_ERROR and closes
	resetStream                 // it resets the stream of the next request
	silent                      // it reads on and writes nothing
	neverAckSizes               // from the start: it never acknowledges a SETTINGS_HEADER_TABLE_SIZE change
	gracefulGoAway              // it sends GOAWAY NO_ERROR naming the ten and closes, as a real server may
)

// behaveThen returns the act of a peer that behaves for ten requests
// (as a server it answers them, as a client it makes them, each after
// the answer to the one before), acknowledging every SETTINGS frame,
// and then does what l says: as a server at the first frame it reads
// after the tenth answer, as a client once it has the tenth answer.
func behaveThen(l lapse) func(p *peerConn) error {
	return func(p *peerConn) error {
		done := 0
		send := func(stream uint32) error {
			return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: p.request(Path(0, done)), EndHeaders: true, EndStream: true})
		}
		// lapsed does what l says; it returns whether the peer is done.
		lapsed := func(stream uint32) (bool, error) {
			switch l {
			case closeConn:
				return true, nil
			case resetConn:
				return true, p.reset()
			case goAwayError:
				return true, p.fr.WriteGoAway(19, http2.ErrCodeProtocol, []byte(hostileText))
			case gracefulGoAway:
				return true, p.fr.WriteGoAway(19, http2.ErrCodeNo, nil)
			case silent:
				for range p.events {
				}
				return true, nil
			case resetStream:
				if !p.server {
					// The eleventh request, reset at once.
					if err := send(stream); err != nil {
						return true, err
					}
					if err := p.fr.WriteRSTStream(stream, http2.ErrCodeCancel); err != nil {
						return true, err
					}
					// Closed once hpackcert has read both (its answer
					// shows it), not under its feet.
					<-p.events
					return true, nil
				}
			}
			return false, nil
		}
		// As a server, play read the first request; as a client, it is
		// made here.
		if err := send(1); err != nil {
			return err
		}
		if p.server {
			done = 1
		}
		for {
			var ev peerEvent
			select {
			case e, ok := <-p.events:
				if !ok {
					return nil
				}
				ev = e
			case <-time.After(time.Until(p.stop)):
				return nil
			}
			if p.server && done == 10 && l != resetStream {
				if stop, err := lapsed(0); stop || err != nil {
					return err
				}
			}
			switch {
			case ev.settings:
				if l == neverAckSizes && ev.tableSize {
					continue
				}
				if err := p.fr.WriteSettingsAck(); err != nil {
					return err
				}
			case ev.headers && p.server:
				done++
				if done == 11 && l == resetStream {
					if err := p.fr.WriteRSTStream(ev.stream, http2.ErrCodeInternal); err != nil {
						return err
					}
					continue
				}
				if err := send(ev.stream); err != nil {
					return err
				}
			case ev.headers:
				done++
				if done == p.requests {
					// Every URL answered.
					return nil
				}
				if done == 10 && l != neverAckSizes {
					if stop, err := lapsed(ev.stream + 2); stop || err != nil {
						return err
					}
				}
				if err := send(ev.stream + 2); err != nil {
					return err
				}
			}
		}
	}
}

// reset closes the connection with a TCP reset.
func (p *peerConn) reset() error {
	nc := p.nc
	if tc, ok := nc.(*tls.Conn); ok {
		nc = tc.NetConn()
	}
	// Closed under TLS, without the close_notify alert tls.Conn.Close
	// sends first.
	if tcp, ok := nc.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	return nc.Close()
}

// hostileText is debug data meant to reach a terminal raw if hpackcert
// printed it so: ESC, BEL, C1 CSI, a bidirectional override.
const hostileText = "\x1b[31mred\a\u009b2J\u202eevil"

var hostiles = []hostile{
	{name: "continuation-endless", want: "header block of more than", act: func(p *peerConn) error {
		if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(16384)}); err != nil {
			return err
		}
		for p.running() {
			if err := p.fr.WriteContinuation(1, false, block(16384)); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "header-list-bomb", want: "verdict: FAIL", answers: true,
		stop:       "target stopped at request 3 of 79 on connection c00-targeted: the target closed the connection before the response to request 3 ended",
		clientStop: "target stopped at request 3 of 16: the client ended after 2 requests",
		act: func(p *peerConn) error {
			// Every request (as a server) or answer (as a client) is met with
			// one block just under the per-block limit whose every octet is a
			// field, a header list of 1M fields for the decoders; SETTINGS
			// are acknowledged, so that the blocks are graded. Two per
			// connection, on the script's six connections, stay under
			// the capture's 16 MiB.
			stream := uint32(1)
			for range 2 {
				if err := p.bomb(stream); err != nil {
					return err
				}
				for next := false; !next; {
					select {
					case ev, ok := <-p.events:
						if !ok {
							return nil
						}
						if ev.settings {
							p.fr.WriteSettingsAck()
						} else if ev.headers {
							next = true
							stream = ev.stream
							if !p.server {
								stream += 2
							}
						}
					case <-time.After(time.Until(p.stop)):
						return nil
					}
				}
			}
			return nil
		}},
	{name: "headers-many-streams", want: "header blocks", act: func(p *peerConn) error {
		for id := uint32(1); p.running(); id += 2 {
			stream := id
			if p.server && id > 1 {
				stream = id - 1 // even streams, the server's
			}
			if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block(8192), EndHeaders: true, EndStream: true}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "push-promise-spam", want: "header blocks", act: func(p *peerConn) error {
		for id := uint32(2); p.running(); id += 2 {
			if err := p.fr.WritePushPromise(http2.PushPromiseParam{StreamID: 1, PromiseID: id, BlockFragment: block(4096), EndHeaders: true}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "goaway-flood", want: "GOAWAY|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteGoAway(0, http2.ErrCodeEnhanceYourCalm, []byte(strings.Repeat(hostileText, 64))); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "goaway-64MB-debug", want: "frame", act: func(p *peerConn) error {
		debug := bytes.Repeat([]byte(hostileText), (1<<24-1-8)/len(hostileText))
		for range 4 {
			if err := p.fr.WriteGoAway(0, http2.ErrCodeEnhanceYourCalm, debug); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "rst-stream-flood", want: "RST_STREAM|frames", act: func(p *peerConn) error {
		for id := uint32(1); p.running(); id += 2 {
			if err := p.fr.WriteRSTStream(id, http2.ErrCodeCancel); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "settings-flood", want: "SETTINGS|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 100}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "ping-flood", want: "PING|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WritePing(false, [8]byte{1}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "window-update-flood", want: "WINDOW_UPDATE|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteWindowUpdate(0, 1); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "data-flood", want: "DATA", act: func(p *peerConn) error {
		if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: p.fields(), EndHeaders: true}); err != nil {
			return err
		}
		data := make([]byte, 16384)
		for p.running() {
			if err := p.fr.WriteData(1, false, data); err != nil {
				return err
			}
		}
		return nil
	}},
	// A client that writes a frame of 1 MiB and hangs up can reset the
	// connection before hpackcert reads the frame's header: hpackcert then
	// names the reset it got instead.
	{name: "oversize-frame", want: "frame|reset by peer", act: func(p *peerConn) error {
		return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(1 << 20), EndHeaders: true})
	}},
	{name: "slowloris", want: "within 1s|no connection|no header block", raw: func(p *peerConn) error {
		p.drain()
		var first bytes.Buffer
		if !p.server {
			first.WriteString(http2.ClientPreface)
		}
		http2.NewFramer(&first, nil).WriteSettings()
		for _, b := range first.Bytes() {
			if !p.running() {
				return nil
			}
			if _, err := p.nc.Write([]byte{b}); err != nil {
				return err
			}
			time.Sleep(time.Second)
		}
		return nil
	}},
	{name: "silence", want: "within 1s|no connection|no header block", raw: func(p *peerConn) error {
		io.Copy(io.Discard, p.nc)
		return nil
	}},
	{name: "settings-never-acknowledged", want: "never acknowledged",
		stop:       "target stopped at request 2 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 1 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_MAX_CONCURRENT_STREAMS = 1) sent at the start of the connection within 1s (RFC 9113 §6.5.3)",
		raw: func(p *peerConn) error {
			// Answers every request (a server) or makes one (a client), and
			// never acknowledges a SETTINGS frame.
			if !p.server {
				io.WriteString(p.nc, http2.ClientPreface)
			}
			if err := p.fr.WriteSettings(); err != nil {
				return err
			}
			if !p.server {
				if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: p.fields(), EndHeaders: true, EndStream: true}); err != nil {
					return err
				}
			} else if _, err := io.ReadFull(p.nc, make([]byte, len(http2.ClientPreface))); err != nil {
				return err
			}
			for p.running() {
				f, err := p.fr.ReadFrame()
				if err != nil {
					return err
				}
				if h, ok := f.(*http2.HeadersFrame); ok && p.server {
					if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: h.StreamID, BlockFragment: p.fields(), EndHeaders: true, EndStream: true}); err != nil {
						return err
					}
				}
			}
			return nil
		}},
	// The peers that behave for a while, then stop: the blocks before
	// are graded, and the stop is the one failure.
	{name: "settings-table-size-never-acknowledged", want: "never acknowledged", answers: true, act: behaveThen(neverAckSizes),
		stop:       "target stopped at request 2 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 2 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)"},
	{name: "stops-after-10", want: "stopped at request 11", answers: true, act: behaveThen(closeConn),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target closed the connection",
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "resets-after-10", want: "stopped at request 11", answers: true, act: behaveThen(resetConn),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target reset the connection (TCP reset)",
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "goaway-error-after-10", want: "stopped at request 11", answers: true, act: behaveThen(goAwayError),
		stop:       `target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target sent GOAWAY PROTOCOL_ERROR "\x1b[31mred\a\u009b2J\u202eevil" (last stream 19)`,
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "rst-stream-at-11", want: "stopped at request 1[12]", answers: true, act: behaveThen(resetStream),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target reset the stream of request 11 (RST_STREAM INTERNAL_ERROR)",
		clientStop: "target stopped at request 12 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 159) sent before request 12 (RFC 9113 §6.5.3): the target closed the connection"},
	{name: "silent-after-10", want: "stopped at request 11", answers: true, act: behaveThen(silent),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 11 of 16: the client was stopped at the time limit of 5s after 10 requests"},
	{name: "connection-churn", want: "connection", raw: func(p *peerConn) error {
		// A server closes every connection at once; a client opens and
		// closes thousands (runHostileClient).
		return nil
	}},
}

func lookupHostile(name string) *hostile {
	for i := range hostiles {
		if hostiles[i].name == name {
			return &hostiles[i]
		}
	}
	return nil
}

// play runs h on nc, a connection whose TLS handshake, if any, is done.
func (h *hostile) play(nc net.Conn, server bool, u *url.URL, requests int) error {
	defer nc.Close()
	p := &peerConn{nc: nc, fr: http2.NewFramer(nc, nc), server: server, stop: time.Now().Add(hostileRun), requests: requests}
	if u != nil {
		p.path, p.authority = u.Path, u.Host
	}
	nc.SetDeadline(p.stop)
	if h.raw != nil {
		return h.raw(p)
	}
	if server {
		// Wait for the client's first request, so that what follows is
		// its answer.
		if _, err := io.ReadFull(nc, make([]byte, len(http2.ClientPreface))); err != nil {
			return err
		}
		if err := p.fr.WriteSettings(); err != nil {
			return err
		}
		for {
			f, err := p.fr.ReadFrame()
			if err != nil {
				return err
			}
			if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
				p.fr.WriteSettingsAck()
			}
			if _, ok := f.(*http2.HeadersFrame); ok {
				break
			}
		}
	} else {
		io.WriteString(nc, http2.ClientPreface)
		if err := p.fr.WriteSettings(); err != nil {
			return err
		}
		// A peer that answers acknowledges hpackcert's SETTINGS as it
		// reads them; the others acknowledge the first unread.
		if !h.answers {
			if err := p.fr.WriteSettingsAck(); err != nil {
				return err
			}
		}
	}
	if h.answers {
		p.listen()
	} else {
		p.drain()
	}
	return h.act(p)
}

// serveHostile serves h on a loopback port, over TLS when tlsOn, and
// returns its URL; it stops when the test ends.
func serveHostile(t *testing.T, h *hostile, tlsOn bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var cfg *tls.Config
	scheme := "http"
	if tlsOn {
		cert, err := NewCertificate()
		if err != nil {
			t.Fatal(err)
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[nc] = true
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { mu.Lock(); delete(conns, nc); mu.Unlock() }()
				if cfg != nil {
					tc := tls.Server(nc, cfg)
					tc.SetDeadline(time.Now().Add(5 * time.Second))
					if tc.Handshake() != nil {
						nc.Close()
						return
					}
					nc = tc
				}
				h.play(nc, true, nil, 0)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for nc := range conns {
			nc.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return scheme + "://" + ln.Addr().String()
}

// runHostileClient is the hostile client name[:tls], dialing the first of
// urls; it returns the exit status of the process.
func runHostileClient(name string, urls []string) int {
	peerName, opt, _ := strings.Cut(name, ":")
	h := lookupHostile(peerName)
	if h == nil || len(urls) == 0 {
		fmt.Fprintf(os.Stderr, "hostile client %q: no such peer, or no URL\n", name)
		return 2
	}
	u, err := url.Parse(urls[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	dial := func() (net.Conn, error) { return dialHostile(u, opt == "tls") }
	if h.name == "connection-churn" {
		stop := time.Now().Add(hostileRun)
		for i := 0; i < 5000 && time.Now().Before(stop); i++ {
			nc, err := dial()
			if err != nil {
				return 0
			}
			io.WriteString(nc, http2.ClientPreface)
			nc.Close()
		}
		return 0
	}
	nc, err := dial()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h.play(nc, false, u, len(urls))
	return 0
}

// dialHostile dials u as a hostile client, over TLS when tlsOn.
func dialHostile(u *url.URL, tlsOn bool) (net.Conn, error) {
	nc, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil || !tlsOn {
		return nc, err
	}
	tc := tls.Client(nc, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	if err := tc.Handshake(); err != nil {
		nc.Close()
		return nil, err
	}
	tc.SetDeadline(time.Time{})
	return tc, nil
}

// hostileResult is one run of hpackcert live against a hostile peer.
type hostileResult struct {
	role, peer, transport string
	status                int
	peakKiB               int64
	took                  time.Duration
	said                  string
}

// TestHostilePeers runs hpackcert live against every hostile peer, as the
// client of a server and of a proxy and as the server of a client, over
// h2c and TLS.
func TestHostilePeers(t *testing.T) {
	testenv.ChildProcesses(t, "hpackcert live and its peak memory")
	bin := filepath.Join(testenv.BuildCommands(t, "cmd/hpackcert"), "hpackcert")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		results []hostileResult
	)
	slots := make(chan struct{}, 4)
	t.Run("peers", func(t *testing.T) {
		for _, role := range []string{RoleServer, RoleProxy, RoleClient} {
			for _, tlsOn := range []bool{false, true} {
				for i := range hostiles {
					h := &hostiles[i]
					transport := transportName(tlsOn)
					t.Run(role+"/"+transport+"/"+h.name, func(t *testing.T) {
						t.Parallel()
						slots <- struct{}{}
						defer func() { <-slots }()
						r := runHostile(t, bin, self, role, h, tlsOn)
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					})
				}
			}
		}
	})
	table := rssTable(results)
	t.Log("peak RSS of hpackcert live per hostile peer:\n" + table)
	if path := os.Getenv("HPACKCERT_HOSTILE_RSS"); path != "" {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// runHostile runs hpackcert live once against h and checks its exit
// status, output and peak RSS; its time is only shown, in the table.
func runHostile(t *testing.T, bin, self, role string, h *hostile, tlsOn bool) hostileResult {
	// A client's breakdowns name its 5 s limit; a server's or proxy's six
	// connections, each waiting up to 1 s on a peer that never answers,
	// get 8 s.
	limit := "8s"
	if role == RoleClient {
		limit = "5s"
	}
	args := []string{"live", "--step-timeout", "1s", "--timeout", limit, "--stories", "1", "--blocks", "8", "--requests", strconv.Itoa(hostileRequests)}
	var env []string
	var inherited []*os.File
	switch role {
	case RoleServer, RoleProxy:
		u := serveHostile(t, h, tlsOn)
		args = append(args, "--"+role, u)
		if role == RoleProxy {
			// The origin's listener is handed down: a port chosen free
			// and bound later by hpackcert may be taken in between.
			inherited = append(inherited, loopbackListenerFile(t))
			args = append(args, "--origin", "fd:3")
		}
	case RoleClient:
		peer := h.name
		if tlsOn {
			peer += ":tls"
			args = append(args, "--tls")
		}
		args = append(args, "--client", shell.Quote(self)+" {urls}")
		env = append(env, hostileClientEnv+"="+peer)
	}
	cmd, peakKiB := testenv.MeasuredCommand(t, addressSpace, bin, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.ExtraFiles = inherited
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	r := hostileResult{role: role, peer: h.name, transport: transportName(tlsOn), took: time.Since(began), said: out.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.status = exit.ExitCode()
	default:
		t.Fatalf("hpackcert live: %v", err)
	}
	if kib, err := peakKiB(); err == nil {
		r.peakKiB = kib
	} else {
		t.Errorf("%v\n%s", err, lastLines(r.said, 6))
	}
	said := lastLines(r.said, 6)
	if r.status != 1 && r.status != 2 {
		t.Errorf("exit status %d; want 1 or 2 (a failed case or an error)\n%s", r.status, said)
	}
	if r.peakKiB > maxPeakRSSKiB {
		t.Errorf("peak RSS %d KiB; want at most %d KiB\n%s", r.peakKiB, maxPeakRSSKiB, said)
	}
	for _, bad := range []string{"panic:", "fatal error:", "out of memory", "goroutine "} {
		if strings.Contains(r.said, bad) {
			t.Errorf("output has %q: hpackcert crashed\n%s", bad, said)
		}
	}
	if !regexp.MustCompile(h.want).MatchString(r.said) {
		t.Errorf("output does not match %q (the peer's behaviour named)\n%s", h.want, said)
	}
	stop := h.stop
	if role == RoleClient {
		stop = h.clientStop
	}
	if note := stopNote(stop); stop != "" && !strings.Contains(r.said, note) {
		t.Errorf("output does not say %q (the breakdown, noted on its connection)\n%s", note, said)
	}
	if stop != "" && r.status != 1 {
		t.Errorf("exit status %d; want 1, the breakdown's failure\n%s", r.status, said)
	}
	if strings.ContainsAny(r.said, "\x1b\a\u009b\u202e") {
		t.Errorf("output holds a raw control or bidirectional character from the peer\n%q", said)
	}
	return r
}

// stopNote returns the note of the connection a breakdown happened on:
// "stopped at request N of M: what".
func stopNote(breakdown string) string {
	head, what, _ := strings.Cut(breakdown, ": ")
	head = strings.TrimPrefix(head, "target ")
	if i := strings.Index(head, " on connection "); i >= 0 {
		head = head[:i]
	}
	return head + ": " + what
}

// loopbackListenerFile returns the file of a listener on a loopback port
// of the kernel's choice, for the origin behind a hostile proxy; the test
// closes it at its end (the child holds its own copy).
func loopbackListenerFile(t *testing.T) *os.File {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.File()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "..."
		}
	}
	return strings.Join(lines, "\n")
}

// rssTable renders the results, one line per run, sorted by role,
// transport and peer.
func rssTable(results []hostileResult) string {
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if a.role != b.role {
			return a.role < b.role
		}
		if a.transport != b.transport {
			return a.transport < b.transport
		}
		return a.peer < b.peer
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-4s %-28s %4s %9s %7s  %s\n", "role", "tr", "peer", "exit", "peak MiB", "time s", "what hpackcert said last")
	for _, r := range results {
		said := lastLines(r.said, 1)
		if len(said) > 400 {
			said = said[:400] + "..."
		}
		fmt.Fprintf(&b, "%-7s %-4s %-28s %4d %9.1f %7.1f  %s\n", r.role, r.transport, r.peer, r.status, float64(r.peakKiB)/1024, r.took.Seconds(), said)
	}
	return b.String()
}

// transportName is how the battery's table names a transport.
func transportName(tlsOn bool) string {
	if tlsOn {
		return "TLS"
	}
	return "h2c"
}
