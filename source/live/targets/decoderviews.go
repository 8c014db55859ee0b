package targets

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// hopByHop are the fields a proxy does not pass on (RFC 9110 §7.6.1,
// and the credentials meant for it, §11.7) or that HTTP/2 forbids anyway
// (RFC 9113 §8.2.2).
var hopByHop = []string{"connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", "trailer", "proxy-authorization", "proxy-authenticate"}

// decoderView is how a live decoder target shows the fields it decoded
// (live.DecoderView), as a proxy reaches the origin over HTTP/1.1 (h1)
// and over h2c (h2c); a server's app echoes the same way over both.
type decoderView struct{ h1, h2c *live.DecoderView }

// viewFor returns the view of the target called name, nil when it shows
// no fields.
func viewFor(name string, originH2C bool) *live.DecoderView {
	v := decoderViews[name]
	if originH2C && v.h2c != nil {
		return v.h2c
	}
	return v.h1
}

// relayedH1 is the view of a proxy that relays the request to the origin
// over HTTP/1.1, in order, changing what t says.
func relayedH1(how string, t live.Transform) *live.DecoderView {
	t.Drop = append(slices.Clip(t.Drop), hopByHop...)
	return &live.DecoderView{How: how, OverHTTP1: true, Pseudo: []string{":method", ":path"}, JoinCookies: true, Lower: true, Transform: t}
}

// relayedH2C is the view of a proxy that relays the request to the
// origin over h2c, changing what t says; byName when it does not keep
// the order across names.
func relayedH2C(how string, byName bool, t live.Transform) *live.DecoderView {
	t.Drop = append(slices.Clip(t.Drop), hopByHop...)
	return &live.DecoderView{How: how, Pseudo: []string{":method", ":scheme", ":authority", ":path"}, ByName: byName, JoinCookies: true, Transform: t}
}

// cookieLast returns v writing the joined cookie after the other fields.
func cookieLast(v *live.DecoderView) *live.DecoderView {
	v.CookieLast = true
	return v
}

// joinRepeats returns v joining the fields of one name into one.
func joinRepeats(v *live.DecoderView) *live.DecoderView {
	v.JoinRepeats = true
	return v
}

