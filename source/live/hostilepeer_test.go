package live

import (
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"net/url"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

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
