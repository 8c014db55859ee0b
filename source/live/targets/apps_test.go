package targets

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestAppTargets certifies the targets built from language runtimes that
// are installed (ci/live.sh installs them: nodejs, Bun from npm through
// apps/bun/install.sh, python3-hypercorn, python3-grpcio) and checks
// their grades against those of the versions it installs; each fail and
// non-strict grade is a finding of docs/FINDINGS-live.md.
func TestAppTargets(t *testing.T) {
	nonStrict := func(ids ...string) map[string]certify.Grade {
		m := map[string]certify.Grade{}
		for _, id := range ids {
			m[id] = certify.NonStrict
		}
		return m
	}
	for _, tc := range []struct {
		target string
		tls    bool
		want   map[string]certify.Grade
	}{
		// The app marks the script's sensitive fields by name
		// (MarksSensitive), so the never-indexed rule is graded.
		{target: "node-server", want: map[string]certify.Grade{"enc/7.1.3/1": certify.Pass}},
		{target: "node-server", tls: true, want: map[string]certify.Grade{"enc/7.1.3/1": certify.Pass}},
		{target: "node-proxy"},
		// libnghttp2 indexes proxy-authorization. The app marks the
		// generated run's sensitive fields by name, so the
		// never-indexed rule is graded.
		{target: "node-client", want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict, "enc/7.1.3/1": certify.Pass}},
		{target: "node-client", tls: true, want: map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict, "enc/7.1.3/1": certify.Pass}},
		// Bun's node:http2 writes no size update after a lower setting
		// (Bun issue 19152). Its app marks sensitive fields as
		// node-server's does, but the blocks that carry them follow
		// that divergence: enc/7.1.3/1 is its consequence.
		{target: "bun-node-http2", want: map[string]certify.Grade{"enc/4.2/1": certify.Fail}},
		// Bun.serve's HTTP/2 indexes authorization.
		{target: "bun-serve", want: nonStrict("enc/7.1.3/2")},
		{target: "bun-serve", tls: true, want: nonStrict("enc/7.1.3/2")},
		// python-hpack: every size change signalled, Huffman always.
		{target: "hypercorn", want: nonStrict("enc/4.2/3", "enc/5.2/2")},
		// gRPC's hand-written trailers-only block carries no size update.
		{target: "grpc-server", want: map[string]certify.Grade{"enc/4.2/1": certify.Fail}},
		// gRPC's encoder signals only the final of two settings. On the
		// steady run, each new :path it inserts fills its table and
		// evicts (enc/4.4/1).
		{target: "grpc-client", want: map[string]certify.Grade{"enc/4.2/2": certify.Fail, "enc/4.4/1": certify.Pass}},
	} {
		t.Run(tc.target+"/"+transport(tc.tls), func(t *testing.T) {
			spec := installedTarget(t, tc.target)
			c, err := Capture(context.Background(), spec, Options{TLS: tc.tls, Script: script(t)})
			if errors.Is(err, ErrNotInstalled) {
				testenv.Missing(t, err.Error()+" (ci/live.sh installs it)")
			}
			if err != nil {
				t.Fatalf("Capture(%s): %v", tc.target, err)
			}
			if c.Version == "" {
				t.Errorf("no version reported")
			}
			if c.Blocks() == 0 {
				t.Fatalf("no block captured (notes %q)", c.Notes)
			}
			if err := c.Breakdown(); err != nil {
				t.Errorf("breakdown: %v (notes %q)", err, c.Notes)
			}
			rep := grade(t, c)
			t.Logf("%s %s: %d blocks on %d connections in %v", tc.target, c.Version, c.Blocks(), len(c.Conns), c.Elapsed)
			certifytest.WantGrades(t, rep, tc.want)
			wantClientRunsGraded(t, c, rep)
		})
	}
}

func TestGRPCClientRefusesTLS(t *testing.T) {
	spec, err := LookupTarget("grpc-client")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := spec.client(true, spec.fields.traffic); err == nil || !strings.Contains(err.Error(), "h2c only") {
		t.Errorf("grpc-client over TLS: %v; want an error saying it runs over h2c only", err)
	}
}

func TestLatin1CarriesEveryOctet(t *testing.T) {
	var octets []byte
	for b := 0; b < 256; b++ {
		octets = append(octets, byte(b))
	}
	runes := []rune(latin1(string(octets)))
	if len(runes) != 256 {
		t.Fatalf("latin1 of 256 octets: %d code points; want 256", len(runes))
	}
	for i, r := range runes {
		if r != rune(i) {
			t.Fatalf("latin1: octet %#02x became U+%04X; want U+%04X", i, r, i)
		}
	}
}

func TestGRPCClientHeadersArePrintableMetadata(t *testing.T) {
	spec, err := LookupTarget("grpc-client")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.fields.traffic) == 0 || len(spec.fields.generated) == 0 {
		t.Fatalf("%d and %d client headers left for gRPC; want some in each run", len(spec.fields.traffic), len(spec.fields.generated))
	}
	for _, f := range append(spec.fields.traffic, spec.fields.generated...) {
		switch f.Name {
		case "content-type", "te", "user-agent":
			t.Errorf("%s given to gRPC, which sets it itself", f.Name)
		}
		for i := 0; i < len(f.Value); i++ {
			if f.Value[i] < 0x20 || f.Value[i] > 0x7e {
				t.Errorf("%s: octet %#02x is no gRPC metadata", f.Name, f.Value[i])
				break
			}
		}
	}
}
