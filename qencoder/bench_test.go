package qencoder

import (
	"bytes"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors/qif"
	"github.com/quic-go/qpack"
)

// trafficLists returns every header list of the QIF traffic embedded in
// vectors/qif, with the number of octets of their fields' names and values.
func trafficLists(b *testing.B) ([][]spec.Field, int) {
	files, err := qif.Traffic()
	if err != nil {
		b.Fatal(err)
	}
	var lists [][]spec.Field
	raw := 0
	for _, f := range files {
		for _, l := range f.HeaderLists {
			lists = append(lists, l)
			for _, fl := range l {
				raw += len(fl.Name) + len(fl.Value)
			}
		}
	}
	return lists, raw
}

// BenchmarkTraffic encodes the whole QIF traffic once per op: the
// reference encoder (this package) with the static table only, as
// quic-go/qpack's encoder, then with a 4096-octet dynamic table whose
// inserts the decoder acknowledges at once. SetBytes counts the raw names
// and values; octets/op is the encoded size, encoder stream included.
func BenchmarkTraffic(b *testing.B) {
	lists, raw := trafficLists(b)
	enc := New(Config{})
	dst := make([]byte, 0, 64<<10)
	b.Run("encoder=reference", func(b *testing.B) {
		benchLists(b, lists, raw, func(l []spec.Field) int {
			section, _ := enc.AppendSection(dst[:0], nil, 0, l)
			return len(section)
		})
	})
	dynamic := New(Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096})
	es := make([]byte, 0, 64<<10)
	ds := make([]byte, 0, 32)
	b.Run("encoder=reference-table4096", func(b *testing.B) {
		benchLists(b, lists, raw, func(l []spec.Field) int {
			section, inserts := dynamic.AppendSection(dst[:0], es[:0], 0, l)
			if err := ackAll(dynamic, ds, section); err != nil {
				b.Fatal(err)
			}
			return len(section) + len(inserts)
		})
	})
	var buf bytes.Buffer
	quicGo := qpack.NewEncoder(&buf)
	b.Run("encoder=quic-go", func(b *testing.B) {
		benchLists(b, lists, raw, func(l []spec.Field) int {
			buf.Reset()
			for _, f := range l {
				if err := quicGo.WriteField(qpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
					b.Fatal(err)
				}
			}
			quicGo.Close()
			return buf.Len()
		})
	})
}

// benchLists runs encode on every list once per op and reports the
// encoded octets of an op.
func benchLists(b *testing.B, lists [][]spec.Field, raw int, encode func([]spec.Field) int) {
	b.SetBytes(int64(raw))
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		size = 0
		for _, l := range lists {
			size += encode(l)
		}
	}
	b.ReportMetric(float64(size), "octets/op")
}
