package targets

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// TestDebianTargets certifies every Debian target installed (ci/live.sh
// installs them) and checks its grades against those of the versions of
// Debian 12: a different grade is a change of the target, to look into
// and then to record here and in docs/MATRIX-live.md.
func TestDebianTargets(t *testing.T) {
	h2oFinding := map[string]certify.Grade{
		// h2o 2.2.5 ignores a lower SETTINGS_HEADER_TABLE_SIZE: no size
		// update, and references to entries the peer evicted
		// (docs/FINDINGS-live.md). One defect, filed under the rule first
		// broken: what follows on each connection is its consequence.
		"enc/4.2/1": certify.Fail,
		// It indexes an authorization field of a response (seen on the
		// exercise connection, which changes no setting and so is graded).
		"enc/7.1.3/2": certify.NonStrict,
	}
	indexesAuthorization := map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}
	// Behind an h2c origin that sends authorization and x-api-key
	// never-indexed, HAProxy re-encodes authorization with incremental
	// indexing and httpd (mod_proxy_http2) x-api-key without indexing:
	// neither keeps the representation, as RFC 7541 §6.2.3 requires of an
	// intermediary (docs/FINDINGS-live.md).
	haproxyH2C := map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict, "enc/7.1.3/1": certify.Fail}
	apacheH2C := map[string]certify.Grade{"enc/7.1.3/1": certify.Fail}
	for _, tc := range []struct {
		target    string
		tls       bool
		originH2C bool
		want      map[string]certify.Grade
	}{
		{target: "nginx"},
		{target: "nginx", tls: true},
		{target: "h2o", want: h2oFinding},
		{target: "haproxy", want: indexesAuthorization},
		{target: "haproxy", originH2C: true, want: haproxyH2C},
		{target: "nghttpx"},
		{target: "nghttpx", originH2C: true},
		{target: "apache2"},
		{target: "apache2", originH2C: true, want: apacheH2C},
		{target: "caddy", want: indexesAuthorization},
		// libnghttp2's deflater indexes proxy-authorization (it keeps only
		// authorization and short cookies out of the table).
		{target: "curl", want: indexesAuthorization},
		{target: "nghttp", want: indexesAuthorization},
	} {
		name := tc.target + "/" + transport(tc.tls)
		if tc.originH2C {
			name += "/h2c-origin"
		}
		t.Run(name, func(t *testing.T) {
			installedTarget(t, tc.target)
			c, rep := certifyWith(t, tc.target, Options{TLS: tc.tls, OriginH2C: tc.originH2C})
			if c.Blocks() == 0 {
				t.Fatalf("no block captured (notes %q)", c.Notes)
			}
			// A real target that behaves never breaks down: a server that
			// ends connections gracefully gets the rest of the script on
			// new ones.
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v (notes %q)", err, c.Notes)
			}
			t.Logf("%d blocks on %d connections; notes %q", c.Blocks(), len(c.Conns), c.Notes)
			certifytest.WantGrades(t, rep, tc.want)
			wantClientRunsGraded(t, c, rep)
		})
	}
}
