package bench

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// decodeLoads returns the workloads the decode-* and hop-* rows record.
func decodeLoads(t *testing.T) []*Workload {
	t.Helper()
	stories, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	// None of the benchmarks' workloads marks a field sensitive, so this
	// one makes the tallies see the never-indexed flag go through.
	sensitive := &Workload{Name: "sensitive", Conns: []Conn{
		{
			{{Name: ":method", Value: "GET"}, {Name: "x-secret", Value: "42", Sensitive: true}},
			{{Name: "x-secret", Value: "42", Sensitive: true}, {Name: "authorization", Value: "Bearer abc", Sensitive: true}},
		},
		{{{Name: "x-secret", Value: "42", Sensitive: true}}},
	}}
	return []*Workload{Batch(), stories, Churn(), sensitive}
}

// wantTally returns what decoding w's recording n times hands over.
func wantTally(w *Workload, n int64) tally {
	var t tally
	for _, c := range w.Conns {
		for _, b := range c {
			for _, f := range b {
				t.add(len(f.Name), len(f.Value), f.Sensitive)
			}
		}
	}
	return tally{fields: n * t.fields, octets: n * t.octets, sensitive: n * t.sensitive}
}

// TestDecodeRunsAgree checks that every implementation of the decode-*
// and hop-* rows is handed, over two passes of batch, stories and churn,
// the fields and octets of the workload recorded, and that a hop writes
// again what its encoder writes for those fields on fresh contexts (the
// runner of the encoder rows, Passes): each really decodes, and encodes,
// what it is timed on.
func TestDecodeRunsAgree(t *testing.T) {
	encoders := map[string]Impl{}
	for _, impl := range Impls() {
		encoders[impl.Name] = impl
	}
	for _, w := range decodeLoads(t) {
		rec := recordWire(w)
		for _, hop := range []bool{false, true} {
			runs, err := decodeRuns(rec, hop)
			if err != nil {
				t.Fatal(err)
			}
			if want := len(Impls()) + 1; hop && len(runs) != want-1 || !hop && len(runs) != want {
				t.Errorf("%s hop=%v: %d implementations; want ours, (ours-new,) xnet and those built in", w.Name, hop, len(runs))
			}
			for _, r := range runs {
				want := wantTally(w, 2)
				if hop {
					enc, err := encoders[r.impl].NewRunner(w)
					if err != nil {
						t.Fatal(err)
					}
					wire, err := enc.Passes(2)
					enc.Close()
					if err != nil {
						t.Fatal(err)
					}
					want.wire = int64(wire)
				}
				got, err := r.pass(2)
				if r.close != nil {
					r.close()
				}
				if err != nil {
					t.Errorf("%s hop=%v %s: %v", w.Name, hop, r.impl, err)
				} else if got != want {
					t.Errorf("%s hop=%v %s: two passes handed over %+v; want %+v", w.Name, hop, r.impl, got, want)
				}
			}
		}
	}
}

// TestOursDecodesRecording checks what ours' tally cannot: that the
// decoder, Reset between connections, hands out the very fields of every
// block recorded, and that Reset leaves a table as decoder.New does.
func TestOursDecodesRecording(t *testing.T) {
	d := decoder.New(decoder.Config{})
	for _, w := range decodeLoads(t) {
		rec := recordWire(w)
		for c, blocks := range rec.conns {
			d.Reset()
			if size, maxSize := d.TableSize(); d.TableLen() != 0 || size != 0 || maxSize != 4096 {
				t.Fatalf("%s connection %d: after Reset %d entries, size %d of %d; want 0, 0 of 4096", w.Name, c, d.TableLen(), size, maxSize)
			}
			for b, block := range blocks {
				var got Block
				err := d.Decode(block, func(name, value []byte, sensitive bool) error {
					got = append(got, Field{Name: string(name), Value: string(value), Sensitive: sensitive})
					return nil
				})
				if err != nil {
					t.Fatalf("%s connection %d block %d: %v", w.Name, c, b, err)
				}
				if want := w.Conns[c][b]; !slices.Equal(got, want) {
					t.Fatalf("%s connection %d block %d: decoded %v; want %v", w.Name, c, b, got, want)
				}
			}
		}
	}
}

// TestDecodeRunsFail checks that a block an implementation rejects fails
// its pass with the connection and the block named.
func TestDecodeRunsFail(t *testing.T) {
	rec := recordWire(Batch())
	rec.conns[0] = append(rec.conns[0], []byte{0x82, 0xff}) // an index cut short
	for _, hop := range []bool{false, true} {
		runs, err := decodeRuns(rec, hop)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			_, err := r.pass(1)
			if r.close != nil {
				r.close()
			}
			if err == nil || !strings.Contains(err.Error(), "connection 0 block 1") {
				t.Errorf("hop=%v %s: a truncated block gave %v; want an error naming connection 0 block 1", hop, r.impl, err)
			}
		}
	}
}

// TestHuffmanDecodeRuns checks that both runs of huffman-decode decode
// every variant to its octets, and that the coded strings are the text:
// ours' decoding of each is the string coded.
func TestHuffmanDecodeRuns(t *testing.T) {
	coded, octets := huffmanCoded()
	var want int64
	for _, n := range octets {
		want += int64(n)
	}
	for _, r := range huffmanDecodeRuns() {
		got, err := r.pass(HuffmanVariants)
		if err != nil {
			t.Errorf("%s: %v", r.impl, err)
		} else if got.octets != want {
			t.Errorf("%s: %d octets over every variant; want %d", r.impl, got.octets, want)
		}
	}
	for k, variant := range HuffmanTextVaried() {
		for i, s := range variant {
			got, err := decoder.AppendHuffman(nil, coded[k][i])
			if err != nil || !bytes.Equal(got, []byte(s)) {
				t.Fatalf("variant %d string %d: decoded %q, %v; want %q", k, i, got, err, s)
			}
		}
	}
}

// TestDecodeWorkloads checks that PairedWorkloads builds the rows of
// issue 38 it is asked for, ours first, and that each operation runs.
func TestDecodeWorkloads(t *testing.T) {
	names := []string{"decode-batch", "huffman-decode", "hop-churn"}
	ws, err := PairedWorkloads("", Impls(), names)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, w := range ws {
			w.Close()
		}
	}()
	if len(ws) != len(names) {
		t.Fatalf("got %d workloads; want %v", len(ws), names)
	}
	for _, w := range ws {
		if !slices.Contains(names, w.Name) || w.Ops[0].Impl != "ours" {
			t.Errorf("workload %s, first implementation %s; want one of %v, ours first", w.Name, w.Ops[0].Impl, names)
		}
		for _, op := range w.Ops {
			if err := op.Op(2); err != nil {
				t.Errorf("%s: %s: %v", w.Name, op.Impl, err)
			}
		}
	}
}
