package live

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/vectors"
)

// DefaultRequests is the number of requests asked of a client: one more
// than the changes of ClientSchedule, so that each comes between two
// requests.
var DefaultRequests = len(clientChanges) + 1

// DefaultClientTimeout bounds one client capture.
const DefaultClientTimeout = 60 * time.Second

// ClientOptions configures CaptureClient.
type ClientOptions struct {
	// Run makes the client request each of urls, in order, on one
	// connection where the client can, and returns when the client is
	// done or ctx ends.
	Run func(ctx context.Context, urls []string) error
	// Requests is the number of URLs; 0 means DefaultRequests.
	Requests int
	// Headers are the fields the client was told to add to every request
	// (its command line's -H options). Every request is expected to carry
	// ":method" GET, ":scheme", ":authority" and ":path" from its URL,
	// then these.
	Headers []vectors.Field
	// TLS makes hpackcert serve TLS with ALPN h2 on a certificate it makes
	// (https URLs) rather than h2c with prior knowledge (http URLs).
	TLS bool
	// Timeout bounds the capture; 0 means DefaultClientTimeout.
	Timeout time.Duration
	// StepTimeout bounds the wait for each SETTINGS acknowledgement; 0
	// means DefaultStepTimeout.
	StepTimeout time.Duration
}

// maxClientConns bounds the connections a client may open in one
// capture: a client that opens one per request, and a few more of its
// own, fits.
const maxClientConns = 64

// CaptureClient runs an HTTP/2 client against hpackcert's own server on
// a free loopback port and returns the header blocks of each connection
// the client opened. After each request the server sends the settings of
// ClientSchedule for the next one, then answers; so a client that makes its
// requests one after the other on one connection writes each block under
// a new SETTINGS_HEADER_TABLE_SIZE history. An error means the server
// could not start; a client that fails is a note, and what it wrote is
// still graded.
func CaptureClient(ctx context.Context, o ClientOptions) ([]Conn, error) {
	if o.Requests <= 0 {
		o.Requests = DefaultRequests
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultClientTimeout
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = DefaultStepTimeout
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	scheme := "http"
	cc := &clientCapture{
		requests: o.Requests, headers: o.Headers, stepTimeout: o.StepTimeout,
		budget:   newBudget(2*o.Requests + 64),
		maxConns: max(maxClientConns, 2*o.Requests),
	}
	srv := &Server{capture: cc}
	if o.TLS {
		cert, err := NewCertificate()
		if err != nil {
			ln.Close()
			return nil, err
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	cc.authority = ln.Addr().String()
	cc.scheme = scheme
	for i := range o.Requests {
		cc.urls = append(cc.urls, scheme+"://"+cc.authority+Path(0, i))
	}
	rctx, cancel := context.WithTimeout(ctx, o.Timeout)
	cc.cancel = cancel
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// The client's error may end with its own output.
	runErr := cleanErr(o.Run(rctx, cc.urls))
	cancel()
	srv.Close()
	<-served
	if err := cc.aborted(); err != nil {
		return nil, fmt.Errorf("live: the client of %s: %w", cc.authority, err)
	}
	conns, notes := cc.result(runErr, o.Timeout, errors.Is(rctx.Err(), context.DeadlineExceeded))
	if runErr != nil {
		notes = append(notes, "the client: "+runErr.Error())
	}
	if len(conns) == 0 {
		if opened := cc.openedConns(); opened > 0 {
			// What the connections ended on says why.
			err := fmt.Errorf("live: the client opened %s to %s and sent no header block", counted(opened, "connection"), cc.authority)
			if len(notes) > 0 {
				err = fmt.Errorf("%w: %s", err, notes[0])
			}
			return nil, errors.Join(err, runErr)
		}
		return nil, errors.Join(fmt.Errorf("live: the client opened no connection to %s", cc.authority), runErr)
	}
	conns[0].Notes = append(conns[0].Notes, notes...)
	return conns, nil
}

// clientCapture collects the connections of a client under test.
type clientCapture struct {
	requests          int
	headers           []vectors.Field
	scheme, authority string
	urls              []string

	stepTimeout time.Duration
	budget      *budget
	maxConns    int

	mu      sync.Mutex
	arrived int
	conns   []Conn
	opened  int
	// abortErr, once set, is what the client did that stopped the
	// capture; cancel ends the client's run.
	abortErr error
	cancel   func()
}

// accepted counts a connection the client opened; past maxConns it stops
// the capture.
func (c *clientCapture) accepted() error {
	c.mu.Lock()
	c.opened++
	n := c.opened
	c.mu.Unlock()
	if n <= c.maxConns {
		return nil
	}
	err := peerError(http2.ErrCodeEnhanceYourCalm, "opened more than %d connections for %d requests", c.maxConns, c.requests)
	c.abort(err)
	return err
}

// abort stops the capture on err, the first such.
func (c *clientCapture) abort(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.abortErr == nil {
		c.abortErr = err
		if c.cancel != nil {
			c.cancel()
		}
	}
}

// openedConns returns the number of connections the client opened.
func (c *clientCapture) openedConns() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened
}

// aborted returns what stopped the capture, or nil.
func (c *clientCapture) aborted() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.abortErr
}

// request returns the step name and the list a request for path must
// carry: that of the URL with this path, or, for a path that is none of
// them (a block that did not decode), that of the URL the request's place
// of arrival gives; and that place, from 1.
func (c *clientCapture) request(path string) (string, []vectors.Field, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.arrived
	c.arrived++
	for i, u := range c.urls {
		if strings.HasSuffix(u, "://"+c.authority+path) {
			k = i
		}
	}
	if k >= len(c.urls) {
		return fmt.Sprintf("request %d (path %s)", c.arrived, quotePeer([]byte(path))), nil, c.arrived
	}
	p := Path(0, k)
	list := []vectors.Field{
		{Name: ":method", Value: "GET"},
		{Name: ":scheme", Value: c.scheme},
		{Name: ":authority", Value: c.authority},
		{Name: ":path", Value: p},
	}
	return fmt.Sprintf("request %d (%s)", k, p), append(list, c.headers...), c.arrived
}

// arrivals returns the number of requests the client made.
func (c *clientCapture) arrivals() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.arrived
}

