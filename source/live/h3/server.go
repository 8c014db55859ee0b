package h3

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"

	"github.com/quic-go/quic-go"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/live"
)

// Client is an HTTP/3 client under capture: it makes n requests to the
// server at addr (127.0.0.1:port, with a certificate made for the run),
// one after another on one connection, and returns the header lists it
// had encoded, in order, or nil when it cannot know them.
type Client func(ctx context.Context, addr string, n int) ([][]qpack.Field, error)

// okResponse is the field section of every response of the certifier's
// server: Required Insert Count 0, Base 0, and the static table's
// :status 200 (RFC 9204 Appendix A, index 25) as an indexed field line.
var okResponse = []byte{0x00, 0x00, 0xc0 | 25}

// CaptureClient captures the request encoder of an HTTP/3 client: the
// certifier serves HTTP/3 on pc (a UDP socket the caller opened on
// loopback, port 0 to let the system choose), announces a dynamic table
// as a decoder, runs client against it and records what the client's
// encoder writes on its first connection, answering every request with
// an empty 200. The lists the client returns become the transcript's
// Lists. CaptureClient does not close pc.
func CaptureClient(ctx context.Context, name string, pc net.PacketConn, client Client, opts Options) (*qpack.Transcript, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	cert, err := live.NewCertificate()
	if err != nil {
		return nil, err
	}
	ln, err := quic.Listen(pc, &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h3"}}, quicConfig(opts))
	if err != nil {
		return nil, fmt.Errorf("h3: listening on %s: %w", pc.LocalAddr(), err)
	}
	defer ln.Close()

	type result struct {
		lists [][]qpack.Field
		err   error
	}
	done := make(chan result, 1)
	// A client that failed before it connected stops the wait for its
	// connection at once.
	acceptCtx, failed := context.WithCancel(ctx)
	defer failed()
	go func() {
		lists, err := client(ctx, pc.LocalAddr().String(), opts.Requests)
		if err != nil {
			failed()
		}
		done <- result{lists, err}
	}()
	conn, err := ln.Accept(acceptCtx)
	if err != nil {
		cancel()
		r := <-done
		return nil, fmt.Errorf("h3: no connection from the client: %w", errors.Join(err, r.err))
	}
	s, err := open(ctx, conn, name, opts.Limit, true)
	if err != nil {
		conn.CloseWithError(errNoError, "")
		cancel()
		<-done
		return nil, err
	}
	s.spawn(func() { s.serve(ctx) })
	r := <-done
	if err := s.finish(); err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, fmt.Errorf("h3: the client: %w", r.err)
	}
	return s.rec.transcript(r.lists), nil
}

// serve accepts the client's request streams and answers each once its
// request was read.
func (s *session) serve(ctx context.Context) {
	for {
		str, err := s.conn.AcceptStream(ctx)
		if err != nil {
			s.fail(errNoError, fmt.Errorf("h3: accepting request streams: %w", err))
			return
		}
		s.spawn(func() {
			if err := s.request(str); err != nil {
				s.fail(errFrame, err)
				return
			}
			if _, err := str.Write(appendFrame(nil, frameHeaders, okResponse)); err != nil {
				s.fail(errNoError, fmt.Errorf("h3: answering request stream %d: %w", str.StreamID(), err))
				return
			}
			str.Close()
		})
	}
}
