package live

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/vectors"
)

// clientCapture collects the connections of one run of a client under
// test.
type clientCapture struct {
	run               ClientRun
	pathConn          int // the C of the run's paths, /hpackcert/C/S
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
	notes   []string
	// live are the run's connections still served; wg counts their
	// goroutines.
	live map[net.Conn]bool
	wg   sync.WaitGroup
	// abortErr, once set, is what the client did that stopped the
	// capture; cancel ends the client's run.
	abortErr error
	cancel   func()
}

// accepted counts a connection the client opened, and keeps it until
// untrack; past maxConns it stops the capture.
func (c *clientCapture) accepted(nc net.Conn) error {
	c.mu.Lock()
	c.opened++
	n, open := c.opened, len(c.live)
	ok := n <= c.maxConns && open < maxClientConns
	if ok {
		if c.live == nil {
			c.live = map[net.Conn]bool{}
		}
		c.live[nc] = true
		c.wg.Add(1)
	}
	c.mu.Unlock()
	if ok {
		return nil
	}
	err := peerError(http2.ErrCodeEnhanceYourCalm, "opened more than %d connections for %d requests", c.maxConns, c.requests)
	if open >= maxClientConns {
		err = peerError(http2.ErrCodeEnhanceYourCalm, "had more than %d connections open at once", maxClientConns)
	}
	c.abort(err)
	return err
}

// untrack counts the end of a connection accepted.
func (c *clientCapture) untrack(nc net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live[nc] {
		delete(c.live, nc)
		c.wg.Done()
	}
}

// closeConns closes the run's connections still open and waits until
// each is done with.
func (c *clientCapture) closeConns() {
	c.mu.Lock()
	for nc := range c.live {
		nc.Close()
	}
	c.mu.Unlock()
	c.wg.Wait()
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
	p := Path(c.pathConn, k)
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
	conn := Conn{Name: fmt.Sprintf("%s-conn%d", c.run.Name, len(c.conns)), Blocks: w.blocks, Notes: w.Notes(), Stop: stop}
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
//
// A run cut by the end of the capture's time (cut) has no stop: a note
// says where it was cut.
func (c *clientCapture) result(ran error, timeout time.Duration, timedOut, cut bool) ([]Conn, []string) {
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
	if cut {
		last := &out[len(out)-1]
		last.Notes = append(last.Notes, fmt.Sprintf("run %s was cut at the end of the capture's time after %s of %d (not a stop of the client)", c.run.Name, counted(c.arrived, "request"), c.requests))
		return out, notes
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
