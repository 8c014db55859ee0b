package decoder

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

// TestScratchShared decodes three connections, interleaved block by
// block, on decoders sharing one Scratch, and each again on a decoder of
// its own: the fields must be the same.
func TestScratchShared(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	scratch := NewScratch(0)
	const conns = 3
	var encs [conns]*encoder.Encoder
	var shared, own [conns]*Decoder
	for c := range conns {
		encs[c] = encoder.New(encoder.Config{})
		shared[c] = New(Config{Scratch: scratch})
		own[c] = New(Config{})
	}
	for range 60 {
		c := r.IntN(conns)
		block := randomBlock(r, encs[c], 8)
		want, err := collect(own[c], block)
		if err != nil {
			t.Fatal(err)
		}
		got, err := collect(shared[c], block)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("connection %d, block %x: shared scratch %q, %v; own %q", c, block, got, err, want)
		}
	}
}

// allocatedBy returns the octets the heap grew by while f ran runs
// times, divided by runs, as testing.AllocsPerRun divides its count: the
// runtime and the test framework allocate now and then on other
// goroutines, a few hundred octets at a time, which one run alone would
// count.
func allocatedBy(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// TestScratchMemory checks what a connection costs: with a shared Scratch,
// the 4,096-octet table's arena (1.5 times the size) and ring, under 8
// KiB; alone, also room for two 16 KiB strings, over 32 KiB.
func TestScratchMemory(t *testing.T) {
	scratch := NewScratch(0)
	var d *Decoder
	shared := allocatedBy(allocRuns, func() { d = New(Config{Scratch: scratch}) })
	alone := allocatedBy(allocRuns, func() { d = New(Config{}) })
	runtime.KeepAlive(d)
	if shared > 8<<10 || alone < 32<<10 || alone > 48<<10 {
		t.Fatalf("New allocated %d octets with a shared Scratch (want <= 8 KiB), %d alone (want 32 to 48 KiB)", shared, alone)
	}
	t.Logf("a connection's decoder: %d octets with a shared Scratch, %d alone", shared, alone)
}

// TestReset checks that a decoder Reset after a connection decodes the
// next one as a new decoder does, limits and table included, and that
// Reset allocates nothing.
func TestReset(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	d := New(Config{TableSize: 2048, MaxHeaderListSize: 1 << 20})
	for range 5 {
		enc := encoder.New(encoder.Config{})
		enc.SetMaxDynamicTableSize(2048)
		fresh := New(Config{TableSize: 2048, MaxHeaderListSize: 1 << 20})
		for range 10 {
			block := randomBlock(r, enc, 8)
			want, werr := collect(fresh, block)
			got, err := collect(d, block)
			if err != nil || werr != nil || strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("block %x: reset decoder %q, %v; new one %q, %v", block, got, err, want, werr)
			}
			if a, b := tableFieldsOf(d), tableFieldsOf(fresh); a != b {
				t.Fatalf("tables differ: reset %s, new %s", a, b)
			}
		}
		d.SetTableSize(100)
		d.SetMaxHeaderListSize(1)
		if allocs := testing.AllocsPerRun(allocRuns, d.Reset); allocs != 0 && !raceEnabled {
			t.Fatalf("Reset: %v allocations, want 0", allocs)
		}
	}
}
