package bench

import (
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// workloads returns every workload of the benchmarks, the stories only when
// the hpack-test-case data is there.
func workloads(t *testing.T) []*Workload {
	ws := []*Workload{Batch(), Churn(), Setup()}
	if dir := testenv.TestCaseDirPath(); dir != "" {
		if w, err := Stories(dir); err == nil {
			ws = append(ws, w)
		} else if testenv.Required() {
			t.Fatal(err)
		}
	}
	return ws
}

func newRunner(tb testing.TB, impl Impl, w *Workload) Runner {
	tb.Helper()
	r, err := impl.NewRunner(w)
	if err != nil {
		tb.Fatalf("%s: %v", impl.Name, err)
	}
	tb.Cleanup(r.Close)
	return r
}

// TestRunnersDecode checks what every runner measures: each connection's
// blocks decode, with x/net's decoder, to the workload's fields, and Steps
// and Passes produce as many bytes as the blocks of Wire. Package hpack's
// runner (CompatImpls) is checked with them.
func TestRunnersDecode(t *testing.T) {
	for _, w := range workloads(t) {
		for _, impl := range append(Impls(), CompatImpls()[0]) {
			t.Run(w.Name+"/"+impl.Name, func(t *testing.T) {
				r := newRunner(t, impl, w)
				wireTotal := 0
				for c, conn := range w.Conns {
					blocks, err := r.Wire(c)
					if err != nil {
						t.Fatal(err)
					}
					if len(blocks) != len(conn) {
						t.Fatalf("conn %d: %d blocks; want %d", c, len(blocks), len(conn))
					}
					dec := hpack.NewDecoder(4096, nil)
					for i, block := range blocks {
						wireTotal += len(block)
						got, err := dec.DecodeFull(block)
						if err != nil {
							t.Fatalf("conn %d block %d: %v", c, i, err)
						}
						want := conn[i]
						if len(got) != len(want) {
							t.Fatalf("conn %d block %d: decoded %d fields; want %d", c, i, len(got), len(want))
						}
						for j := range want {
							if got[j].Name != want[j].Name || got[j].Value != want[j].Value {
								t.Fatalf("conn %d block %d field %d: got %q: %q; want %q: %q",
									c, i, j, got[j].Name, got[j].Value, want[j].Name, want[j].Value)
							}
						}
					}
				}
				passTotal, err := r.Passes(1)
				if err != nil {
					t.Fatal(err)
				}
				if passTotal != wireTotal {
					t.Errorf("Passes(1) = %d bytes; want %d, the sum of Wire", passTotal, wireTotal)
				}
				if len(w.Conns) == 1 {
					stepTotal, err := r.Steps(w.Blocks())
					if err != nil {
						t.Fatal(err)
					}
					if stepTotal != wireTotal {
						t.Errorf("Steps over the first cycle = %d bytes; want %d, the sum of Wire", stepTotal, wireTotal)
					}
				}
			})
		}
	}
}