// stopped ends the client's run once it stopped before its requests were
// done: what it does after is not graded.
func (c *clientCapture) stopped() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

// done records a finished connection and how the client stopped on it,
// if it did.
func (c *clientCapture) done(w *wireConn, stop *Stop) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conn := Conn{Name: fmt.Sprintf("client-conn%d", len(c.conns)), Blocks: w.blocks, Notes: w.Notes(), Stop: stop}
	if stop != nil {
		conn.Notes = append(conn.Notes, stop.String())
	}
	c.conns = append(c.conns, conn)
}

// result returns the connections with blocks, and the notes of the
// others. The first stop of the client's connections is kept, on the
// last connection with blocks when its own had none. A client that made
// fewer requests than it was given URLs, and did not stop on a
// connection, stopped on the last one: the end of its run, ran (nil, or
// the error it ended with) or the time limit, says how.
func (c *clientCapture) result(ran error, timeout time.Duration, timedOut bool) ([]Conn, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Conn
	var notes []string
	var stop *Stop
	for _, conn := range c.conns {
		if stop == nil {
			stop = conn.Stop
		}
		if len(conn.Blocks) == 0 {
			for _, n := range conn.Notes {
				notes = append(notes, conn.Name+": "+n)
			}
			continue
		}
		conn.Stop = nil
		out = append(out, conn)
	}
	if len(out) == 0 {
		return nil, notes
	}
	if stop == nil && c.arrived < c.requests {
		what := "the client ended after " + counted(c.arrived, "request")
		switch {
		case timedOut:
			what = fmt.Sprintf("the client was stopped at the time limit of %v after %s", timeout, counted(c.arrived, "request"))
		case ran != nil:
			what += ": " + ran.Error()
		}
		stop = &Stop{Request: c.arrived + 1, Requests: c.requests, What: what}
		out[len(out)-1].Notes = append(out[len(out)-1].Notes, stop.String())
	}
	if stop != nil {
		// The stop goes on the connection it happened on when that one
		// has blocks, else on the last.
		at := len(out) - 1
		for i := range out {
			if out[i].Name == stopConn(c.conns, stop) {
				at = i
			}
		}
		out[at].Stop = stop
	}
	return out, notes
}

// stopConn names the connection stop happened on, or "".
func stopConn(conns []Conn, stop *Stop) string {
	for _, c := range conns {
		if c.Stop == stop {
			return c.Name
		}
	}
	return ""
}