// decoderViews declares, for each live decoder target that shows the
// fields it decoded, how it shows them: a target without one shows none,
// and only its refusals and acceptances are graded.
var decoderViews = map[string]decoderView{
	"go-server": {h1: &live.DecoderView{
		How:    "its handler echoes the request: method, request URI and host, then its header map",
		Pseudo: []string{":method", ":path", ":authority"}, ByName: true, JoinCookies: true, Lower: true,
	}},
	"go-proxy": {
		h1: func() *live.DecoderView {
			v := relayedH1("httputil.ReverseProxy relays the request to the origin over HTTP/1.1, its header map sorted by name",
				live.Transform{Add: []string{"accept-encoding"}, Replace: []string{"host"}, Why: "the proxy sets host to the origin's, and its Transport asks for gzip when the request does not say"})
			v.ByName = true
			return v
		}(),
		h2c: relayedH2C("httputil.ReverseProxy relays the request to the origin over h2c, its header map in any order", true,
			live.Transform{Add: []string{"accept-encoding", "user-agent", "content-length"}, Replace: []string{":scheme", ":authority"}, Why: "the proxy sets :scheme and :authority to the origin's, and its Transport asks for gzip, names itself and gives a request of a method that may have a body a content-length of 0 when the request does not say"}),
	},
	"nginx": {h1: cookieLast(relayedH1("nginx relays the request to the origin over HTTP/1.1, the cookie last",
		live.Transform{Replace: []string{"host"}, Why: "nginx sets host to the upstream's name"}))},
	"h2o": {h1: cookieLast(relayedH1("h2o relays the request to the origin over HTTP/1.1",
		live.Transform{Add: []string{"content-length"}, Replace: []string{"host", "x-forwarded-for", "x-forwarded-proto", "via"}, Why: "h2o sets host to the upstream's, says who asked, and gives a request of a method that may have a body a content-length of 0"}))},
	"lighttpd": {h1: joinRepeats(relayedH1("lighttpd's mod_proxy relays the request to the origin over HTTP/1.1",
		live.Transform{Drop: []string{"set-cookie"}, Add: []string{"content-length"}, Replace: []string{"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-host"}, DropEmpty: true, Why: "mod_proxy says who asked and gives a request of a method that may have a body a content-length of 0; lighttpd joins repeated fields, drops the empty ones and a request's set-cookie, a response's field"}))},
	"varnish": {h1: relayedH1("varnish relays the request to the origin over HTTP/1.1",
		live.Transform{Replace: []string{"x-forwarded-for", "via", "x-varnish", "scheme"}, Why: "varnish says who asked, names itself and writes :scheme as the field scheme"})},
	"trafficserver": {h1: relayedH1("Traffic Server relays the request to the origin over HTTP/1.1",
		live.Transform{Replace: []string{"host", "x-forwarded-for", "via", "client-ip", "accept-encoding"}, Why: "Traffic Server sets host to the origin's, says who asked, names itself and normalises accept-encoding"})},
	"haproxy": {h2c: cookieLast(relayedH2C("HAProxy relays the request to the origin over h2c", false,
		live.Transform{Why: "HAProxy relays the request as it came, the cookie last"}))},
	"nghttpx": {h2c: cookieLast(relayedH2C("nghttpx relays the request to the origin over h2c, the cookie last", false,
		live.Transform{Replace: []string{"via", "x-forwarded-for", "x-forwarded-proto", "forwarded"}, Why: "nghttpx says who asked"}))},
	"apache2": {h2c: joinRepeats(relayedH2C("httpd's mod_proxy_http2 relays the request to the origin over h2c", false,
		live.Transform{Replace: []string{":scheme", ":authority", "x-forwarded-for", "x-forwarded-host", "x-forwarded-server"}, Why: "mod_proxy sets :scheme and :authority to the origin's and says who asked, and httpd joins repeated fields"}))},
	"caddy": {h2c: relayedH2C("Caddy relays the request to the origin over h2c, its header map in any order", true,
		live.Transform{Add: []string{"accept-encoding", "user-agent", "content-length"}, Replace: []string{":scheme", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}, Why: "Caddy sets :scheme to the origin's and says who asked, and its Transport asks for gzip, names itself and gives a request of a method that may have a body a content-length of 0 when the request does not say"})},
	"hypercorn": {h1: &live.DecoderView{How: "the ASGI app echoes to the origin the method, raw path and headers hypercorn gives it, :authority as host, the cookie last", AuthorityAsHost: true, Pseudo: []string{":method", ":path"}, JoinCookies: true, CookieLast: true}},
	"jetty9-server": {h1: &live.DecoderView{How: "the app echoes to the origin the method, raw path and the request's HttpFields, in order", Pseudo: []string{":method", ":path"}, JoinCookies: true,
		Transform: live.Transform{Add: []string{"host"}, Why: "Jetty gives :authority as a host field after the others"}}},
	"tomcat10-server": {h1: &live.DecoderView{How: "the app echoes to the origin the method, raw path and the request's MimeHeaders, in order", Pseudo: []string{":method", ":path"}, JoinCookies: true}},
	"warp-server": {h1: &live.DecoderView{How: "the app echoes to the origin the method, raw path and the WAI request headers, names as warp spells them, in warp's order",
		Pseudo: []string{":method", ":path"}, AuthorityAsHost: true, ByName: true, Lower: true, JoinCookies: true}},
	"bun-serve": {h1: &live.DecoderView{How: "the app echoes to the origin the method, the path and query of the request's URL and its Fetch API Headers, as they iterate (by name, repeated fields joined)",
		Pseudo: []string{":method", ":path"}, AuthorityAsHost: true, ByName: true, JoinRepeats: true, JoinCookies: true}},
	"node-proxy": {h1: nodeEcho}, "node-server": {h1: nodeEcho}, "bun-node-http2": {h1: nodeEcho},
}

