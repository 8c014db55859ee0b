package qencoder

import (
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestNoAllocs checks that AppendSection and DecoderStream allocate
// nothing with MaxSectionLen and MaxEncoderStreamLen octets of room, on
// every kind of line: static indexed, dynamic indexed and post-base, name
// references, literal names, raw and Huffman strings (some over 32 octets,
// past any stack buffer of a conversion), with the N bit; and on every
// instruction: inserts that evict, Duplicate. The runs rotate through
// sections of fields that repeat, acknowledged after each run.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(39, 2))
	fixed := []spec.Field{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/api/v1/resources/0123456789abcdef?page=2&sort=name"},
		{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"},
		{Name: "cookie", Value: "id=1"},
		{Name: "authorization", Value: "Bearer 0123456789abcdef0123456789abcdef"},
		{Name: "x-request-id", Value: "9f0c3a1e-4b2d-4c6e-8a7f-0123456789ab", Sensitive: true},
		{Name: ":status", Value: "200", Sensitive: true},
	}
	pool := fieldPool(rng, 30)
	sections := make([][]spec.Field, 7)
	sectionRoom, streamRoom := 0, 0
	for i := range sections {
		sections[i] = append(sections[i], fixed...)
		for range 12 {
			sections[i] = append(sections[i], pool[rng.IntN(len(pool))])
		}
		sectionRoom = max(sectionRoom, MaxSectionLen(sections[i]))
		streamRoom = max(streamRoom, MaxEncoderStreamLen(sections[i]))
	}
	for _, cfg := range []Config{
		{},
		{TableCapacity: 4096, PeerMaxTableCapacity: 4096},
		{TableCapacity: 4096, PeerMaxTableCapacity: 4096, BlockedStreams: 100},
		{TableCapacity: 512, PeerMaxTableCapacity: 4096, BlockedStreams: 100},
	} {
		enc := New(cfg)
		dst := make([]byte, 0, sectionRoom)
		es := make([]byte, 0, streamRoom)
		ds := make([]byte, 0, 32)
		var out, inserts []byte
		run := 0
		n := testing.AllocsPerRun(200, func() {
			run++
			fields := sections[run%len(sections)]
			out, inserts = enc.AppendSection(dst[:0], es[:0], 0, fields)
			// Acknowledge as a decoder would, for the next run to
			// reference the table and evict from it.
			if err := ackAll(enc, ds, 0, out); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%+v: %v allocations per section; want 0", cfg, n)
		}
		// The measured runs must have written a whole section.
		fields := sections[run%len(sections)]
		if _, lines, err := qspec.WalkSection(out, len(fields)); err != nil || len(lines) != len(fields) {
			t.Errorf("%+v: measured section walks to %d lines, %v; want %d", cfg, len(lines), err, len(fields))
		}
		if cfg.TableCapacity > 0 && enc.table.inserted == 0 || len(inserts) > streamRoom {
			t.Errorf("%+v: %d inserts, the last run's %d octets on the encoder stream", cfg, enc.table.inserted, len(inserts))
		}
	}
}
