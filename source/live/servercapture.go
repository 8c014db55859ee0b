package live

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/vectors"
)

// DefaultRequests is the number of requests asked of a client: one more
// than the changes of ClientSchedule, so that each comes between two
// requests.
var DefaultRequests = len(clientChanges) + 1

// DefaultClientTimeout bounds one run of a client.
const DefaultClientTimeout = 60 * time.Second

// ClientOptions configures CaptureClient.
type ClientOptions struct {
	// Run makes the client request each of urls, in order, on one
	// connection where the client can, and returns when the client is
	// done or ctx ends.
	Run func(ctx context.Context, urls []string) error
	// Requests is the number of URLs of each run but one that sets its
	// own (ClientRun.Requests); 0 means DefaultRequests.
	Requests int
	// Headers are the fields the client was told to add to every request
	// (its command line's -H options). Every request is expected to carry
	// ":method" GET, ":scheme", ":authority" and ":path" from its URL,
	// then these.
	Headers []vectors.Field
	// More are the runs of the client after the first, in order, on the
	// same server.
	More []ClientRun
	// TLS makes hpackcert serve TLS with ALPN h2 on a certificate it makes
	// (https URLs) rather than h2c with prior knowledge (http URLs).
	TLS bool
	// Timeout bounds each run of the client; 0 means
	// DefaultClientTimeout.
	Timeout time.Duration
	// StepTimeout bounds the wait for each SETTINGS acknowledgement; 0
	// means DefaultStepTimeout.
	StepTimeout time.Duration
}

// FirstRun names the first run of a capture (ClientOptions.Run), and
// begins the names of its connections: client-conn0, client-conn1, ...
const FirstRun = "client"

// ClientRun is a run of the client after the first, on the same server
// (so with the same :authority), with ClientSchedule's settings again
// unless it is Steady.
type ClientRun struct {
	// Name begins the names of the run's connections: NAME-conn0,
	// NAME-conn1, ... It must be unique in the capture.
	Name string
	// Run and Headers are as ClientOptions' Run and Headers.
	Run     func(ctx context.Context, urls []string) error
	Headers []vectors.Field
	// Generated marks a run whose requests carry lists built for the
	// cases rather than traffic: its connections are graded as generated
	// stories (transcript.Story.Generated).
	Generated bool
	// Again names the earlier run (FirstRun for the first) this one makes
	// again, with the same URLs; Run and Headers must be that run's. Each
	// connection of this run replays the one of that run with the same
	// number (Conn.ReplayOf): the same input from a fresh context
	// (enc/2.2/1). The run is left out, with a note, when that one did
	// not make all its requests. Requests and Steady must be that run's.
	Again string
	// Requests is the number of URLs of this run; 0 means
	// ClientOptions.Requests.
	Requests int
	// Steady sends no SETTINGS_HEADER_TABLE_SIZE at all: the table stays
	// at its initial 4096 octets for the whole run, so that a client
	// which indexes its requests' fields (a new :path each) fills it and
	// evicts by insertion (enc/4.4/1), whatever a schedule of changes
	// does to it elsewhere.
	Steady bool
}

// SteadyRequests is the number of requests of a steady run
// (ClientRun.Steady): a client that indexes only each request's :path
// (about 50 octets an entry) fills a 4,096-octet table in about 80.
const SteadyRequests = 128

// maxClientConns bounds the connections a client may have open at once,
// and, with twice the requests of a run, those it may open in the run: a
// client that opens one per request, and a few more of its own, fits.
// Each open connection may hold a header block under way of up to
// DefaultMaxBlock octets.
const maxClientConns = 64

