package h3

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/live"
)

// hostileServer serves QUIC with ALPN h3 on loopback and hands each
// connection to behave, which plays a peer breaking the rules; it
// returns the server's address.
func hostileServer(t *testing.T, behave func(ctx context.Context, conn *quic.Conn)) string {
	t.Helper()
	cert, err := live.NewCertificate()
	if err != nil {
		t.Fatal(err)
	}
	pc, err := listenUDP()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	ln, err := quic.Listen(pc, &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h3"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		ln.Close()
		<-done
	})
	go func() {
		defer close(done)
		conn, err := ln.Accept(ctx)
		if err != nil {
			return
		}
		behave(ctx, conn)
		<-conn.Context().Done()
	}()
	return pc.LocalAddr().String()
}

// readRequest reads the next request stream of conn to its end.
func readRequest(ctx context.Context, conn *quic.Conn) (*quic.Stream, error) {
	str, err := conn.AcceptStream(ctx)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(io.Discard, str)
	return str, err
}

func TestHostileResponseCut(t *testing.T) {
	addr := hostileServer(t, func(ctx context.Context, conn *quic.Conn) {
		str, err := readRequest(ctx, conn)
		if err != nil {
			return
		}
		// A HEADERS frame of 5 octets that ends after 2.
		str.Write([]byte{frameHeaders, 5, 0, 0})
		str.Close()
	})
	_, err := CaptureServer(context.Background(), "hostile", addr, Options{Requests: 3})
	if want := "request stream 0 offset 0: frame of type 0x1 cut after 2 of its 5 payload octets"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}

func TestHostileEncoderFlood(t *testing.T) {
	addr := hostileServer(t, func(ctx context.Context, conn *quic.Conn) {
		enc, err := conn.OpenUniStreamSync(ctx)
		if err != nil {
			return
		}
		// Set Dynamic Table Capacity 0, over and over, past the
		// capture's limit; the request is never answered.
		enc.Write(append([]byte{streamEncoder}, bytes.Repeat([]byte{0x20}, 3000)...))
	})
	_, err := CaptureServer(context.Background(), "hostile", addr, Options{Requests: 1, Limit: 1024})
	if want := "longer than the capture limit of 1024 octets"; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "encoder stream offset") {
		t.Fatalf("error %v, want one naming the encoder stream's offset and containing %q", err, want)
	}
}

// TestHostileEncoderRefused plays a server whose encoder inserts an
// entry before it set a capacity (RFC 9204 §3.2.3): the certifier closes
// the connection with QPACK_ENCODER_STREAM_ERROR, as a decoder must, and
// keeps the transcript for the grading.
func TestHostileEncoderRefused(t *testing.T) {
	closed := make(chan error, 1)
	addr := hostileServer(t, func(ctx context.Context, conn *quic.Conn) {
		defer func() { closed <- context.Cause(conn.Context()) }()
		enc, err := conn.OpenUniStreamSync(ctx)
		if err != nil {
			return
		}
		// Insert With Name Reference, :authority "a", into a table of
		// capacity 0; the requests are never answered.
		enc.Write([]byte{streamEncoder, 0xc0, 0x01, 'a'})
		<-conn.Context().Done()
	})
	tr, err := CaptureServer(context.Background(), "hostile", addr, Options{Requests: 2, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var ae *quic.ApplicationError
	if cause := <-closed; !errors.As(cause, &ae) || ae.ErrorCode != errEncoderStream || !ae.Remote {
		t.Fatalf("the connection closed with %v, want QPACK_ENCODER_STREAM_ERROR (0x201) from the certifier", cause)
	}
	if len(tr.Events) != 2 || tr.Events[0].Kind != qpack.Wrote || !bytes.Equal(tr.Events[0].Data, []byte{0xc0, 0x01, 'a'}) {
		t.Errorf("events %+v, want the insertion written and delivered", tr.Events)
	}
}

// TestClientFailed checks that a client failing before it connects ends
// the capture with its error.
func TestClientFailed(t *testing.T) {
	pc, err := listenUDP()
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	failing := func(context.Context, string, int) ([][]qpack.Field, error) {
		return nil, errors.New("the client broke down")
	}
	_, err = CaptureClient(context.Background(), "failing", pc, failing, Options{})
	if err == nil || !strings.Contains(err.Error(), "no connection from the client") || !strings.Contains(err.Error(), "the client broke down") {
		t.Fatalf("error %v, want the client's own", err)
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []Options{{Requests: -1}, {Requests: MaxRequests + 1}, {Timeout: -1}, {Limit: -1}} {
		if _, err := NewTarget("quicgo-h3-server", o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := EncoderTarget("no-such-target"); err == nil || !strings.Contains(err.Error(), "quicgo-h3-client") {
		t.Errorf("an unknown target: %v, want an error listing the targets", err)
	}
	target, err := EncoderTarget("quicgo-h3-client")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := target.NewEncoder(settings); err == nil {
		t.Error("a live target gave an encoder to drive")
	}
}
