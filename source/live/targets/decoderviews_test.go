package targets

import (
	"context"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
)

// plantedDecoder starts, in this process, the catalogue's target name as
// start makes it, with an origin behind it, and returns it as a live
// decoder target with name's view (over HTTP/1.1 to the origin) and
// declaring what its role cannot show.
func plantedDecoder(t *testing.T, name string, start func(env *startEnv) (*running, error)) certify.DecoderTarget {
	t.Helper()
	script, err := live.DefaultScript(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	origin, err := live.StartOrigin("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { origin.Close() })
	run, err := start(&startEnv{ctx: context.Background(), dir: t.TempDir(), origin: origin})
	if err != nil {
		t.Fatal(err)
	}
	dt, err := live.NewDecoderTarget(live.DecoderOptions{Name: name, URL: run.url, Stop: run.stop, Shown: origin, View: viewFor(name, false)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dt.Close() })
	return certify.DeclareDecoder(dt, decoderLacks(name))
}

// gradePlanted grades a target on every dec/ case but dec/7.3's, the
// bomb's and the timing's, which judge no field and take long.
func gradePlanted(t *testing.T, dt certify.DecoderTarget) map[string]*certify.Result {
	t.Helper()
	rep, err := certify.RunDecoders([]certify.DecoderTarget{dt}, certify.DecoderOptions{
		Cases: []string{"dec/2", "dec/3", "dec/4", "dec/5", "dec/6", "dec/7.1"}})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results[dt.Name()]
}

// cutLong drops the last octet of every value of 127 octets or more, as
// a decoder that misreads a string length of several octets would.
func cutLong(v string) string {
	if len(v) >= 127 {
		return v[:len(v)-1]
	}
	return v
}

// plantedCase is the case the planted bug (cutLong) fails: integers of
// several octets.
const plantedCase = "dec/5.1/1"

// checkPlanted holds the grades of a target with the planted bug against
// those without: without, every case its role can show is graded but
// three at most, and plantedCase passes; with, plantedCase fails naming
// the field, and no other case fails that did not. (A refusal case's
// grade may change with the machine's load, a close that comes after
// the settling wait: only new failures are the bug's.)
func checkPlanted(t *testing.T, honest, buggy map[string]*certify.Result) {
	t.Helper()
	ungraded := 0
	for id, res := range honest {
		if res.Grade == certify.Unsupported && !res.NotApplicable && len(res.CausedBy) == 0 {
			ungraded++
			t.Logf("%s ungraded: %s", id, res.Detail)
		}
		if strings.Contains(res.Detail, "does not show the fields") {
			t.Errorf("%s: %s; want the fields it shows compared", id, res.Detail)
		}
	}
	if ungraded > 3 {
		t.Errorf("%d cases ungraded beyond n/a and consequences; want at most 3", ungraded)
	}
	if honest[plantedCase].Grade != certify.Pass {
		t.Fatalf("%s without the bug: %s (%s); want a pass", plantedCase, honest[plantedCase].Grade, honest[plantedCase].Detail)
	}
	if got := buggy[plantedCase]; got.Grade != certify.Fail || !strings.Contains(got.Detail, "where") {
		t.Errorf("%s with the bug: %s (%s); want a fail naming the field", plantedCase, got.Grade, got.Detail)
	}
	for id, res := range buggy {
		if id != plantedCase && res.Grade == certify.Fail && honest[id].Grade != certify.Fail {
			t.Errorf("%s with the bug: %s (%s); without: %s; want only %s to fail", id, res.Grade, res.Detail, honest[id].Grade, plantedCase)
		}
	}
}

// TestDecoderEchoPlantedBug grades go-server's echo as it is and with the
// planted bug in what its handler shows.
func TestDecoderEchoPlantedBug(t *testing.T) {
	echo := func(alter func(string) string) func(env *startEnv) (*running, error) {
		return func(env *startEnv) (*running, error) {
			return startGoServer(env, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fields := goRequestFields(r)
				for i := range fields {
					fields[i].Value = alter(fields[i].Value)
				}
				env.origin.Show(fields)
				w.WriteHeader(http.StatusNoContent)
			}))
		}
	}
	same := func(v string) string { return v }
	checkPlanted(t, gradePlanted(t, plantedDecoder(t, "go-server", echo(same))), gradePlanted(t, plantedDecoder(t, "go-server", echo(cutLong))))
}

// TestDecoderProxyPlantedBug grades go-proxy as it is and with the
// planted bug in the request it relays to the origin.
func TestDecoderProxyPlantedBug(t *testing.T) {
	proxy := func(alter func(string) string) func(env *startEnv) (*running, error) {
		return func(env *startEnv) (*running, error) {
			target := &url.URL{Scheme: "http", Host: env.origin.Addr()}
			return startGoServer(env, &httputil.ReverseProxy{ErrorLog: discardLog, Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(target)
				for _, values := range r.Out.Header {
					for i := range values {
						values[i] = alter(values[i])
					}
				}
			}})
		}
	}
	same := func(v string) string { return v }
	checkPlanted(t, gradePlanted(t, plantedDecoder(t, "go-proxy", proxy(same))), gradePlanted(t, plantedDecoder(t, "go-proxy", proxy(cutLong))))
}
