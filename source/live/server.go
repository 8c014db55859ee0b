package live

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// Server bounds: connections served at once, requests per connection,
// and how long a connection may stay silent.
const (
	maxServerConns    = 64
	maxConnRequests   = 100000
	serverIdleTimeout = 30 * time.Second
)

// Server is an HTTP/2 server written on the Framer, for the roles in
// which hpackcert answers: it answers a request for a step of its script
// (/hpackcert/C/S) with OriginResponse of the step's list, and any other
// request with a short 200, encoding every response with an encoder of
// its own. With the reference encoder it is the h2c side of Origin; with
// an encoder that has a planted bug (certify/internal/broken), a server
// whose bug hpackcert live must find. It serves h2c with prior knowledge,
// or TLS with ALPN h2 when TLSConfig is set, on a listener the caller
// gives it.
type Server struct {
	// Script gives the answers; nil answers every request with a short
	// 200.
	Script *Script
	// NewEncoder returns the encoder of one connection's responses; nil
	// means the reference encoder.
	NewEncoder func() certify.Encoder
	// TLSConfig, when set, makes Serve speak TLS; its NextProtos should
	// hold "h2".
	TLSConfig *tls.Config

	// capture, when set, is the client run under way: it keeps the blocks
	// of every connection accepted during the run (the client's
	// requests), and ClientSchedule's settings go between requests.
	capture *clientCapture
	// served, when set, is called for every request answered, and
	// decoded with the fields of every request that decodes.
	served  func()
	decoded func([]vectors.Field)

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	closed bool
	wg     sync.WaitGroup
}

// Serve accepts connections on ln until Close, at most 64 at a time, and
// serves each.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return net.ErrClosed
	}
	s.ln = ln
	s.mu.Unlock()
	slots := make(chan struct{}, maxServerConns)
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return err
		}
		// A connection belongs to the client run under way when it is
		// accepted.
		cc := s.currentCapture()
		if cc != nil {
			if err := cc.accepted(nc); err != nil {
				nc.Close()
				continue
			}
		}
		slots <- struct{}{}
		if !s.track(nc) {
			nc.Close()
			if cc != nil {
				cc.untrack(nc)
			}
			return nil
		}
		s.wg.Add(1)
		go func() {
			// The connection is tracked as accepted, TLS or not.
			defer func() {
				s.untrack(nc)
				if cc != nil {
					cc.untrack(nc)
				}
				<-slots
				s.wg.Done()
			}()
			conn := nc
			if s.TLSConfig != nil {
				tc := tls.Server(nc, s.TLSConfig)
				tc.SetDeadline(time.Now().Add(serverIdleTimeout))
				if tc.Handshake() != nil {
					return
				}
				conn = tc
			}
			s.serveConn(conn, conn, cc)
		}()
	}
}

// currentCapture returns the client capture under way, or nil.
func (s *Server) currentCapture() *clientCapture {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.capture
}

// setCapture makes cc the capture the connections accepted from now on
// belong to.
func (s *Server) setCapture(cc *clientCapture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capture = cc
}

func (s *Server) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.conns == nil {
		s.conns = map[net.Conn]bool{}
	}
	s.conns[nc] = true
	return true
}

func (s *Server) untrack(nc net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, nc)
	nc.Close()
}

// Close stops the listener, closes every connection and waits for their
// goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for nc := range s.conns {
		nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

// serverRequest is one request stream.
type serverRequest struct {
	stream       uint32
	path, method string
	// number is the request's place among those of a capture, from 1.
	number   int
	ended    bool // the client ended the stream
	answered bool
}

