package live

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
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
