package h3

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"sync"

	"github.com/quic-go/quic-go/http3"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/live"
)

// listenUDP opens a UDP socket on a loopback port the system chooses.
func listenUDP() (net.PacketConn, error) {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, fmt.Errorf("h3: listening on loopback: %w", err)
	}
	return pc, nil
}

// respond is the handler of the servers the certifier starts: response
// fields that repeat from response to response, one that follows the
// path (four values in turn) and one that changes every time, so that
// an encoder with a dynamic table has something to index.
func respond(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("content-type", "text/plain; charset=utf-8")
	h.Set("cache-control", "private, max-age=60")
	h.Set("x-h3live-repeat", "the same value on every response")
	h.Set("x-h3live-path", r.URL.Path)
	h.Set("x-h3live-index", r.Header.Get("x-h3live-index"))
	io.WriteString(w, "h3live\n")
}

// captureQuicGoServer captures the response encoder of quic-go's HTTP/3
// server, run in this process on a loopback socket of its own.
func captureQuicGoServer(ctx context.Context, name string, opts Options) (*qpack.Transcript, error) {
	cert, err := live.NewCertificate()
	if err != nil {
		return nil, err
	}
	pc, err := listenUDP()
	if err != nil {
		return nil, err
	}
	defer pc.Close()
	srv := &http3.Server{
		Handler:   http.HandlerFunc(respond),
		TLSConfig: http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{cert.TLS}}),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(pc) }()
	t, err := CaptureServer(ctx, name, pc.LocalAddr().String(), opts)
	srv.Close()
	if serr := <-served; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, fmt.Errorf("h3: quic-go's server: %w", serr))
	}
	return t, err
}

// captureQuicGoClient captures the request encoder of quic-go's HTTP/3
// client, run in this process against the certifier's server.
func captureQuicGoClient(ctx context.Context, name string, opts Options) (*qpack.Transcript, error) {
	pc, err := listenUDP()
	if err != nil {
		return nil, err
	}
	defer pc.Close()
	return CaptureClient(ctx, name, pc, quicGoClient, opts)
}

// quicGoClient makes n requests (Request) with quic-go's HTTP/3 client
// and returns the header lists it encoded, as it told them to the
// request's httptrace: the list of a request is the one its encoder was
// given, in the order given, whatever the client added or reordered.
func quicGoClient(ctx context.Context, addr string, n int) ([][]qpack.Field, error) {
	tr := &http3.Transport{
		TLSClientConfig:    clientTLS(),
		DisableCompression: true,
	}
	defer tr.Close()
	lists := make([][]qpack.Field, 0, n)
	for i := range n {
		req, list, err := quicGoRequest(ctx, addr, i)
		if err != nil {
			return nil, err
		}
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", i, err)
		}
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, DefaultLimit))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("request %d: reading the response: %w", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("request %d: status %d", i, resp.StatusCode)
		}
		lists = append(lists, list.fields())
	}
	return lists, nil
}

// tracedList is the header list a client encoded, as httptrace told it.
type tracedList struct {
	mu sync.Mutex
	l  []qpack.Field
}

func (t *tracedList) add(name string, values []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, v := range values {
		t.l = append(t.l, qpack.Field{Name: name, Value: v})
	}
}

func (t *tracedList) fields() []qpack.Field {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.l
}

// quicGoRequest returns the i-th request (Request) for quic-go's
// client, traced. The client writes the pseudo-fields itself and the
// other fields in the random order of a Go map; the trace says which.
func quicGoRequest(ctx context.Context, addr string, i int) (*http.Request, *tracedList, error) {
	list := &tracedList{}
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteHeaderField: list.add})
	var path string
	h := http.Header{}
	for _, f := range Request(addr, i) {
		switch f.Name {
		case ":path":
			path = f.Value
		case ":method", ":scheme", ":authority":
		default:
			h[textproto.CanonicalMIMEHeaderKey(f.Name)] = append(h[textproto.CanonicalMIMEHeaderKey(f.Name)], f.Value)
		}
	}
	// An empty user-agent keeps the client from adding its own.
	h.Set("User-Agent", "")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+addr+path, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("request %d: %w", i, err)
	}
	req.Header = h
	return req, list, nil
}
