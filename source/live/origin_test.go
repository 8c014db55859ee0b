package live

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/vectors"
)

func TestOriginWritesHTTP1AsScripted(t *testing.T) {
	sc := &Script{Conns: []ScriptConn{{Name: "c", Steps: []Step{{Label: "s", Response: fields(
		":status", "203", "X-B", "2", "x-a", "1", "set-cookie", "a", "set-cookie", "b", "x-obs", "\x80\xff", "content-length", "3")}}}}}
	o, err := StartOrigin("127.0.0.1:0", sc)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	nc, err := net.Dial("tcp", o.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(nc, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", Path(0, 0))
	want := "HTTP/1.1 203 Non-Authoritative Information\r\nx-b: 2\r\nx-a: 1\r\nset-cookie: a\r\nset-cookie: b\r\nx-obs: \x80\xff\r\ncontent-length: 3\r\n\r\nhpa"
	got := make([]byte, len(want))
	if _, err := io.ReadFull(nc, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("origin wrote\n%q\nwant\n%q", got, want)
	}
	// The connection stays open for the next request.
	fmt.Fprintf(nc, "GET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil || resp.StatusCode != 404 {
		t.Errorf("second request: %v, %v; want a 404", resp, err)
	}
	if h1, h2c := o.Served(); h1 != 2 || h2c != 0 {
		t.Errorf("served %d HTTP/1.1 and %d h2c requests; want 2 and 0", h1, h2c)
	}
}

func TestOriginSpeaksH2C(t *testing.T) {
	sc := script(t)
	o, err := StartOrigin("127.0.0.1:0", sc)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + o.Addr(), Script: sc, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := gradeCaptures([]*Capture{{Name: "origin", Role: RoleServer, Where: o.Addr(), Conns: conns}}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	certifytest.WantGrades(t, rep, nil)
	if _, h2c := o.Served(); h2c != sc.Steps() {
		t.Errorf("served %d h2c requests; want %d", h2c, sc.Steps())
	}
}

func TestOriginListensOnLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "localhost"} {
		if o, err := StartOrigin(addr, script(t)); err == nil {
			o.Close()
			t.Errorf("StartOrigin(%q) succeeded; want a refusal", addr)
		}
	}
	// A listener handed down is held to the same rule, and closed.
	ln, err := net.Listen("unix", t.TempDir()+"/origin.sock")
	if err != nil {
		t.Fatal(err)
	}
	if o, err := ServeOrigin(ln, script(t)); err == nil {
		o.Close()
		t.Errorf("ServeOrigin(unix listener) succeeded; want a refusal")
	}
	if _, err := ln.Accept(); err == nil {
		t.Errorf("ServeOrigin left the listener it refused open")
	}
}

func TestOriginBoundsTheRequestHead(t *testing.T) {
	o, err := StartOrigin("127.0.0.1:0", script(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	nc, err := net.Dial("tcp", o.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	go func() {
		fmt.Fprintf(nc, "GET / HTTP/1.1\r\nX-Long: ")
		nc.Write(bytes.Repeat([]byte("a"), 2*maxRequestHead))
	}()
	// The origin gives up on the request and closes the connection (a
	// reset, since the rest was not read) well before the deadline.
	_, err = io.Copy(io.Discard, nc)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the origin kept reading a request head of %d octets: %v", 2*maxRequestHead, err)
	}
}

func TestSensitiveNames(t *testing.T) {
	list := fields(":status", "200", "set-cookie", "a", "x-token", "t", "cookie", "c1", "cookie", "c2", "set-cookie", "b", "x-plain", "p")
	for i := range list {
		switch {
		case list[i].Name == "set-cookie", list[i].Name == "x-token", list[i].Value == "c1":
			list[i].Sensitive = true
		}
	}
	// cookie has a sensitive field and one that is not: by name, it
	// cannot be marked.
	if got, want := SensitiveNames(list), []string{"set-cookie", "x-token"}; !slices.Equal(got, want) {
		t.Errorf("SensitiveNames = %q; want %q", got, want)
	}
	if got := SensitiveNames(fields(":status", "200", "a", "b")); got != nil {
		t.Errorf("SensitiveNames of a list without sensitive fields = %q; want none", got)
	}
}

// TestOriginMarksOnlyWhenAsked checks that the origin adds its
// SensitiveHeader field to a response only for a request that asks with
// MarksHeader, so that no proxy, which does not ask, relays it.
func TestOriginMarksOnlyWhenAsked(t *testing.T) {
	resp := fields(":status", "200", "x-token", "t", "x-plain", "p")
	resp[1].Sensitive = true
	sc := &Script{Conns: []ScriptConn{{Name: "c", Steps: []Step{{Label: "s", Response: resp}}}}}
	o, err := StartOrigin("127.0.0.1:0", sc)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	for _, ask := range []bool{false, true} {
		req, _ := http.NewRequest("GET", "http://"+o.Addr()+Path(0, 0), nil)
		if ask {
			req.Header.Set(MarksHeader, MarksByName)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got, want := res.Header.Get(SensitiveHeader), ""
		if ask {
			want = "x-token"
		}
		if got != want || res.Header.Get("x-plain") != "p" {
			t.Errorf("asked %v: %s %q, x-plain %q; want %q and x-plain p", ask, SensitiveHeader, got, res.Header.Get("x-plain"), want)
		}
	}
}

// TestCaptureSensitiveByName grades enc/7.1.3/1 on captures of a server
// that marks by name: graded, passing when the fields of SensitiveNames
// are never-indexed and failing when they are indexed (the script's other
// sensitive field, a cookie whose name also has a field that is not
// sensitive, is expected as any field); a capture without the mark
// declares the case.
func TestCaptureSensitiveByName(t *testing.T) {
	sent := fields(":status", "200", "x-token", "t", "cookie", "c1", "cookie", "c2", "x-plain", "p")
	sent[1].Sensitive, sent[2].Sensitive = true, true
	wire := func(neverIndexToken bool) []byte {
		ref := encoder.New(encoder.Config{})
		var buf []byte
		for _, f := range sent {
			buf = ref.AppendFieldString(buf, f.Name, f.Value, f.Name == "x-token" && neverIndexToken)
		}
		return buf
	}
	for _, tc := range []struct {
		byName, neverIndexed bool
		want                 certify.Grade
	}{
		{true, true, certify.Pass},
		{true, false, certify.Fail},
		{false, true, certify.Unsupported},
	} {
		res := gradeOneBlock(t, &Capture{SensitiveByName: tc.byName}, wire(tc.neverIndexed), sent)["enc/7.1.3/1"]
		if res.Grade != tc.want || (tc.want == certify.Unsupported) != (res.Declared != "") {
			t.Errorf("by name %v, x-token never-indexed %v: enc/7.1.3/1 %v (%s; declared %q); want %v", tc.byName, tc.neverIndexed, res.Grade, res.Detail, res.Declared, tc.want)
		}
	}
}

// gradeOneBlock grades c as a server's capture of one connection of one
// block, wire, the answer to sent (a connection without blocks before
// it), and returns its results.
func gradeOneBlock(t *testing.T, c *Capture, wire []byte, sent []vectors.Field) map[string]*certify.Result {
	t.Helper()
	c.Name, c.Role, c.Where, c.Transport = "t", RoleServer, "test", "h2c"
	c.Conns = []Conn{{Name: "empty"}, {Name: "c", Blocks: []Block{{Wire: wire, Sent: sent, Step: "s"}}}}
	rep, err := gradeCaptures([]*Capture{c}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results[rep.Encoders[0]]
}
