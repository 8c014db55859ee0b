package live

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// DefaultStepTimeout bounds one step of a script: the acknowledgement of
// its settings and the whole response.
const DefaultStepTimeout = 10 * time.Second

// ServerOptions configures CaptureServer.
type ServerOptions struct {
	// URL is the server or proxy: http://HOST:PORT for HTTP/2 over
	// cleartext with prior knowledge (h2c), https://HOST:PORT for TLS with
	// ALPN "h2". The certificate is not verified: hpackcert grades the
	// encoder, not the certificate, and the targets it starts use one it
	// made.
	URL string
	// Script is what to ask; each of its connections is one HTTP/2
	// connection, opened after the previous one is closed.
	Script *Script
	// Known is set when the server answers with the script's lists (an
	// Origin behind a proxy, or a server serving Origin's answers): each
	// response block is then expected to carry OriginResponse's list.
	// Otherwise hpackcert does not know the lists it gets.
	Known bool
	// StepTimeout bounds each step; 0 means DefaultStepTimeout.
	StepTimeout time.Duration
	// MaxBlock bounds each header block; 0 means DefaultMaxBlock.
	MaxBlock int
	// SettingsInOneFrame sends a step's several SETTINGS_HEADER_TABLE_SIZE
	// values in one SETTINGS frame, in order (RFC 9113 §6.5.3: the values
	// of a frame are processed in the order they appear), acknowledged
	// once: for a server that limits the SETTINGS frames it takes. The
	// sizes acknowledged before the next block are the same either way.
	SettingsInOneFrame bool
}

// CaptureServer plays the script against an HTTP/2 server or proxy as its
// client and returns the header blocks of each connection. Before each
// request it sends the step's settings, one SETTINGS frame per value (or
// one frame of them all, SettingsInOneFrame), and waits until each is
// acknowledged; then it sends the request (GET
// /hpackcert/C/S) and reads until the response ends. Whatever the server
// writes meanwhile (a PUSH_PROMISE, trailers) is kept too. A server that
// ends a connection gracefully before its steps are done (GOAWAY
// NO_ERROR, as one that serves a number of requests per connection does)
// gets the rest on a new connection, named after the first with "-conn2",
// "-conn3", ... A server that stops otherwise (it closes or resets the
// connection or a request's stream, sends GOAWAY with an error, stops
// answering, never acknowledges a SETTINGS frame) is the connection's
// Stop, and the next connection of the script is tried. A connection and
// its replay (ScriptConn.ReplayOf, the one just before) are played at
// once, in lockstep, the replay's step i right after the first's; once
// either stops, the other goes on alone (its continuations after a
// graceful GOAWAY are not in lockstep). An error means no connection
// could be made at all, the server did what hpackcert does not put up
// with (PeerError), or ctx ended.
func CaptureServer(ctx context.Context, o ServerOptions) ([]Conn, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("live: %q: want http://HOST:PORT (h2c) or https://HOST:PORT (TLS)", o.URL)
	}
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = DefaultStepTimeout
	}
	var conns []Conn
	// A peer may write a trailer or a promise beside each response, and a
	// few more blocks of its own; beyond that it is flooding.
	b := newBudget(2*o.Script.Steps() + 64)
	p := &play{ctx: ctx, u: u, o: o, budget: b, requests: o.Script.Steps()}
	for ci := 0; ci < len(o.Script.Conns); {
		if err := ctx.Err(); err != nil {
			return conns, fmt.Errorf("live: %w after %s", err, counted(len(conns), "connection"))
		}
		n := 1
		if ci+1 < len(o.Script.Conns) && o.Script.Conns[ci+1].ReplayOf == o.Script.Conns[ci].Name {
			n = 2
		}
		played, err := p.together(ci, n)
		if err != nil {
			return nil, err
		}
		for _, c := range played {
			if c.Stop != nil && len(conns) == 0 && len(c.Blocks) == 0 {
				return nil, fmt.Errorf("live: %s: %s", o.URL, c.Stop.What)
			}
			conns = append(conns, c)
		}
		ci += n
	}
	return conns, nil
}

