package live

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/vectors"
)

// maxRequestHead bounds the head of one HTTP/1.1 request the origin
// reads.
const maxRequestHead = 1 << 20

// Origin is the server behind a proxy under test: on one loopback port it
// answers HTTP/1.1 and HTTP/2 over cleartext with prior knowledge (h2c),
// each request for a step of its script with OriginResponse of the step's
// list. HTTP/1.1 responses are written octet by octet, so that field order,
// repeated fields and every octet an HTTP/1.1 value can carry reach the
// proxy as scripted; h2c responses go through the reference encoder.
type Origin struct {
	script *Script
	ln     net.Listener
	h2     *Server
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]bool
	// served counts the requests answered, by protocol.
	served map[string]int
	// shown is the requests received, for live decoders.
	shown shownLog
}

// StartOrigin starts an origin for script on addr, which must be a
// loopback address ("127.0.0.1:0" picks a free port).
func StartOrigin(addr string, script *Script) (*Origin, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("live: origin address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("live: origin address %q: the origin listens on a loopback address only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("live: origin: %w", err)
	}
	return ServeOrigin(ln, script)
}

// ServeOrigin starts an origin for script on ln, a listener someone else
// opened (one handed down by the program that started hpackcert, so that
// no port is chosen free and bound later). ln must listen on a loopback
// TCP address; when it does not, ServeOrigin closes it and says so.
func ServeOrigin(ln net.Listener, script *Script) (*Origin, error) {
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("live: origin listener on %s %s: the origin listens on a loopback TCP address only", ln.Addr().Network(), ln.Addr())
	}
	o := &Origin{script: script, ln: ln, conns: map[net.Conn]bool{}, served: map[string]int{}}
	o.h2 = &Server{Script: script, served: func() { o.count("h2c") }, decoded: o.recordH2}
	o.wg.Add(1)
	go o.accept()
	return o, nil
}

// Addr returns the address the origin listens on, HOST:PORT.
func (o *Origin) Addr() string { return o.ln.Addr().String() }

// Served returns how many requests the origin answered over HTTP/1.1 and
// over h2c.
func (o *Origin) Served() (h1, h2c int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.served["h1"], o.served["h2c"]
}

// Relayed records on a proxy's capture what the origin behind it served:
// a note of the requests it answered over each protocol, and
// SensitiveRelayed when it answered over h2c only, so that the
// never-indexed fields it sent are graded as the proxy relayed them.
func (o *Origin) Relayed(c *Capture) {
	h1, h2c := o.Served()
	c.Notes = append(c.Notes, fmt.Sprintf("the origin answered %d requests over HTTP/1.1 and %d over h2c", h1, h2c))
	c.SensitiveRelayed = h1 == 0 && h2c > 0
}

// Close stops the origin and waits for its connections to end.
func (o *Origin) Close() error {
	err := o.ln.Close()
	o.mu.Lock()
	for nc := range o.conns {
		nc.Close()
	}
	o.mu.Unlock()
	o.wg.Wait()
	return err
}

func (o *Origin) accept() {
	defer o.wg.Done()
	slots := make(chan struct{}, maxServerConns)
	for {
		nc, err := o.ln.Accept()
		if err != nil {
			return
		}
		slots <- struct{}{}
		o.mu.Lock()
		o.conns[nc] = true
		o.mu.Unlock()
		o.wg.Add(1)
		go func() {
			defer func() {
				o.mu.Lock()
				delete(o.conns, nc)
				o.mu.Unlock()
				nc.Close()
				<-slots
				o.wg.Done()
			}()
			o.h2.sniffConn(nc, o.serveHTTP1)
		}()
	}
}

// count counts one request answered over proto.
func (o *Origin) count(proto string) {
	o.mu.Lock()
	o.served[proto]++
	o.mu.Unlock()
}

