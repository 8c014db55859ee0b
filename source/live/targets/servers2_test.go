package targets

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// needApp stops the test, through testenv.Missing, when the target's
// program or the app ci/live-apps.sh builds for it is not here.
func needApp(t *testing.T, name string) {
	t.Helper()
	spec, err := LookupTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := appInstalled(spec, appOf[name]); err != nil {
		testenv.Missing(t, err.Error()+" (ci/live-apps.sh installs and builds it)")
	}
}

// TestServers2Targets certifies the targets of servers2.go that complete
// the schedule and checks their grades against those of the versions of
// Debian 12 (docs/FINDINGS-live.md).
func TestServers2Targets(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   map[string]certify.Grade
	}{
		// libwebsockets 4.1.6 writes no dynamic table size update after a
		// lower setting (it never indexes, but RFC 7541 §4.2 wants the
		// update all the same).
		{target: "lws-server", want: map[string]certify.Grade{"enc/4.2/1": certify.Fail}},
		// HttpClient sets its table to 0 and sends every field without
		// indexing: nothing fails, the table cases are left unexercised.
		{target: "jdk-client"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			needApp(t, tc.target)
			c, rep := certifyWith(t, tc.target, Options{})
			if c.Blocks() == 0 {
				t.Fatalf("no block captured (notes %q)", c.Notes)
			}
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v (notes %q)", err, c.Notes)
			}
			t.Logf("%d blocks on %d connections; notes %q", c.Blocks(), len(c.Conns), c.Notes)
			certifytest.WantGrades(t, rep, tc.want)
			wantClientRunsGraded(t, c, rep)
		})
	}
}

// TestServers2Breakdowns checks the targets of servers2.go that do not
// complete the schedule still stop as their findings say: a change of
// the target, to record in docs/FINDINGS-live.md and here.
func TestServers2Breakdowns(t *testing.T) {
	for _, tc := range []struct {
		target string
		// breakdown is in the capture's breakdown; captureErr, when set,
		// in Capture's error instead (the capture cannot go on).
		breakdown, captureErr string
	}{
		// Jetty 9.4 encodes a header block into one buffer of the peer's
		// frame size and fails the connection on the 30000-octet field.
		{target: "jetty9-server", breakdown: "the target closed the connection"},
		// warp's http2 counts SETTINGS frames and gives up past its rate.
		{target: "warp-server", breakdown: `"too many settings"`},
		// Tomcat sends the 30000-octet field in one CONTINUATION frame
		// over the 16384 octets of SETTINGS_MAX_FRAME_SIZE.
		{target: "tomcat10-server", captureErr: "larger than the 16384 octets of SETTINGS_MAX_FRAME_SIZE"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			needApp(t, tc.target)
			spec, err := LookupTarget(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			// The whole script, the blocks over one frame included: the
			// catalogue's MaxList leaves them out of the published runs.
			whole := *spec
			whole.MaxList = 0
			c, err := Capture(context.Background(), &whole, Options{Script: script(t)})
			if tc.captureErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.captureErr) {
					t.Fatalf("Capture: %v; want an error with %q", err, tc.captureErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Capture: %v", err)
			}
			if err := c.Breakdown(); err == nil || !strings.Contains(err.Error(), tc.breakdown) {
				t.Errorf("breakdown %v; want one with %q (notes %q)", err, tc.breakdown, c.Notes)
			}
		})
	}
}

func TestServers2Catalogue(t *testing.T) {
	for name, app := range appOf {
		spec, err := LookupTarget(name)
		if err != nil {
			t.Errorf("appOf names %s (app %s): %v", name, app, err)
			continue
		}
		if spec.version == nil {
			t.Errorf("%s has no version function", name)
		}
	}
	for _, want := range []string{"jetty9-server", "tomcat10-server", "warp-server", "lws-server", "jdk-client"} {
		if _, err := LookupTarget(want); err != nil {
			t.Error(err)
		}
	}
	t.Setenv("HPACKCERT_LIVE_APPS", t.TempDir())
	if _, err := builtApp("jetty9"); err == nil || !strings.Contains(err.Error(), "ci/live-apps.sh") {
		t.Errorf("builtApp in an empty directory: %v; want an error naming ci/live-apps.sh", err)
	}
}

// TestServers2WithoutOversizedBlocks grades Jetty and Tomcat on the
// script less its responses over one frame, which they cannot send
// (docs/FINDINGS-live.md): what their encoders do with the rest.
func TestServers2WithoutOversizedBlocks(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   map[string]certify.Grade
	}{
		{target: "jetty9-server", want: map[string]certify.Grade{
			"enc/4.2/2": certify.Fail, "enc/5.2/2": certify.NonStrict, "enc/7.1.3/2": certify.NonStrict,
		}},
		// Tomcat signals the last of several sizes, not the smallest, and
		// indexes authorization.
		{target: "tomcat10-server", want: map[string]certify.Grade{
			"enc/4.2/2": certify.Fail, "enc/7.1.3/2": certify.NonStrict,
		}},
	} {
		t.Run(tc.target, func(t *testing.T) {
			needApp(t, tc.target)
			spec, err := LookupTarget(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if spec.MaxList == 0 || spec.MaxListWhy == "" {
				t.Fatalf("%s: MaxList %d, reason %q; want the catalogue to leave out the blocks it cannot send, and say why", tc.target, spec.MaxList, spec.MaxListWhy)
			}
			c, err := Capture(context.Background(), spec, Options{Script: script(t)})
			if err != nil {
				t.Fatalf("Capture: %v", err)
			}
			if !strings.Contains(strings.Join(c.Notes, "\n"), fmt.Sprintf("responses over %d octets: ", spec.MaxList)) {
				t.Errorf("notes %q; want the responses left out, with the reason", c.Notes)
			}
			rep := grade(t, c)
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v (notes %q)", err, c.Notes)
			}
			t.Logf("%d blocks on %d connections; notes %q", c.Blocks(), len(c.Conns), c.Notes)
			certifytest.WantGrades(t, rep, tc.want)
		})
	}
}
