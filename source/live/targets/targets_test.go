package targets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/livegrade"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/live"
	"golang.org/x/net/http2/hpack"
)

// testScript is the script of the tests: the targeted connection and two
// traffic stories of 24 blocks, every change of the schedule on each.
var testScript = sync.OnceValues(func() (*live.Script, error) { return live.DefaultScript(2, 24) })

func script(t testing.TB) *live.Script {
	t.Helper()
	sc, err := testScript()
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// certifyTarget certifies a named target with the test script and grades
// it alone.
// installedTarget returns the catalogue's target name, skipping the test
// (failing it under CI=true) when its program is not installed.
func installedTarget(t *testing.T, name string) *TargetSpec {
	t.Helper()
	spec, err := LookupTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Installed(); err != nil {
		testenv.Missing(t, err.Error()+" (ci/live.sh installs it)")
	}
	return spec
}

func certifyTarget(t *testing.T, name string, tlsOn bool) (*live.Capture, *certify.Report) {
	t.Helper()
	return certifyWith(t, name, Options{TLS: tlsOn})
}

func certifyWith(t *testing.T, name string, o Options) (*live.Capture, *certify.Report) {
	t.Helper()
	spec, err := LookupTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	o.Script = script(t)
	c, err := Capture(context.Background(), spec, o)
	if err != nil {
		t.Fatalf("Capture(%s): %v", name, err)
	}
	return c, grade(t, c)
}

// grade grades c as hpackcert live does: the engine grades its transcript.
func grade(t *testing.T, c *live.Capture) *certify.Report {
	t.Helper()
	rep, err := livegrade.Grade(live.Transcripts([]*live.Capture{c}), live.ScheduleText(), certify.Options{})
	if err != nil {
		t.Fatalf("grading %s: %v", c.Name, err)
	}
	return rep
}

// trafficCases are the cases graded on recorded wire, which live runs.
var trafficCases = []string{"enc/2.3.2/1", "enc/3.2/1", "enc/4.2/1", "enc/4.2/2", "enc/4.2/3", "enc/5.1/1", "enc/5.2/1", "enc/5.2/2", "enc/6.3/1", "enc/6.3/2", "enc/7.1.3/1", "enc/7.1.3/2"}

// clientRunCases are the cases a client's replay (enc/2.2/1) and its
// generated run grade.
var clientRunCases = []string{"enc/2.2/1", "enc/3.2/2", "enc/2.3.2/2"}

// replayVaries names the clients whose program does not make the same
// requests when it runs again, the fields whose values differ between the
// two plays, and why. enc/2.2/1 compares a replay's blocks only while
// their input is the same, so for these it may compare none: their
// replays are checked on what the program does guarantee, the same
// requests in the same order with the other fields the same.
var replayVaries = map[string]struct {
	fields []string
	why    string
}{
	"grpc-client": {
		fields: []string{"grpc-timeout"},
		why:    "gRPC C-core writes grpc-timeout as the time left to the call's deadline when the request is written, rounded (10S or 10100m for a 10 s deadline, by a few milliseconds of the clock)",
	},
}

// wantClientRunsGraded checks that a client capture's replay and
// generated run were graded: enc/2.2/1 compared the replay's blocks with
// the first run's, the same input twice (identical or not: OpenJDK's
// HttpClient is not deterministic, docs/FINDINGS-live.md), and enc/3.2/2
// and enc/2.3.2/2 judged blocks. For a client of replayVaries, enc/2.2/1
// may instead find no block with the same input, and the replay's lists
// must equal the first run's but for the fields that vary.
func wantClientRunsGraded(t *testing.T, c *live.Capture, rep *certify.Report) {
	t.Helper()
	if c.Role != live.RoleClient {
		return
	}
	results := rep.Results[rep.Encoders[0]]
	r := results["enc/2.2/1"]
	compared := r.Grade == certify.Info && strings.HasPrefix(strings.TrimPrefix(r.Detail, "not "), "deterministic: ")
	varies, declared := replayVaries[c.Name]
	switch {
	case compared:
	case declared && r.Grade == certify.Unsupported && strings.Contains(r.Detail, "whose input differs"):
		t.Logf("enc/2.2/1 compared no block, as may happen: %s", varies.why)
	default:
		t.Errorf("enc/2.2/1: %v (%s); want the replay's blocks compared, identical", r.Grade, r.Detail)
	}
	if declared {
		wantSameRequestsAgain(t, c, varies.fields)
	}
	for _, id := range []string{"enc/3.2/2", "enc/2.3.2/2"} {
		if r := results[id]; r.Grade == certify.Unsupported {
			t.Errorf("%s unsupported (%s); want it graded on the generated run", id, r.Detail)
		}
	}
}

// wantSameRequestsAgain checks that each replayed connection of c decodes
// to the lists of the connection it replays, in order, but for the values
// of the fields named in varies.
func wantSameRequestsAgain(t *testing.T, c *live.Capture, varies []string) {
	t.Helper()
	byName := map[string]live.Conn{}
	for _, conn := range c.Conns {
		byName[conn.Name] = conn
	}
	replays := 0
	for _, again := range c.Conns {
		if again.ReplayOf == "" {
			continue
		}
		replays++
		first, ok := byName[again.ReplayOf]
		if !ok {
			t.Errorf("%s replays %s, which the capture lacks", again.Name, again.ReplayOf)
			continue
		}
		want, got := decodedLists(t, first, varies), decodedLists(t, again, varies)
		if !slices.Equal(want, got) {
			t.Errorf("%s does not make the requests of %s again (the values of %q aside):\n%s\nthen\n%s", again.Name, first.Name, varies, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
	}
	if replays == 0 {
		t.Errorf("no replayed connection in the capture")
	}
}

// decodedLists decodes the blocks of conn in order, each list on one
// line, the value of each field named in varies left out.
func decodedLists(t *testing.T, conn live.Conn, varies []string) []string {
	t.Helper()
	d := hpack.NewDecoder(4096, nil)
	var lists []string
	for i, b := range conn.Blocks {
		// The block may open with a size update up to what was acked.
		for _, size := range b.Acked {
			d.SetAllowedMaxDynamicTableSize(max(size, 4096))
		}
		fields, err := d.DecodeFull(b.Wire)
		if err != nil {
			t.Fatalf("%s block %d: %v", conn.Name, i, err)
		}
		var line []string
		for _, f := range fields {
			if slices.Contains(varies, f.Name) {
				line = append(line, f.Name+": (varies)")
			} else {
				line = append(line, fmt.Sprintf("%s: %q", f.Name, f.Value))
			}
		}
		lists = append(lists, strings.Join(line, ", "))
	}
	return lists
}

func TestGoTargets(t *testing.T) {
	for _, tc := range []struct {
		target string
		tls    bool
		role   string
		// The Go encoder (x/net's) indexes authorization and short
		// cookies, as hpackcert run grades it too.
		want map[string]certify.Grade
	}{
		{target: "ref-server", role: live.RoleServer},
		{target: "go-server", role: live.RoleServer, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
		{target: "go-server", tls: true, role: live.RoleServer, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
		{target: "go-proxy", role: live.RoleProxy, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
		{target: "go-client", role: live.RoleClient, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
		{target: "go-client", tls: true, role: live.RoleClient, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
	} {
		t.Run(tc.target+"/"+transport(tc.tls), func(t *testing.T) {
			c, rep := certifyTarget(t, tc.target, tc.tls)
			if c.Role != tc.role || c.Transport != transport(tc.tls) {
				t.Errorf("role %s over %s; want %s over %s", c.Role, c.Transport, tc.role, transport(tc.tls))
			}
			wantBlocks := script(t).WithLarge().Steps()
			if tc.role == live.RoleClient {
				// One block a request, in every run: the first, the
				// replay, the generated one and the steady one.
				spec, err := LookupTarget(tc.target)
				if err != nil {
					t.Fatal(err)
				}
				_, co, _, err := clientRuns(spec, tc.tls)
				if err != nil {
					t.Fatal(err)
				}
				wantBlocks = live.DefaultRequests
				for _, r := range co.More {
					if r.Requests > 0 {
						wantBlocks += r.Requests
					} else {
						wantBlocks += live.DefaultRequests
					}
				}
				if last := co.More[len(co.More)-1]; !last.Steady || last.Requests != live.SteadyRequests {
					t.Errorf("last run %s: steady %v, %d requests; want the steady run of %d", last.Name, last.Steady, last.Requests, live.SteadyRequests)
				}
			}
			if c.Blocks() != wantBlocks {
				t.Errorf("%d blocks captured; want %d (notes %q)", c.Blocks(), wantBlocks, c.Notes)
			}
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v", err)
			}
			certifytest.WantGrades(t, rep, tc.want)
			wantClientRunsGraded(t, c, rep)
			graded := trafficCases
			if tc.role == live.RoleClient {
				// The replay and the generated run of a client.
				graded = append(slices.Clip(graded), clientRunCases...)
			}
			for _, id := range graded {
				if res := rep.Results[rep.Encoders[0]][id]; res.Grade == certify.Unsupported && res.Declared == "" {
					t.Errorf("%s unsupported, not declared: live grades every traffic case but the ones it declares it cannot (%s)", id, res.Detail)
				}
			}
		})
	}
}

func TestGoProxyReachesTheOriginOverH2C(t *testing.T) {
	c, rep := certifyWith(t, "go-proxy", Options{OriginH2C: true})
	// net/http's Header has no place for the never-indexed mark the
	// origin sent: the proxy relays authorization and x-api-key as
	// literals without indexing (RFC 7541 §6.2.3; docs/FINDINGS-live.md).
	certifytest.WantGrades(t, rep, map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict, "enc/7.1.3/1": certify.Fail})
	want := fmt.Sprintf("the origin answered 0 requests over HTTP/1.1 and %d over h2c", script(t).WithLarge().Steps())
	if !strings.Contains(strings.Join(c.Notes, "\n"), want) {
		t.Errorf("notes %q; want %q", c.Notes, want)
	}
	spec, err := LookupTarget("go-server")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Capture(context.Background(), spec, Options{Script: script(t), OriginH2C: true}); err == nil {
		t.Error("go-server with an h2c origin: no error; want one (it is not a proxy)")
	}
}

func TestLookupTarget(t *testing.T) {
	if _, err := LookupTarget("no-such"); err == nil || !strings.Contains(err.Error(), "nginx") {
		t.Errorf("LookupTarget(no-such) = %v; want an error listing the targets", err)
	}
	seen := map[string]bool{}
	for _, tg := range Targets() {
		if seen[tg.Name] {
			t.Errorf("target %s listed twice", tg.Name)
		}
		seen[tg.Name] = true
		if (tg.start == nil) == (tg.client == nil) {
			t.Errorf("target %s: want a server start or a client, exactly one", tg.Name)
		}
		if tg.Role == live.RoleClient && tg.client == nil {
			t.Errorf("client target %s has no client", tg.Name)
		}
		if tg.Role == live.RoleClient && (tg.fields.traffic == nil || tg.fields.generated == nil) {
			t.Errorf("client target %s: want the fields of its first and generated runs", tg.Name)
		}
	}
	for _, want := range []string{"nginx", "h2o", "haproxy", "nghttpx", "apache2", "caddy", "curl", "nghttp", "go-server", "go-proxy", "go-client"} {
		if !seen[want] {
			t.Errorf("no target %s", want)
		}
	}
}
