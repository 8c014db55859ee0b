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
	"syscall"
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
}

// CaptureServer plays the script against an HTTP/2 server or proxy as its
// client and returns the header blocks of each connection. Before each
// request it sends the step's settings, one SETTINGS frame per value, and
// waits until each is acknowledged; then it sends the request (GET
// /hpackcert/C/S) and reads until the response ends. Whatever the server
// writes meanwhile (a PUSH_PROMISE, trailers) is kept too. A connection
// that fails is noted and the next one is tried; an error means no
// connection could be made at all, or ctx ended.
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
	for ci := range o.Script.Conns {
		if err := ctx.Err(); err != nil {
			return conns, fmt.Errorf("live: %w after %d connections", err, ci)
		}
		c, err := captureConn(ctx, u, o, ci, b)
		var pe *PeerError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("live: %s: connection %s: %w", o.URL, c.Name, err)
		}
		if err != nil && len(c.Blocks) == 0 && ci == 0 {
			return nil, fmt.Errorf("live: %s: %w", o.URL, closedEarly(err))
		}
		if err != nil {
			c.Notes = append(c.Notes, err.Error())
		}
		conns = append(conns, c)
	}
	return conns, nil
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

// captureConn plays connection ci of the script.
func captureConn(ctx context.Context, u *url.URL, o ServerOptions, ci int, b *budget) (out Conn, err error) {
	sc := &o.Script.Conns[ci]
	out.Name = sc.Name
	nc, err := dial(ctx, u, o.StepTimeout)
	if err != nil {
		return out, err
	}
	defer nc.Close()
	// The peer's encoder is graded; hpackcert's own requests go through
	// the reference encoder.
	w := newWireConn(nc, nc, o.MaxBlock, certify.NewReference(encoder.Config{}))
	w.budget = b
	w.expect(len(sc.Steps))
	steps := map[uint32]int{}
	w.label = func(stream uint32) (string, []vectors.Field) {
		si, ok := steps[stream]
		if !ok {
			return fmt.Sprintf("stream %d", stream), nil
		}
		if !o.Known {
			return sc.Steps[si].Label, nil
		}
		sent, _ := OriginResponse(sc.Steps[si].Response)
		return sc.Steps[si].Label, sent
	}
	defer func() {
		out.Blocks = w.blocks
		out.Notes = append(out.Notes, w.Notes()...)
		var pe *PeerError
		if errors.As(err, &pe) {
			w.closeWith(err)
		}
	}()
	nc.SetDeadline(time.Now().Add(o.StepTimeout))
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		return out, err
	}
	err = w.sendSettings(
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 30},
	)
	if err == nil {
		err = w.fr.WriteWindowUpdate(0, 1<<30-initialWindowSize)
	}
	if err != nil {
		return out, err
	}
	scheme := u.Scheme
	var stream uint32
	for si, step := range sc.Steps {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if w.goAway != nil {
			return out, fmt.Errorf("step %q: the peer closed the connection with GOAWAY (%v) after %d requests", step.Label, w.goAway.code, si)
		}
		deadline := stepDeadline(ctx, o.StepTimeout)
		// One SETTINGS frame at a time, each acknowledged before the next:
		// a peer that answers frames sent back to back with one
		// acknowledgement (see probeSettingsAcks) is still tracked exactly.
		for _, size := range step.Settings {
			if err := w.sendTableSize(size); err != nil {
				return out, err
			}
			for len(w.pending) > 0 {
				err := w.await(deadline)
				if errors.Is(err, errNoAnswer) {
					return out, peerError(http2.ErrCodeSettingsTimeout, "did not acknowledge SETTINGS_HEADER_TABLE_SIZE %d within %v, before step %q (RFC 9113 §6.5.3): the blocks that follow cannot be graded against the settings the encoder applied", size, o.StepTimeout, step.Label)
				}
				if err != nil {
					return out, fmt.Errorf("step %q: waiting for the acknowledgement of SETTINGS_HEADER_TABLE_SIZE %d: %w", step.Label, size, err)
				}
			}
		}
		stream = uint32(2*si + 1)
		steps[stream] = si
		req := []certify.Field{
			{Name: ":method", Value: "GET"},
			{Name: ":scheme", Value: scheme},
			{Name: ":authority", Value: u.Host},
			{Name: ":path", Value: Path(ci, si)},
			{Name: "accept-encoding", Value: "gzip, deflate"},
			{Name: "user-agent", Value: "hpackcert-live"},
		}
		if err := w.writeHeaders(stream, req, true); err != nil {
			return out, err
		}
		for !w.ended[stream] {
			if err := w.await(deadline); err != nil {
				if errors.Is(err, errNoAnswer) {
					return out, fmt.Errorf("step %q: %w%s", step.Label, err, w.meanwhile())
				}
				return out, fmt.Errorf("step %q: %w", step.Label, err)
			}
		}
	}
	if ci == 0 {
		w.probeSettingsAcks(stepDeadline(ctx, time.Second))
	}
	// The last stream identifier names the streams of the peer hpackcert
	// took (RFC 9113 §6.8): none, push being refused.
	w.fr.WriteGoAway(w.lastPeerStream, http2.ErrCodeNo, nil)
	return out, nil
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
		w.pending = append(w.pending, nil)
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

// closedEarly names a connection the peer closed under hpackcert's
// feet, which the error of the read or write says only in its own words.
func closedEarly(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("the server closed the connection before answering (%w)", err)
	}
	return err
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