// together plays connections ci to ci+n-1 of the script, n being 1, or 2
// for a connection and its replay: those go at once, in lockstep, each
// step of the replay right after the same step of the first, so that
// what a target adds of its own (date, age) is most likely the same on
// both (enc/2.2/1 compares them). It returns their connections in the
// script's order, and advances p.first past them.
func (p *play) together(ci, n int) ([]Conn, error) {
	if n == 1 {
		out, err := p.whole(ci, nil, 0)
		p.first += len(p.o.Script.Conns[ci].Steps)
		return out, err
	}
	turns := newLockstep()
	replay := *p
	replay.first += len(p.o.Script.Conns[ci].Steps)
	var replayed []Conn
	var replayErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		replayed, replayErr = replay.whole(ci+1, turns, 1)
	}()
	played, err := p.whole(ci, turns, 0)
	<-done
	p.first = replay.first + len(p.o.Script.Conns[ci+1].Steps)
	if err == nil {
		err = replayErr
	}
	return append(played, replayed...), err
}

// whole plays connection ci of the script over as many connections as the
// target's graceful GOAWAYs need; the first of them takes its turns
// (side 0 or 1 of turns) when turns is not nil.
func (p *play) whole(ci int, turns *lockstep, side int) ([]Conn, error) {
	var out []Conn
	for from, part := 0, 1; from < len(p.o.Script.Conns[ci].Steps) || part == 1; part++ {
		if err := p.ctx.Err(); err != nil {
			return out, fmt.Errorf("live: %w after %s", err, counted(len(out), "connection"))
		}
		var t *lockstep
		if part == 1 {
			t = turns
		}
		c, next, err := p.conn(ci, from, t, side)
		if t != nil {
			t.leave(side)
		}
		if part > 1 {
			c.Name = fmt.Sprintf("%s-conn%d", c.Name, part)
		}
		if err != nil {
			return nil, fmt.Errorf("live: %s: connection %s: %w", p.o.URL, c.Name, err)
		}
		out = append(out, c)
		if c.Stop != nil {
			break
		}
		from = next
	}
	return out, nil
}

// lockstep lets two connections take turns, one step each, side 0
// first; a side that has left lets the other go on alone.
type lockstep struct {
	turn [2]chan struct{}
	left [2]chan struct{}
	once [2]sync.Once
}

func newLockstep() *lockstep {
	l := &lockstep{}
	for i := range l.turn {
		l.turn[i] = make(chan struct{}, 1)
		l.left[i] = make(chan struct{})
	}
	l.turn[0] <- struct{}{}
	return l
}

// wait blocks until it is side's turn, the other side has left, or ctx
// ends.
func (l *lockstep) wait(ctx context.Context, side int) {
	select {
	case <-l.turn[side]:
	case <-l.left[1-side]:
	case <-ctx.Done():
	}
}

// pass gives the turn to the other side.
func (l *lockstep) pass(side int) {
	select {
	case l.turn[1-side] <- struct{}{}:
	default:
	}
}

// leave says that side takes no more turns.
func (l *lockstep) leave(side int) {
	l.once[side].Do(func() { close(l.left[side]) })
}

// play is one CaptureServer run.
type play struct {
	ctx    context.Context
	u      *url.URL
	o      ServerOptions
	budget *budget
	// first counts the steps of the connections of the script before the
	// one played; requests is the script's length.
	first, requests int
}

// dial opens the TCP or TLS connection, bounded by timeout.
func dial(ctx context.Context, u *url.URL, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	nc, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil || u.Scheme != "https" {
		return nc, err
	}
	tc := tls.Client(nc, &tls.Config{
		ServerName:         u.Hostname(),
		NextProtos:         []string{"h2"},
		InsecureSkipVerify: true, // the encoder is graded, not the certificate
	})
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		nc.Close()
		return nil, err
	}
	if p := tc.ConnectionState().NegotiatedProtocol; p != "h2" {
		tc.Close()
		return nil, fmt.Errorf("TLS: the server chose protocol %q, not h2", p)
	}
	return tc, nil
}