// serveHTTP1 answers HTTP/1.1 requests on one connection until the
// client closes it, asks to, or stays silent too long.
func (o *Origin) serveHTTP1(nc net.Conn, br *bufio.Reader) {
	bw := bufio.NewWriter(nc)
	for range maxConnRequests {
		nc.SetDeadline(time.Now().Add(serverIdleTimeout))
		head := &headRecorder{}
		req, err := http.ReadRequest(bufio.NewReader(io.TeeReader(io.LimitReader(br, maxRequestHead), head)))
		if err != nil {
			return
		}
		o.recordHead(head.buf)
		// A request body, which no proxy should send for a GET, is read
		// and dropped.
		io.Copy(io.Discard, io.LimitReader(req.Body, maxRequestHead))
		req.Body.Close()
		o.count("h1")
		list := o.answer(req.URL.Path)
		fields, body := OriginResponse(list)
		if req.Method == http.MethodHead {
			body = nil
		}
		if req.Header.Get(MarksHeader) == MarksByName {
			if names := SensitiveNames(fields); len(names) > 0 {
				fields = append(slices.Clip(fields), vectors.Field{Name: SensitiveHeader, Value: strings.Join(names, ",")})
			}
		}
		writeHTTP1(bw, fields, body)
		if bw.Flush() != nil || req.Close {
			return
		}
	}
}

// The fields of a response the origin cannot mark never-indexed over
// HTTP/1.1 reach an app that marks fields never-indexed by name
// (node:http2's sensitiveHeaders) this way: a request with MarksHeader
// set to MarksByName gets one more field, SensitiveHeader, whose value is
// SensitiveNames of the response, joined by commas; the app takes it out
// and marks those names. No proxy asks for it, so no proxy relays it.
const (
	MarksHeader     = "x-hpackcert-marks"
	MarksByName     = "by-name"
	SensitiveHeader = "x-hpackcert-sensitive"
)

// SensitiveNames returns the names a target that marks never-indexed
// fields by name is to mark in list: each name all of whose fields in list
// are sensitive, in the order of their first field. A name with fields of
// both kinds cannot be told apart by name, and is not marked.
func SensitiveNames(list []vectors.Field) []string {
	mixed := map[string]bool{}
	for _, f := range list {
		if !f.Sensitive {
			mixed[f.Name] = true
		}
	}
	var names []string
	for _, f := range list {
		if f.Sensitive && !mixed[f.Name] && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	}
	return names
}

// answer returns the scripted list for a path, or a short 404.
func (o *Origin) answer(path string) []vectors.Field {
	if step, ok := o.script.Lookup(path); ok {
		return step.Response
	}
	return notFound
}

// writeHTTP1 writes an HTTP/1.1 response: the status line from ":status",
// every other field in order, as given, and the body.
func writeHTTP1(bw *bufio.Writer, fields []vectors.Field, body []byte) {
	code, _ := strconv.Atoi(fields[0].Value)
	reason := http.StatusText(code)
	if reason == "" {
		reason = "Status"
	}
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", code, reason)
	for _, f := range fields[1:] {
		bw.WriteString(f.Name)
		bw.WriteString(": ")
		bw.WriteString(f.Value)
		bw.WriteString("\r\n")
	}
	bw.WriteString("\r\n")
	bw.Write(body)
}

// notFound answers a request for no step of the script.
var notFound = fields(":status", "404", "content-type", "text/plain")

// OriginHandler returns an http.Handler that answers as Origin does, for
// Go servers: each request for a step of script gets OriginResponse of
// the step's list, through the header map (net/http chooses the order).
func OriginHandler(script *Script) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		list := notFound
		if step, ok := script.Lookup(r.URL.Path); ok {
			list = step.Response
		}
		fields, body := OriginResponse(list)
		h := w.Header()
		for _, f := range fields[1:] {
			h.Add(f.Name, f.Value)
		}
		code := 200
		fmt.Sscanf(fields[0].Value, "%d", &code)
		w.WriteHeader(code)
		w.Write(body)
	})
}

// Script returns the script the origin answers with.
func (o *Origin) Script() *Script { return o.script }
