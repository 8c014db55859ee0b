package qencoder

import (
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestNoAllocs checks that AppendSection allocates nothing with
// MaxSectionLen octets of room in dst, on every kind of line: static
// indexed, name references, literal names, raw and Huffman strings (some
// over 32 octets, past any stack buffer of a conversion), with the N bit.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(39, 2))
	fields := []spec.Field{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/api/v1/resources/0123456789abcdef?page=2&sort=name"},
		{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"},
		{Name: "cookie", Value: "id=1"},
		{Name: "authorization", Value: "Bearer 0123456789abcdef0123456789abcdef"},
		{Name: "x-request-id", Value: "9f0c3a1e-4b2d-4c6e-8a7f-0123456789ab", Sensitive: true},
		{Name: ":status", Value: "200", Sensitive: true},
	}
	for range 20 {
		fields = append(fields, randomField(rng))
	}
	for _, cfg := range []Config{{}, {TableCapacity: 4096, PeerMaxTableCapacity: 4096}} {
		enc := New(cfg)
		dst := make([]byte, 0, MaxSectionLen(fields))
		es := make([]byte, 0, MaxEncoderStreamLen(fields))
		ds := make([]byte, 0, 32)
		var out []byte
		n := testing.AllocsPerRun(200, func() {
			out, _ = enc.AppendSection(dst[:0], es[:0], 0, fields)
			// Acknowledge as a decoder would, for the next run to
			// reference the table and evict from it.
			if err := ackAll(enc, ds, 0, out); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("table capacity %d: %v allocations per section; want 0", cfg.TableCapacity, n)
		}
		// The measured runs must have written a whole section.
		if _, lines, err := qspec.WalkSection(out, len(fields)); err != nil || len(lines) != len(fields) {
			t.Errorf("measured section walks to %d lines, %v; want %d", len(lines), err, len(fields))
		}
	}
}
