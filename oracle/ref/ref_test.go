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

// settingSizes and updateSizes are what TestSettingsAgree draws from:
// each side of the initial 4096, of 16 MiB, of the decoder's 1 GiB of
// entries, and 2^32-1.
var (
	settingSizes = []uint32{0, 100, 4096, 4097, 8192, 16 << 20, 16<<20 + 1, 1 << 30, 1<<30 + 1, 1<<32 - 1}
	updateSizes  = []uint32{0, 50, 100, 4096, 4097, 8192, 16 << 20, 16<<20 + 1, 1 << 30, 1<<30 + 1, 1<<32 - 1}
)

// TestSettingsAgree decodes random sessions of settings and blocks that
// begin with size updates, with the oracle and with strict: every
// verdict, field and table must be the same, however large the setting.
func TestSettingsAgree(t *testing.T) {
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
			block := randomBlock(rng, step)
			log = append(log, fmt.Sprintf("block %x", block))
			got, gotErr := r.DecodeBlock(block)
			want, wantErr := s.DecodeBlock(block)
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
// insertion of a 40-octet entry and a reference to the newest entry.
func randomBlock(rng *rand.Rand, step int) []byte {
	var block []byte
	for range rng.IntN(3) {
		n := updateSizes[rng.IntN(len(updateSizes))]
		block = encoder.AppendInteger(block, 0x20, 5, uint64(n))
	}
	// With incremental indexing, new name (RFC 7541 §6.2.1): 40 octets.
	block = append(block, 0x40, 0x04, 'n', 'a', 'm', 'e', 0x04, 'v', 'a', 'l', byte('0'+step))
	return append(block, 0x80|62)
}

// TestHugeSettingMemory checks that a setting of 2^32-1 costs no more
// memory than the table a session uses (it took 4.7 GB when package
// decoder allocated a table for every setting).
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
