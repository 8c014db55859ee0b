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
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
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
	rep, err := Grade([]*Capture{{Name: "origin", Role: RoleServer, Where: o.Addr(), Conns: conns}}, certify.Options{})
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