// conn plays connection ci of the script from step from on, over a new
// connection, and returns its blocks and the step to go on from on
// another: the end of its steps, or the step a server that closed the
// connection gracefully left. A server that stopped before is out.Stop;
// err is a PeerError or the end of ctx.
func (p *play) conn(ci, from int, turns *lockstep, side int) (out Conn, next int, err error) {
	sc := &p.o.Script.Conns[ci]
	out.Name, out.Traffic, out.ReplayOf = sc.Name, sc.Traffic, sc.ReplayOf
	stop := func(si int, what string) (Conn, int, error) {
		out.Stop = &Stop{Request: p.first + si + 1, Requests: p.requests, What: what}
		out.Notes = append(out.Notes, out.Stop.String())
		return out, si, nil
	}
	nc, err := dial(p.ctx, p.u, p.o.StepTimeout)
	if err != nil {
		if p.ctx.Err() != nil {
			return out, from, p.ctx.Err()
		}
		return stop(from, "the target took no new connection: "+PeerText(err.Error()))
	}
	defer nc.Close()
	// The peer's encoder is graded; hpackcert's own requests go through
	// the reference encoder.
	w := newWireConn(nc, nc, p.o.MaxBlock, certify.NewReference(encoder.Config{}))
	w.budget = p.budget
	w.expect(len(sc.Steps) - from)
	steps := map[uint32]int{}
	w.label = func(stream uint32) (string, []vectors.Field) {
		si, ok := steps[stream]
		if !ok {
			return fmt.Sprintf("stream %d", stream), nil
		}
		if !p.o.Known {
			return sc.Steps[si].Label, nil
		}
		sent, _ := OriginResponse(sc.Steps[si].Response)
		return sc.Steps[si].Label, sent
	}
	// A SETTINGS frame not acknowledged in time is a connection error of
	// type SETTINGS_TIMEOUT (RFC 9113 §6.5.3).
	settingsTimeout := false
	defer func() {
		out.Blocks = w.blocks
		out.Notes = append(w.Notes(), out.Notes...)
		var pe *PeerError
		switch {
		case errors.As(err, &pe):
			w.closeWith(pe.Code)
		case settingsTimeout:
			w.closeWith(http2.ErrCodeSettingsTimeout)
		}
	}()
	// failed sorts out why step si could not go on: the end of ctx, a
	// peer hpackcert does not put up with, a server that closed the
	// connection gracefully after a request of its own (the step goes on
	// over a new connection), or a stop, which what describes.
	failed := func(si int, stream uint32, cause error, what func() string) (Conn, int, error) {
		var pe *PeerError
		switch {
		case p.ctx.Err() != nil:
			return out, si, p.ctx.Err()
		case errors.As(cause, &pe):
			return out, si, cause
		case si > from && (what == nil || w.goAway.graceful(stream)):
			out.Notes = append(out.Notes, fmt.Sprintf("the target ended the connection (GOAWAY NO_ERROR, last stream %d) after request %d; the requests from %d on go over a new connection", w.goAway.lastStream, p.first+si, p.first+si+1))
			return out, si, nil
		}
		return stop(si, what())
	}
	nc.SetDeadline(time.Now().Add(p.o.StepTimeout))
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		return failed(from, 0, err, func() string { return w.why(err) })
	}
	initial := []http2.Setting{
		{ID: http2.SettingEnablePush, Val: 0},
		{ID: http2.SettingInitialWindowSize, Val: 1 << 30},
	}
	if sc.StartsAtZero && from == 0 {
		initial = append(initial, http2.Setting{ID: http2.SettingHeaderTableSize, Val: 0})
	}
	err = w.sendSettings(initial...)
	if err == nil {
		err = w.fr.WriteWindowUpdate(0, 1<<30-initialWindowSize)
	}
	if err != nil {
		return failed(from, 0, err, func() string { return w.why(err) })
	}
	scheme := p.u.Scheme
	for si := from; si < len(sc.Steps); si++ {
		step := &sc.Steps[si]
		request := p.first + si + 1
		// Streams are numbered from 1 on each connection.
		stream := uint32(2*(si-from) + 1)
		// No stream may be opened after GOAWAY (RFC 9113 §6.8).
		if g := w.goAway; g != nil {
			if g.code == http2.ErrCodeNo && si > from {
				return failed(si, 0, nil, nil)
			}
			return stop(si, fmt.Sprintf("%s before request %d", w.goAwayText(), request))
		}
		w.before = request
		if turns != nil {
			turns.wait(p.ctx, side)
		}
		deadline := stepDeadline(p.ctx, p.o.StepTimeout)
		// One SETTINGS frame at a time, each acknowledged before the next
		// (one frame of all the step's values with SettingsInOneFrame):
		// a peer that answers frames sent back to back with one
		// acknowledgement (see probeSettingsAcks) is still tracked exactly.
		frames := make([][]http2.Setting, 0, len(step.Settings))
		for _, size := range step.Settings {
			setting := http2.Setting{ID: http2.SettingHeaderTableSize, Val: size}
			if p.o.SettingsInOneFrame && len(frames) > 0 {
				frames[0] = append(frames[0], setting)
				continue
			}
			frames = append(frames, []http2.Setting{setting})
		}
		for _, frame := range frames {
			err := w.sendSettings(frame...)
			for err == nil && len(w.pending) > 0 {
				err = w.await(deadline)
			}
			if err != nil {
				settingsTimeout = isTimeout(err)
				return failed(si, stream, err, func() string { return w.settingsStop(err, p.o.StepTimeout) })
			}
		}
		steps[stream] = si
		req := []certify.Field{
			{Name: ":method", Value: "GET"},
			{Name: ":scheme", Value: scheme},
			{Name: ":authority", Value: p.u.Host},
			{Name: ":path", Value: Path(ci, si)},
			{Name: "accept-encoding", Value: "gzip, deflate"},
			{Name: "user-agent", Value: "hpackcert-live"},
		}
		if err := w.writeHeaders(stream, req, true); err != nil {
			return failed(si, stream, err, func() string { return w.why(err) + " before request " + strconv.Itoa(request) + " was sent" })
		}
		for !w.ended[stream] {
			if err := w.await(deadline); err != nil {
				return failed(si, stream, err, func() string {
					if isTimeout(err) {
						return fmt.Sprintf("no response to request %d within %v%s", request, p.o.StepTimeout, w.meanwhile())
					}
					return fmt.Sprintf("%s before the response to request %d ended", w.why(err), request)
				})
			}
		}
		if code, reset := w.reset[stream]; reset && !(code == http2.ErrCodeNo && w.answered(stream)) {
			return failed(si, stream, errReset, func() string {
				return fmt.Sprintf("the target reset the stream of request %d (RST_STREAM %v)", request, code)
			})
		}
		if turns != nil {
			turns.pass(side)
		}
	}
	if ci == 0 {
		w.probeSettingsAcks(stepDeadline(p.ctx, time.Second))
	}
	// The last stream identifier names the streams of the peer hpackcert
	// took (RFC 9113 §6.8): none, push being refused.
	w.fr.WriteGoAway(w.lastPeerStream, http2.ErrCodeNo, nil)
	return out, len(sc.Steps), nil
}

