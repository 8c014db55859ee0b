package live

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/livegrade"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// startRewritingProxy serves, on a loopback listener of its own, a Go
// reverse proxy of origin over h2c that changes what it relays as
// lighttpd and Varnish do: content-type application/javascript becomes
// text/javascript, and every response gets accept-ranges: bytes, over the
// origin's value when it sent one. It returns the proxy's URL.
func startRewritingProxy(t *testing.T, origin string) string {
	t.Helper()
	target := &url.URL{Scheme: "http", Host: origin}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) },
		ModifyResponse: func(resp *http.Response) error {
			for i, v := range resp.Header["Content-Type"] {
				if v == "application/javascript" {
					resp.Header["Content-Type"][i] = "text/javascript"
				}
			}
			resp.Header.Set("Accept-Ranges", "bytes")
			return nil
		},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: proxy, Protocols: &protocols, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != http.ErrServerClosed {
			t.Errorf("proxy: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// TestUndeclaredTransformation certifies a proxy that rewrites relayed
// values its declaration does not mention: every oracle decodes its
// blocks alike and cleanly, so the changes are its own, listed under the
// list cases and under no rule of the wire; declared, they pass.
func TestUndeclaredTransformation(t *testing.T) {
	sc := script(t)
	o, err := StartOrigin("127.0.0.1:0", sc)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	url := startRewritingProxy(t, o.Addr())
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: sc, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	grade := func(c Capture) *certify.Report {
		t.Helper()
		c.Name, c.Role, c.Where, c.Conns = "rewriting-proxy", RoleProxy, url, conns
		rep, err := gradeCaptures([]*Capture{&c}, certify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	results := func(rep *certify.Report) map[string]*certify.Result { return rep.Results[rep.Encoders[0]] }

	// What net/http does itself (go-proxy's declaration), but not the
	// rewriting: Go's encoder indexes authorization (non-strict), and the
	// list cases fail on the undeclared changes, listed field by field.
	netHTTP := Transform{Add: []string{"date", "content-type"}}
	rep := grade(Capture{Transform: netHTTP})
	certifytest.WantGrades(t, rep, map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict, "enc/3.2/1": certify.Fail, "enc/3.2/2": certify.Fail})
	traffic := results(rep)["enc/3.2/1"].Detail
	for _, want := range []string{
		"undeclared transformation",
		`"content-type": sent "application/javascript", relayed "text/javascript" (`,
		`"accept-ranges": not sent, relayed "bytes" (`,
		" times, first at story ",
	} {
		if !strings.Contains(traffic, want) {
			t.Errorf("enc/3.2/1 detail lacks %q: %s", want, traffic)
		}
	}
	if generated := results(rep)["enc/3.2/2"].Detail; !strings.Contains(generated, `"accept-ranges": sent "", relayed "bytes" (`) {
		t.Errorf("enc/3.2/2 detail does not list accept-ranges: %s", generated)
	}

	// Declared exactly, the changes are expected as the proxy wrote them.
	declared, err := ParseTransform("add=date;set=content-type,accept-ranges")
	if err != nil {
		t.Fatal(err)
	}
	certifytest.WantGrades(t, grade(Capture{Transform: declared}), map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict})

	// Had hpackcert's own encoder been given those lists (SentExact), the
	// same wire would be an encoder's defect: a rule of the wire fails.
	wireRules := 0
	for id, res := range results(grade(Capture{Transform: netHTTP, SentExact: true})) {
		if res.Grade == certify.Fail && (strings.HasPrefix(id, "enc/5.2/") || strings.HasPrefix(id, "enc/2.3.2/") || strings.HasPrefix(id, "enc/4.")) {
			wireRules++
		}
	}
	if wireRules == 0 {
		t.Error("graded as the encoder's exact input, the rewritten lists fail no Huffman or table rule; the test shows nothing")
	}
}

// TestTranscript checks what a capture hands the engine: every connection
// (one without blocks too, for its notes), each block's settings, wire,
// list sent and step, the capture's breakdown and notes, and which fields
// are expected never-indexed: as sent for a proxy the origin reached over
// h2c, by SensitiveNames for a server whose app marks by name, none
// otherwise.
func TestTranscript(t *testing.T) {
	sent := fields(":status", "200", "x-token", "t", "cookie", "c1", "cookie", "c2")
	sent[1].Sensitive, sent[2].Sensitive = true, true
	stop := &Stop{Request: 2, Requests: 3, What: "the target closed the connection"}
	capture := func() *Capture {
		return &Capture{
			Name: "t", Version: "1.0", Role: RoleServer, Encoder: "e", Where: "http://x", Transport: "h2c",
			Transform: Transform{Add: []string{"date"}}, SentExact: true, Notes: []string{"a note"},
			Conns: []Conn{
				{Name: "empty", Notes: []string{"nothing"}},
				{Name: "c", Traffic: true, ReplayOf: "b", Stop: stop, Blocks: []Block{{Stream: 1, Frame: "HEADERS", Acked: []uint32{0, 4096}, Wire: []byte{0x88}, Sent: sent, Step: "s"}}},
			},
		}
	}
	for _, tc := range []struct {
		name       string
		mark       func(c *Capture)
		marks      livegrade.Marks
		wantMarked []string
	}{
		{"unmarked", func(*Capture) {}, livegrade.Unmarked, nil},
		{"relayed", func(c *Capture) { c.SensitiveRelayed, c.SensitiveByName = true, true }, livegrade.AsSent, nil},
		{"by name", func(c *Capture) { c.SensitiveByName = true }, livegrade.ByName, []string{"x-token"}},
	} {
		c := capture()
		tc.mark(c)
		tr := c.Transcript()
		if tr.Marks != tc.marks || !reflect.DeepEqual(tr.Conns[1].Blocks[0].Marked, tc.wantMarked) {
			t.Errorf("%s: marks %v, marked %q; want %v, %q", tc.name, tr.Marks, tr.Conns[1].Blocks[0].Marked, tc.marks, tc.wantMarked)
		}
		want := livegrade.Transcript{
			Name: "t", Version: "1.0", Role: RoleServer, Encoder: "e", Where: "http://x", Transport: "h2c",
			Transform: c.Transform, Marks: tc.marks, SentExact: true, Notes: []string{"a note"}, Breakdown: c.Breakdown(),
			Conns: []livegrade.Conn{
				{Name: "empty", Notes: []string{"nothing"}},
				{Name: "c", Traffic: true, ReplayOf: "b", Blocks: []livegrade.Block{{Acked: []uint32{0, 4096}, Wire: []byte{0x88}, Sent: sent, Step: "s", Marked: tc.wantMarked}}},
			},
		}
		if !reflect.DeepEqual(tr, want) {
			t.Errorf("%s: transcript\n%+v\nwant\n%+v", tc.name, tr, want)
		}
		if tr.Breakdown == nil || tr.Breakdown.Error() != "target stopped at request 2 of 3 on connection c: the target closed the connection" {
			t.Errorf("%s: breakdown %v; want the stop on connection c", tc.name, tr.Breakdown)
		}
	}
}
