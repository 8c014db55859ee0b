package bench

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	xs := []float64{4, 1, 3, 2, 5}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 2}, {0.5, 3}, {0.75, 4}, {1, 5}, {0.125, 1.5}} {
		if got := quantile(xs, c.q); got != c.want {
			t.Errorf("quantile(%v, %v) = %v; want %v", xs, c.q, got, c.want)
		}
	}
	if xs[0] != 4 {
		t.Errorf("quantile sorted its argument: %v", xs)
	}
	if got := quantile(nil, 0.5); got != 0 {
		t.Errorf("quantile(nil) = %v; want 0", got)
	}
}

// TestRatios checks the per-round ratios against the first
// implementation on fixed figures: no wall clock decides a test.
func TestRatios(t *testing.T) {
	r := &PairedResult{NsPerOp: [][]float64{{10, 20, 40, 10}, {30, 40, 40, 50}}}
	q1, med, q3 := r.Ratios(1)
	// The ratios are 3, 2, 1, 5: sorted 1, 2, 3, 5.
	if q1 != 1.75 || med != 2.5 || q3 != 3.5 {
		t.Errorf("Ratios(1) = %v, %v, %v; want 1.75, 2.5, 3.5", q1, med, q3)
	}
	if _, med, _ := r.Ratios(0); med != 1 {
		t.Errorf("Ratios(0) median = %v; want 1", med)
	}
}

// TestMeasurePaired checks the bookkeeping: every implementation runs once
// a round, in an order that rotates, and ns/op is the slice's time over its
// count.
func TestMeasurePaired(t *testing.T) {
	var order []string
	busy := func(name string, per time.Duration) PairedOp {
		return PairedOp{Impl: name, Op: func(n int) error {
			order = append(order, name)
			deadline := time.Now().Add(time.Duration(n) * per)
			for time.Now().Before(deadline) {
			}
			return nil
		}}
	}
	w := PairedWorkload{Name: "synthetic", Unit: "op", Ops: []PairedOp{busy("a", 20*time.Microsecond), busy("b", 60*time.Microsecond)}}
	res, err := MeasurePaired(w, 4, 2*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NsPerOp) != 2 || len(res.NsPerOp[0]) != 4 || len(res.NsPerOp[1]) != 4 {
		t.Fatalf("NsPerOp has %d rows of %d; want 2 of 4", len(res.NsPerOp), len(res.NsPerOp[0]))
	}
	rounds := strings.Join(order[len(order)-8:], "")
	if rounds != "abbaabba" {
		t.Errorf("slices ran in the order %q; want each round rotated (abbaabba)", rounds)
	}
	for i, ns := range res.NsPerOp {
		for _, v := range ns {
			if v <= 0 {
				t.Errorf("impl %d: %v ns/op; want > 0", i, v)
			}
		}
	}

	fail := PairedWorkload{Name: "failing", Ops: []PairedOp{{Impl: "ours", Op: func(int) error { return errors.New("boom") }}}}
	if _, err := MeasurePaired(fail, 1, time.Millisecond); err == nil || !strings.Contains(err.Error(), "failing: ours: boom") {
		t.Errorf("a failing operation gave %v; want an error naming the workload and implementation", err)
	}
	if _, err := MeasurePaired(PairedWorkload{Name: "empty"}, 1, time.Millisecond); err == nil {
		t.Error("a workload without operations measured without error")
	}
}

func TestPairedWorkloads(t *testing.T) {
	ws, err := PairedWorkloads("", Impls(), []string{"batch", "huffman-text-varied"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, w := range ws {
			w.Close()
		}
	}()
	if len(ws) != 2 || ws[0].Name != "batch" || ws[1].Name != "huffman-text-varied" {
		t.Fatalf("got %d workloads; want batch and huffman-text-varied", len(ws))
	}
	for _, w := range ws {
		if w.Ops[0].Impl != "ours" {
			t.Errorf("%s: first implementation %s; want ours", w.Name, w.Ops[0].Impl)
		}
		for _, op := range w.Ops {
			if err := op.Op(3); err != nil {
				t.Errorf("%s: %s: %v", w.Name, op.Impl, err)
			}
		}
	}
}
