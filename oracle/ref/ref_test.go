package ref

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// settingSizes and updateSizes are what TestCappedSettings draws from:
// each side of the initial 4096, of the oracle's room, and of 2^32.
var (
	settingSizes = []uint32{0, 100, 4096, 4097, 8192, MaxTableSize, MaxTableSize + 1, 1 << 30, 1<<32 - 1}
	updateSizes  = []uint32{0, 50, 100, 4096, 4097, 8192, MaxTableSize, MaxTableSize + 1, 1<<32 - 1}
)

// TestCappedSettings decodes random sessions of settings and blocks that
// begin with size updates, with the oracle and with strict: the settings
// the oracle gives its decoder capped at its room must change no
// verdict, field or table, except that an update above MaxTableSize is
// refused (the oracle's KnownLeniencies entry).
func TestCappedSettings(t *testing.T) {
	sessions := 600
	if testing.Short() {
		sessions = 100
	}
	rng := rand.New(rand.NewPCG(38, 1))
	for session := range sessions {
		r, s := New(), strict.New()
		var log []string
		for step := range 6 {
			for range rng.IntN(3) {
				n := settingSizes[rng.IntN(len(settingSizes))]
				r.SetMaxDynamicTableSize(n)
				s.SetMaxDynamicTableSize(n)
				log = append(log, fmt.Sprintf("setting %d", n))
			}
			block, largest := randomBlock(rng, step)
			log = append(log, fmt.Sprintf("block %x", block))
			got, gotErr := r.DecodeBlock(block)
			want, wantErr := s.DecodeBlock(block)
			if gotErr != nil && wantErr == nil && largest > MaxTableSize {
				break // the known bound: the session goes no further
			}
			if (gotErr == nil) != (wantErr == nil) || !slices.Equal(got, want) {
				t.Fatalf("session %d: ref %+v, %v; strict %+v, %v\n%q", session, got, gotErr, want, wantErr, log)
			}
			if wantErr != nil {
				break
			}
			if gotTable, wantTable := r.Table(), s.Table(); !slices.Equal(gotTable, wantTable) {
				t.Fatalf("session %d: ref's table %+v; strict's %+v\n%q", session, gotTable, wantTable, log)
			}
		}
	}
}

// randomBlock returns a block of up to two size updates, then an
// insertion of a 40-octet entry and a reference to the newest entry, and
// the largest of its updates.
func randomBlock(rng *rand.Rand, step int) ([]byte, uint32) {
	var block []byte
	var largest uint32
	for range rng.IntN(3) {
		n := updateSizes[rng.IntN(len(updateSizes))]
		block = encoder.AppendInteger(block, 0x20, 5, uint64(n))
		largest = max(largest, n)
	}
	// With incremental indexing, new name (RFC 7541 §6.2.1): 40 octets.
	block = append(block, 0x40, 0x04, 'n', 'a', 'm', 'e', 0x04, 'v', 'a', 'l', byte('0'+step))
	return append(block, 0x80|62), largest
}

// TestHugeSettingMemory checks that a setting of 2^32-1 costs no more
// memory than the table a session uses: package decoder would allocate
// 1.5 GiB of arena for it.
func TestHugeSettingMemory(t *testing.T) {
	d := New()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d.SetMaxDynamicTableSize(1<<32 - 1)
	// An update to 8192 within the setting, then an insertion.
	if _, err := d.DecodeBlock([]byte{0x3f, 0xe1, 0x3f, 0x40, 0x01, 'a', 0x01, 'b'}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("a block after a setting of 2^32-1 allocated %d octets; want at most 1 MiB", grew)
	}
}
