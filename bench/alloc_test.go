package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestOursAllocs asserts the zero-allocation contract on every workload
// the benchmarks run on our encoder (creating an encoder with encoder.New,
// pool=new in BenchmarkSetup, is the one path that allocates by design).
func TestOursAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const runs = 100
	steady := func(w *Workload) func() {
		r := NewOurs(w)
		r.Steps(w.Blocks()) // warm the table
		return func() { r.Steps(1) }
	}
	pass := func(w *Workload) func() {
		r := NewOurs(w)
		r.Passes(1) // fill the pool
		return func() { r.Passes(1) }
	}
	text, random, randomVaried := HuffmanText(), HuffmanRandom(), HuffmanRandomVaried()
	dst := make([]byte, 0, 4*totalLen(random))
	cases := []struct {
		name string
		op   func()
	}{
		{"batch", steady(Batch())},
		{"churn", steady(Churn())},
		{"setup/pooled", pass(Setup())},
		{"huffman/text", func() { dst = appendHuffmanOurs(dst[:0], text) }},
		{"huffman/random", func() { dst = appendHuffmanOurs(dst[:0], random) }},
		{"huffman/random-varied", func() { dst = appendHuffmanOurs(dst[:0], randomVaried[7]) }},
	}
	if w, err := Stories(testenv.TestCaseDir(t)); err != nil {
		t.Error(err)
	} else {
		cases = append(cases, struct {
			name string
			op   func()
		}{"stories", pass(w)})
	}
	for _, c := range cases {
		if got := testing.AllocsPerRun(runs, c.op); got != 0 {
			t.Errorf("%s: %v allocs per operation; want 0", c.name, got)
		}
	}
}