// nodeEcho is the view of the node:http2 app (node-server.js), which
// echoes the fields node:http2 decoded, in order.
var nodeEcho = &live.DecoderView{How: "the app echoes to the origin the fields node:http2 decoded, in order", JoinCookies: true}

// goEchoServer starts the Go server with a handler that shows the origin
// the request it was given, for go-server as a decoder target.
func goEchoServer(env *startEnv) (*running, error) {
	origin := env.origin
	return startGoServer(env, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin.Show(goRequestFields(r))
		w.WriteHeader(http.StatusNoContent)
	}))
}

// goRequestFields returns what a net/http handler sees of a request's
// fields: method, request URI and host as the pseudo-headers they came
// as, then the header map, sorted by name, in lower case.
func goRequestFields(r *http.Request) []vectors.Field {
	out := []vectors.Field{{Name: ":method", Value: r.Method}, {Name: ":path", Value: r.RequestURI}}
	if r.Host != "" {
		out = append(out, vectors.Field{Name: ":authority", Value: r.Host})
	}
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range r.Header[name] {
			out = append(out, vectors.Field{Name: strings.ToLower(name), Value: v})
		}
	}
	return out
}

// decoderStarts are the start functions of the targets that start
// otherwise as decoder targets than for a capture: a server whose app
// echoes the request rather than answering with the script.
var decoderStarts = map[string]func(env *startEnv) (*running, error){
	"go-server": goEchoServer,
}

// roleLacks is what no live decoder target's role can show: the cases
// that are n/a for every server and proxy, each with why.
var roleLacks = map[string]string{
	"dec/7.1.3/1": "HTTP gives an application no way to tell a never-indexed field from another, so neither a proxy's relay nor a server's echo shows the bit",
	"dec/2.3.3/1": "its blocks carry every static entry, :status and a response's pseudo-headers among them, which no request may (RFC 9113 §8.3): a server or proxy refuses the request as malformed before any field is shown",
	"dec/5.2/1":   "its blocks carry what RFC 9113 §8.2.1 forbids in a request's field (whitespace at a value's ends, octets outside a token in a name): a server or proxy refuses the request as malformed before any field is shown",
	"dec/5.2/2":   "its blocks carry names of every octet, which RFC 9113 §8.2.1 forbids in a request's field name: a server or proxy refuses the request as malformed before any field is shown",
}

// fieldCases are the cases that judge the fields of the decoder stories'
// own requests (:method GET, :scheme http, :path /, :authority
// localhost), and dec/3.2/1, which judges traffic stories' requests too.
var fieldCases = []string{"dec/4.2/2", "dec/4.2/3", "dec/4.4/1", "dec/4.4/3", "dec/5.1/1", "dec/6.2.1/1", "dec/6.2.2/1", "dec/6.2.3/1"}

// hiddenFields says, for a target that cannot show the fields of the
// decoder stories' requests, why, and whether it shows none at all: the
// cases are n/a for it.
var hiddenFields = map[string]struct {
	why  string
	none bool
}{
	"grpc-server":   {"gRPC C-core answers every request that is no gRPC call (a GET) with a trailers-only response of its own before the handler runs: no field reaches the app to echo", true},
	"lws-server":    {"libwebsockets-test-server is a stock program that serves its own files: it has no app to echo a request's fields", true},
	"trafficserver": {"Traffic Server answers 400 without asking the origin to the decoder stories' requests (:scheme http, :authority localhost, over TLS): only the traffic stories' requests reach the origin, graded under dec/3.2/1", false},
}

// decoderLacks returns what the target called name cannot show: the
// cases n/a for it, each with why.
func decoderLacks(name string) certify.DecoderLacks {
	na := maps.Clone(roleLacks)
	if h, ok := hiddenFields[name]; ok {
		cases := fieldCases
		if h.none {
			cases = append(slices.Clip(cases), "dec/3.2/1")
		}
		for _, id := range cases {
			na[id] = h.why
		}
	}
	return certify.DecoderLacks{NotApplicable: na}
}
