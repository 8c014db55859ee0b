package targets

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// TestProxies2Targets certifies lighttpd, Varnish and Traffic Server when
// installed (ci/live.sh installs them; under CI=true a missing one fails)
// and checks their grades against those of the versions of Debian 12
// (docs/FINDINGS-live.md): a different grade is a change of the target,
// to look into and then to record here.
func TestProxies2Targets(t *testing.T) {
	// ls-hpack (lighttpd 1.4.69) and Varnish 7.1 write no dynamic table
	// size update after a lower SETTINGS_HEADER_TABLE_SIZE; filed under
	// the rule first broken, the rest of each connection its consequence.
	noSizeUpdate := map[string]certify.Grade{"enc/4.2/1": certify.Fail}
	for _, tc := range []struct {
		target string
		tls    bool
		want   map[string]certify.Grade
	}{
		{target: "lighttpd", want: noSizeUpdate},
		{target: "lighttpd", tls: true, want: noSizeUpdate},
		{target: "varnish", want: noSizeUpdate},
		// Traffic Server signals only the last of several settings
		// acknowledged between two blocks, not the smallest, and
		// Huffman-codes every string, shorter or not.
		{target: "trafficserver", tls: true, want: map[string]certify.Grade{"enc/4.2/2": certify.Fail, "enc/5.2/2": certify.NonStrict}},
	} {
		t.Run(tc.target+"/"+transport(tc.tls), func(t *testing.T) {
			spec := installedTarget(t, tc.target)
			if spec.version == nil || spec.version() == "" {
				t.Errorf("%s: no version from %s", tc.target, spec.Binary)
			}
			c, rep := certifyWith(t, tc.target, Options{TLS: tc.tls})
			if c.Blocks() == 0 {
				t.Fatalf("no block captured (notes %q)", c.Notes)
			}
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v (notes %q)", err, c.Notes)
			}
			if c.Transport != transport(tc.tls) {
				t.Errorf("over %s, want %s", c.Transport, transport(tc.tls))
			}
			t.Logf("%d blocks on %d connections; notes %q", c.Blocks(), len(c.Conns), c.Notes)
			certifytest.WantGrades(t, rep, tc.want)
		})
	}
}