// serveConn serves one HTTP/2 connection whose octets come from r,
// keeping its blocks in cc when that is set.
func (s *Server) serveConn(nc net.Conn, r io.Reader, cc *clientCapture) {
	newEnc := s.NewEncoder
	if newEnc == nil {
		newEnc = func() certify.Encoder { return certify.NewReference(encoder.Config{}) }
	}
	w := newWireConn(nc, r, 0, newEnc())
	w.server = true
	w.discard = cc == nil
	stepTimeout := DefaultStepTimeout
	if cc != nil {
		w.budget = cc.budget
		w.expect(cc.requests)
		stepTimeout = cc.stepTimeout
	}
	dec := strict.New()
	dec.SetMaxHeaderListSize(1 << 20)
	var requests []*serverRequest
	byStream := map[uint32]*serverRequest{}
	w.onBlock = func(b *Block, endStream bool) {
		if b.Frame != "HEADERS" || b.Stream%2 == 0 {
			return
		}
		req := byStream[b.Stream]
		if req != nil {
			req.ended = req.ended || endStream // trailers
			return
		}
		req = &serverRequest{stream: b.Stream, ended: endStream}
		for _, n := range b.Acked {
			dec.SetMaxDynamicTableSize(n)
		}
		// A client whose blocks do not decode still gets answers, so that
		// what it writes next is captured too.
		fields, err := dec.DecodeBlock(b.Wire)
		if err == nil && s.decoded != nil {
			s.decoded(fields)
		}
		for _, f := range fields {
			switch f.Name {
			case ":path":
				req.path = f.Value
			case ":method":
				req.method = f.Value
			}
		}
		byStream[b.Stream] = req
		requests = append(requests, req)
		if cc != nil {
			b.Step, b.Sent, req.number = cc.request(req.path)
		}
	}
	// stop is how the client stopped before its requests were done.
	var stop *Stop
	defer func() {
		if cc != nil {
			cc.done(w, stop)
		}
	}()
	preface := make([]byte, len(http2.ClientPreface))
	nc.SetDeadline(time.Now().Add(serverIdleTimeout))
	if _, err := io.ReadFull(r, preface); err != nil || string(preface) != http2.ClientPreface {
		w.note("the client did not start with the HTTP/2 connection preface")
		return
	}
	// A client under test is held to one request at a time, so that the
	// settings sent between two requests come before the second.
	streams := uint32(100)
	if cc != nil {
		streams = 1
	}
	if err := w.sendSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: streams}); err != nil {
		return
	}
	// Requests are answered in the order they end. When capturing, the
	// settings of ClientSchedule for the next request go first, one SETTINGS
	// frame at a time, each acknowledged before the next and before the
	// answer, so that the client's acknowledgements are tracked exactly.
	var current *serverRequest
	var toSend []uint32
	started, answered := 0, 0
	progress := func() error {
		for len(w.pending) == 0 {
			switch {
			case len(toSend) > 0:
				if err := w.sendTableSize(toSend[0]); err != nil {
					return err
				}
				toSend = toSend[1:]
			case current != nil:
				if err := s.answer(w, current); err != nil {
					return err
				}
				current = nil
				answered++
			default:
				for _, req := range requests {
					if req.ended && !req.answered {
						current = req
						break
					}
				}
				if current == nil {
					return nil
				}
				current.answered = true
				started++
				if cc != nil && !cc.run.Steady {
					toSend = ClientSchedule(started, cc.requests)
					w.before = current.number + 1
				}
			}
		}
		return nil
	}
	// A SETTINGS frame not acknowledged within the step timeout is a
	// peer that cannot be certified (RFC 9113 §6.5.3).
	var ackBy time.Time
	acks := -1
	for answered < maxConnRequests {
		deadline := time.Now().Add(serverIdleTimeout)
		if len(w.pending) == 0 {
			ackBy, acks = time.Time{}, -1
		} else if acks != w.acks {
			ackBy, acks = time.Now().Add(stepTimeout), w.acks
		}
		if !ackBy.IsZero() && ackBy.Before(deadline) {
			deadline = ackBy
		}
		f, err := w.readFrame(deadline)
		var pe *PeerError
		if err != nil && cc != nil && len(w.pending) > 0 && len(requests) > 0 && !errors.As(err, &pe) {
			// The answer to a request waits for the acknowledgement
			// (progress): the client stopped at the request the
			// SETTINGS frame came before, or at the first it made. A
			// connection the client made no request on is no stop.
			request := w.unacknowledged().before
			if request == 0 {
				request = cc.arrivals() + 1
				if len(requests) > 0 {
					request = requests[0].number
				}
			}
			stop = &Stop{Request: request, Requests: cc.requests, What: w.settingsStop(err, stepTimeout)}
			if isTimeout(err) {
				w.closeWith(http2.ErrCodeSettingsTimeout)
			}
			cc.stopped()
			return
		}
		if err != nil {
			s.failed(w, err, cc)
			return
		}
		if d, ok := f.(*http2.DataFrame); ok && d.StreamEnded() {
			if req := byStream[d.StreamID]; req != nil {
				req.ended = true
			}
		}
		if err := progress(); err != nil {
			s.failed(w, err, cc)
			return
		}
		if w.goAway != nil && answered == len(requests) {
			return
		}
	}
	// The last stream identifier names the last request taken (RFC 9113
	// §6.8).
	w.fr.WriteGoAway(w.lastPeerStream, http2.ErrCodeNo, nil)
}

// failed ends a connection on err: a peer hpackcert does not put up with
// stops the whole capture; another error is a note of the connection.
func (s *Server) failed(w *wireConn, err error, cc *clientCapture) {
	var pe *PeerError
	if errors.As(err, &pe) {
		w.closeWith(pe.Code)
		if cc != nil {
			cc.abort(err)
			return
		}
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
		w.note(err.Error())
	}
}

// answer writes the response to a request.
func (s *Server) answer(w *wireConn, req *serverRequest) error {
	if s.served != nil {
		s.served()
	}
	list := []vectors.Field{{Name: ":status", Value: "200"}, {Name: "content-type", Value: "text/plain"}}
	if s.Script != nil {
		if step, ok := s.Script.Lookup(req.path); ok {
			list = step.Response
		}
	}
	fields, body := OriginResponse(list)
	if req.method == "HEAD" {
		body = nil
	}
	if err := w.writeHeaders(req.stream, fields, len(body) == 0); err != nil {
		return err
	}
	if len(body) == 0 {
		return nil
	}
	return w.writeData(req.stream, body)
}

// sniffConn serves one connection of Origin: HTTP/2 when it begins with
// the connection preface, HTTP/1.1 otherwise.
func (s *Server) sniffConn(nc net.Conn, h1 func(nc net.Conn, br *bufio.Reader)) {
	br := bufio.NewReaderSize(nc, 4096)
	nc.SetDeadline(time.Now().Add(serverIdleTimeout))
	head, err := br.Peek(3)
	if err != nil {
		return
	}
	if bytes.Equal(head, []byte("PRI")) {
		s.serveConn(nc, br, nil)
		return
	}
	h1(nc, br)
}
