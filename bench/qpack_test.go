package bench

import "testing"

// TestQPACKWorkloads checks the qpack-encode row is built only when asked
// for, with the reference first, and that each of its operations runs.
func TestQPACKWorkloads(t *testing.T) {
	if ws, err := QPACKWorkloads([]string{"batch"}, false); err != nil || len(ws) != 0 {
		t.Fatalf("QPACKWorkloads without qpack-encode: %d workloads, %v; want none", len(ws), err)
	}
	ws, err := QPACKWorkloads([]string{"qpack-encode"}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws[0].Close()
	want := 1
	if newNghttp3QPACKEncode != nil {
		want = 2
	}
	if len(ws) != 1 || ws[0].Name != "qpack-encode" || len(ws[0].Ops) != want || ws[0].Ops[0].Impl != "ours" {
		t.Fatalf("got %+v; want qpack-encode with ours first and %d operations", ws, want)
	}
	for _, op := range ws[0].Ops {
		if err := op.Op(1); err != nil {
			t.Errorf("%s: %v", op.Impl, err)
		}
	}
}