// CaptureClient runs an HTTP/2 client against hpackcert's own server on
// a free loopback port and returns the header blocks of each connection
// the client opened, run after run: o.Run first, then each of o.More.
// After each request the server sends the settings of ClientSchedule for
// the next one (none in a Steady run), then answers; so a client that
// makes its requests one after the other on one connection writes each
// block under a new SETTINGS_HEADER_TABLE_SIZE history. The connections
// of a run that is not Generated are traffic (Conn.Traffic). An error means the server
// could not start, the client did what hpackcert does not put up with
// (PeerError), or its first run sent no header block; a client that
// fails is a note, and what it wrote is still graded.
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
	runs := append([]ClientRun{{Name: FirstRun, Run: o.Run, Headers: o.Headers}}, o.More...)
	if err := checkRuns(runs); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	scheme := "http"
	srv := &Server{}
	if o.TLS {
		cert, err := NewCertificate()
		if err != nil {
			ln.Close()
			return nil, err
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	authority := ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		srv.Close()
		<-served
	}()
	var out, firstConns []Conn
	var later []string
	complete := map[string]bool{}
	took := map[string]time.Duration{}
	pathConn := map[string]int{}
	for ri, r := range runs {
		if r.Again != "" && !complete[r.Again] {
			later = append(later, fmt.Sprintf("run %s left out: run %s, which it was to make again, did not make all its requests", r.Name, r.Again))
			continue
		}
		requests := o.Requests
		if r.Requests > 0 {
			requests = r.Requests
		}
		// A run with more requests than the first (the steady one) may
		// still be cut at the end of the capture's time: it is graded up
		// to there, with a note, rather than left out.
		if dl, ok := ctx.Deadline(); ri > 0 && ok && time.Until(dl) < 2*took[FirstRun] {
			later = append(later, fmt.Sprintf("run %s left out: less time is left than twice the %v the first run took", r.Name, took[FirstRun].Round(time.Millisecond)))
			continue
		}
		pathConn[r.Name] = ri
		if r.Again != "" {
			pathConn[r.Name] = pathConn[r.Again]
		}
		cc := &clientCapture{
			run: r, pathConn: pathConn[r.Name], requests: requests, headers: r.Headers, stepTimeout: o.StepTimeout,
			budget:   newBudget(2*requests + 64),
			maxConns: max(maxClientConns, 2*requests),
			scheme:   scheme, authority: authority,
		}
		for i := range requests {
			cc.urls = append(cc.urls, scheme+"://"+authority+Path(cc.pathConn, i))
		}
		began := time.Now()
		conns, done, err := cc.play(ctx, srv, o.Timeout, ri > 0)
		took[r.Name] = time.Since(began)
		if err != nil {
			return nil, err
		}
		if ri == 0 {
			if len(conns) == 0 {
				return nil, cc.nothing()
			}
			firstConns = conns
		}
		if len(conns) == 0 {
			later = append(later, fmt.Sprintf("run %s sent no header block: %s", r.Name, cc.nothing()))
			continue
		}
		complete[r.Name] = done
		out = append(out, conns...)
	}
	if len(later) > 0 {
		firstConns[0].Notes = append(firstConns[0].Notes, later...)
		out[0].Notes = firstConns[0].Notes
	}
	return out, nil
}

// checkRuns checks that every run has a Run and a name of its own, and
// that a run made again comes before, with the same requests.
func checkRuns(runs []ClientRun) error {
	seen := map[string]*ClientRun{}
	for i := range runs {
		r := &runs[i]
		again := seen[r.Again]
		switch {
		case r.Run == nil:
			return fmt.Errorf("live: client run %q: no Run", r.Name)
		case r.Name == "" || seen[r.Name] != nil:
			return fmt.Errorf("live: client run %q: want a name of its own (have %d runs)", r.Name, len(runs))
		case r.Requests < 0:
			return fmt.Errorf("live: client run %q: %d requests", r.Name, r.Requests)
		case r.Again != "" && again == nil:
			return fmt.Errorf("live: client run %q: no run %q before it to make again", r.Name, r.Again)
		case r.Again != "" && (again.Requests != r.Requests || again.Steady != r.Steady):
			return fmt.Errorf("live: client run %q: makes run %q again with other requests (%d, steady %v; that run %d, steady %v)", r.Name, r.Again, r.Requests, r.Steady, again.Requests, again.Steady)
		}
		seen[r.Name] = r
	}
	return nil
}

// play runs the client once, its connections kept by c, and returns them
// and whether the client made all its requests without stopping. A later
// run (not the first) that the end of ctx cuts has no stop for it: the
// capture's time was up, the client did nothing wrong; it is a note.
func (c *clientCapture) play(ctx context.Context, srv *Server, timeout time.Duration, later bool) ([]Conn, bool, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	srv.setCapture(c)
	// The client's error may end with its own output.
	runErr := cleanErr(c.run.Run(rctx, c.urls))
	cancel()
	srv.setCapture(nil)
	c.closeConns()
	if err := c.aborted(); err != nil {
		return nil, false, fmt.Errorf("live: the client of %s: %w", c.authority, err)
	}
	cut := later && ctx.Err() != nil
	conns, notes := c.result(runErr, timeout, errors.Is(rctx.Err(), context.DeadlineExceeded), cut)
	if runErr != nil {
		notes = append(notes, "the client: "+runErr.Error())
	}
	c.notes = notes
	if len(conns) == 0 {
		return nil, false, nil
	}
	conns[0].Notes = append(conns[0].Notes, notes...)
	done := c.arrivals() >= c.requests && !cut
	for i := range conns {
		if conns[i].Stop != nil {
			done = false
		}
		conns[i].Traffic = !c.run.Generated
		if c.run.Again != "" {
			conns[i].ReplayOf = c.run.Again + strings.TrimPrefix(conns[i].Name, c.run.Name)
		}
	}
	return conns, done, nil
}

// nothing says why a run captured no header block.
func (c *clientCapture) nothing() error {
	if opened := c.openedConns(); opened > 0 {
		// What the connections ended on says why.
		err := fmt.Errorf("live: the client opened %s to %s and sent no header block", counted(opened, "connection"), c.authority)
		if len(c.notes) > 0 {
			err = fmt.Errorf("%w: %s", err, c.notes[0])
		}
		return err
	}
	err := fmt.Errorf("live: the client opened no connection to %s", c.authority)
	if len(c.notes) > 0 {
		err = fmt.Errorf("%w: %s", err, c.notes[len(c.notes)-1])
	}
	return err
}
