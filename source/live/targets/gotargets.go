package targets

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// goServerTransform is what Go's net/http server does to the header map
// a handler sets: it adds date and, for a body without content-type, the
// type it sniffs; it writes the fields sorted by name, which the
// comparison allows.
// goServerIdleTimeout is how long the Go server lets a connection stay
// silent, as live.Server does.
const goServerIdleTimeout = 30 * time.Second

var goServerTransform = live.Transform{
	Add: []string{"date", "content-type"},
	Why: "net/http adds date, and content-type sniffed from the body when none is set",
}

// startGoServer serves handler with net/http on a free loopback port:
// h2c with prior knowledge, or TLS with ALPN h2.
func startGoServer(env *startEnv, handler http.Handler) (*running, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: goServerIdleTimeout, IdleTimeout: goServerIdleTimeout, ErrorLog: discardLog}
	var protocols http.Protocols
	scheme := "http"
	if env.tls {
		protocols.SetHTTP2(true)
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{env.cert.TLS}}
		scheme = "https"
	} else {
		protocols.SetUnencryptedHTTP2(true)
	}
	srv.Protocols = &protocols
	done := make(chan error, 1)
	go func() {
		if env.tls {
			done <- srv.ServeTLS(ln, "", "")
		} else {
			done <- srv.Serve(ln)
		}
	}()
	return &running{
		url:     scheme + "://" + ln.Addr().String(),
		version: runtime.Version(),
		stop: func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := srv.Shutdown(ctx)
			if serveErr := <-done; !errors.Is(serveErr, http.ErrServerClosed) {
				err = errors.Join(err, serveErr)
			}
			return err
		},
	}, nil
}

// startGoProxy serves httputil.ReverseProxy in front of the origin,
// which it reaches over HTTP/1.1 or, when env asks, h2c.
func startGoProxy(env *startEnv) (*running, error) {
	target := &url.URL{Scheme: "http", Host: env.origin.Addr()}
	proxy := &httputil.ReverseProxy{
		Rewrite:  func(r *httputil.ProxyRequest) { r.SetURL(target) },
		ErrorLog: discardLog,
	}
	if env.originH2C {
		var protocols http.Protocols
		protocols.SetUnencryptedHTTP2(true)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Protocols = &protocols
		proxy.Transport = tr
	}
	return startGoServer(env, proxy)
}

// goClient makes its requests with golang.org/x/net/http2's Transport
// (AllowHTTP for h2c), one after the other on one connection, each with
// headers.
func goClient(tlsOn bool, headers []vectors.Field) func(ctx context.Context, urls []string) error {
	return func(ctx context.Context, urls []string) error {
		tr := &http2.Transport{}
		if tlsOn {
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // hpackcert's own certificate
		} else {
			tr.AllowHTTP = true
			tr.DialTLSContext = func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, addr)
			}
		}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		for _, u := range urls {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return err
			}
			for _, f := range headers {
				req.Header.Add(f.Name, f.Value)
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, live.MaxBody))
			resp.Body.Close()
		}
		return nil
	}
}

// goClientFields are the fields the Go client adds to each request of
// its runs: live.ClientHeaders and live.GeneratedClientHeaders, strings
// of 16 KiB included; and, for its replay pair, live.ClientHeaders' values
// under one name.
var goClientFields = func() clientFields {
	f := newClientFields("go-client", true, nil)
	for _, h := range live.ClientHeaders("go-client", false) {
		f.replay = append(f.replay, vectors.Field{Name: "x-hpackcert-replay", Value: h.Value})
	}
	f.replayWhy = "Go's Transport writes a request's fields in the order of a Go map's iteration, which changes from request to request, so a request made twice is not the same input; the pair's requests carry their fields under one name, whose values keep their order"
	return f
}()

// ClientTransform returns the transformation hpackcert declares for a
// client run from a command line: it adds its own user-agent, accept and
// accept-encoding to the requests it is told to make.
func ClientTransform() live.Transform { return clientTransform }

// clientTransform is what an HTTP client adds to the requests it is told
// to make: its own user-agent, accept and accept-encoding.
var clientTransform = live.Transform{
	Add: []string{"user-agent", "accept", "accept-encoding"},
	Why: "a client adds its own user-agent, accept and accept-encoding",
}
