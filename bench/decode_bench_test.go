package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// benchDecodeRows runs the operations of the paired rows of issue 38 named
// in rows as sub-benchmarks workload=<row>/impl=<impl>, an operation being
// the row's unit (see DecodeWorkloads); bytes are the octets of names and
// values the unit decodes.
func benchDecodeRows(b *testing.B, rows ...string) {
	ws, err := DecodeWorkloads(testenv.TestCaseDir(b), rows, false)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		for _, w := range ws {
			w.Close()
		}
	}()
	for _, w := range ws {
		b.Run("workload="+w.Name, func(b *testing.B) {
			for _, op := range w.Ops {
				if !benchImpl(op.Impl) {
					continue
				}
				b.Run("impl="+op.Impl, func(b *testing.B) {
					if err := op.Op(1); err != nil {
						b.Fatal(err)
					}
					timed(b, op.Op)
				})
			}
		})
	}
}

// BenchmarkDecode is the decode-batch and decode-stories rows: the
// recording of workload (a) or (b) decoded, each connection on a fresh
// context, by ours (views), x/net (DecodeFull) and libnghttp2's inflater
// (a loop in C).
func BenchmarkDecode(b *testing.B) { benchDecodeRows(b, "decode-batch", "decode-stories") }

// BenchmarkHuffmanDecode is the huffman-decode row: the next variant of
// the varied header text decoded, string by string.
func BenchmarkHuffmanDecode(b *testing.B) { benchDecodeRows(b, "huffman-decode") }

// BenchmarkHop is the hop-stories and hop-churn rows: a proxy hop with one
// implementation decoding and encoding again.
func BenchmarkHop(b *testing.B) { benchDecodeRows(b, "hop-stories", "hop-churn") }
