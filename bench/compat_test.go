package bench

import (
	"bytes"
	"testing"
)

// TestCompatSteadyAllocs checks that package hpack's runner allocates
// nothing per block of a steady workload, once its buffers have grown:
// WriteField into a bytes.Buffer, as the compat rows measure it.
func TestCompatSteadyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, w := range []*Workload{Batch(), Churn()} {
		r := NewCompat(w)
		if _, err := r.Steps(w.Blocks()); err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(100, func() { r.Steps(1) }); got != 0 {
			t.Errorf("%s: %v allocs per block; want 0", w.Name, got)
		}
	}
}

// TestCompatPairedWorkloads checks that the compat workloads pair package
// hpack, first, with x/net's Encoder.
func TestCompatPairedWorkloads(t *testing.T) {
	ws, err := PairedWorkloads("", Impls(), []string{"compat-batch"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, w := range ws {
			w.Close()
		}
	}()
	if len(ws) != 1 || len(ws[0].Ops) != 2 || ws[0].Ops[0].Impl != "hpack" || ws[0].Ops[1].Impl != "xnet" {
		t.Fatalf("compat-batch: got %+v; want one workload of hpack then xnet", ws)
	}
	for _, op := range ws[0].Ops {
		if err := op.Op(3); err != nil {
			t.Errorf("compat-batch: %s: %v", op.Impl, err)
		}
	}
}

// TestOursBlockSameWire checks that the block API's runner writes the
// blocks the per-field runner writes, on the workloads of its rows.
func TestOursBlockSameWire(t *testing.T) {
	for _, w := range []*Workload{Batch(), Churn(), Setup()} {
		for c := range w.Conns {
			want, err := NewOurs(w).Wire(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewOursBlock(w).Wire(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s conn %d: %d blocks by AppendBlock, %d field by field", w.Name, c, len(got), len(want))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%s conn %d block %d: AppendBlock wrote %x; field by field %x", w.Name, c, i, got[i], want[i])
				}
			}
		}
	}
}