// errReset is failed's cause for a request whose stream the peer reset.
var errReset = errors.New("stream reset")

// answered reports whether the peer wrote a response header block on
// stream.
func (w *wireConn) answered(stream uint32) bool {
	for i := len(w.blocks) - 1; i >= 0; i-- {
		if w.blocks[i].Stream == stream && w.blocks[i].Frame == "HEADERS" {
			return true
		}
	}
	return false
}

// probeSettingsAcks sends three SETTINGS frames, with no change, in one
// write, and notes when the peer does not acknowledge each: RFC 9113
// §6.5.3 wants one acknowledgement per frame, and a peer that tracks them
// (to know when the encoder across has applied a smaller table) waits for
// the missing ones. Nothing is sent after it on the connection.
func (w *wireConn) probeSettingsAcks(deadline time.Time) {
	const frames = 3
	var burst bytes.Buffer
	fr := http2.NewFramer(&burst, nil)
	for range frames {
		fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 30})
		w.pending = append(w.pending, sentSettings{})
	}
	w.nc.SetDeadline(deadline)
	if _, err := w.nc.Write(burst.Bytes()); err != nil {
		return
	}
	for len(w.pending) > 0 {
		if w.await(deadline) != nil {
			break
		}
	}
	if n := len(w.pending); n > 0 {
		w.note(fmt.Sprintf("RFC 9113 §6.5.3: %d SETTINGS frames sent in one write got %d acknowledgements within 1s (each frame must be acknowledged; a finding of HTTP/2, not graded by HPACK cases)", frames, frames-n))
	}
}

// stepDeadline returns the end of a step: timeout from now, or ctx's
// deadline when that comes first.
func stepDeadline(ctx context.Context, timeout time.Duration) time.Time {
	d := time.Now().Add(timeout)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		return cd
	}
	return d
}

// errNoAnswer is await's error when the deadline passed.
var errNoAnswer = errors.New("no answer in time")

// await reads one frame before deadline.
func (w *wireConn) await(deadline time.Time) error {
	_, err := w.readFrame(deadline)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return errNoAnswer
	}
	return err
}
