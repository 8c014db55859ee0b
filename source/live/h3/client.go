package h3

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"strconv"
	"time"

	qpackgo "github.com/quic-go/qpack"
	"github.com/quic-go/quic-go"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// Options bound a capture.
type Options struct {
	// Requests is how many requests the client side makes; 0 means
	// DefaultRequests, and more than MaxRequests is refused.
	Requests int
	// Timeout bounds the whole capture; 0 means DefaultTimeout.
	Timeout time.Duration
	// Limit is how many octets of each stream of the peer are captured
	// at most; a peer writing more fails the capture. 0 means
	// DefaultLimit.
	Limit int
}

// The defaults and bounds of Options.
const (
	DefaultRequests = 20
	MaxRequests     = 1000
	DefaultTimeout  = 30 * time.Second
	DefaultLimit    = 1 << 20
)

// withDefaults returns o with its zero fields set, or an error naming a
// field out of bounds.
func (o Options) withDefaults() (Options, error) {
	if o.Requests == 0 {
		o.Requests = DefaultRequests
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	switch {
	case o.Requests < 0 || o.Requests > MaxRequests:
		return o, fmt.Errorf("h3: %d requests: want 1 to %d", o.Requests, MaxRequests)
	case o.Timeout < 0:
		return o, fmt.Errorf("h3: a negative timeout %v", o.Timeout)
	case o.Limit < 0:
		return o, fmt.Errorf("h3: a negative capture limit %d", o.Limit)
	}
	return o, nil
}

// Request returns the header list of the i-th request the certifier's
// clients make to authority: a few paths and header values that come
// back request after request, and one that changes each time, so that an
// encoder with a dynamic table has something to index and something not
// worth indexing.
func Request(authority string, i int) []qpack.Field {
	return []qpack.Field{
		{Name: ":method", Value: "GET"},
		{Name: ":scheme", Value: "https"},
		{Name: ":authority", Value: authority},
		{Name: ":path", Value: "/h3live/" + strconv.Itoa(i%4)},
		{Name: "accept", Value: "text/plain"},
		{Name: "x-h3live-repeat", Value: "the same value on every request"},
		{Name: "x-h3live-index", Value: strconv.Itoa(i)},
	}
}

// clientTLS is the TLS configuration of the certifier's client: the
// servers it reaches run on loopback with a certificate made for the run.
func clientTLS() *tls.Config {
	return &tls.Config{NextProtos: []string{"h3"}, InsecureSkipVerify: true, ServerName: "localhost"}
}

// quicConfig bounds the QUIC connections of a capture in time.
func quicConfig(o Options) *quic.Config {
	return &quic.Config{HandshakeIdleTimeout: o.Timeout, MaxIdleTimeout: o.Timeout}
}

// CaptureServer captures the response encoder of the HTTP/3 server at
// addr (host:port on loopback): the certifier's own client connects,
// announces a dynamic table as a decoder, makes opts.Requests requests
// (Request) one after another, and records what the server's encoder
// writes. The server's header lists are not known: every section has
// List -1. name names the transcript.
func CaptureServer(ctx context.Context, name, addr string, opts Options) (*qpack.Transcript, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, clientTLS(), quicConfig(opts))
	if err != nil {
		return nil, fmt.Errorf("h3: connecting to %s: %w", addr, err)
	}
	s, err := open(ctx, conn, name, opts.Limit, false)
	if err != nil {
		conn.CloseWithError(errNoError, "")
		return nil, err
	}
	for i := 0; i < opts.Requests; i++ {
		if err := s.roundTrip(ctx, Request(addr, i)); err != nil {
			s.fail(errFrame, err)
			break
		}
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	return s.rec.transcript(nil), nil
}

// roundTrip sends a request with header list fields, encoded without
// the dynamic table, and records the field sections of the response.
func (s *session) roundTrip(ctx context.Context, fields []qpack.Field) error {
	str, err := s.conn.OpenStreamSync(ctx)
	if err != nil {
		return fmt.Errorf("h3: opening a request stream: %w", err)
	}
	var section bytes.Buffer
	enc := qpackgo.NewEncoder(&section)
	for _, f := range fields {
		if err := enc.WriteField(qpackgo.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
			return fmt.Errorf("h3: encoding a request: %w", err)
		}
	}
	if _, err := str.Write(appendFrame(nil, frameHeaders, section.Bytes())); err != nil {
		return fmt.Errorf("h3: writing request stream %d: %w", str.StreamID(), err)
	}
	// A server that answered before the request's end may have stopped
	// it already (STOP_SENDING, RFC 9114 §4.1): Close then fails, and the
	// response is still there to read.
	str.Close()
	return s.request(str)
}
