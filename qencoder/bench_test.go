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

// BenchmarkTraffic encodes the whole QIF traffic once per op (a pass),
// each header list on a stream of its own, with the static table only:
// the reference encoder (this package) as quic-go/qpack's encoder.
// SetBytes counts the raw names and values; octets/pass is the encoded
// size.
func BenchmarkTraffic(b *testing.B) {
	lists, raw := trafficLists(b)
	enc := New(Config{})
	dst := make([]byte, 0, 64<<10)
	b.Run("encoder=reference", func(b *testing.B) {
		benchLists(b, lists, raw, nil, func(_ uint64, l []spec.Field) int {
			section, _ := enc.AppendSection(dst[:0], nil, 0, l)
			return len(section)
		})
	})
	var buf bytes.Buffer
	quicGo := qpack.NewEncoder(&buf)
	b.Run("encoder=quic-go", func(b *testing.B) {
		benchLists(b, lists, raw, nil, func(_ uint64, l []spec.Field) int {
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

// BenchmarkQIF is BenchmarkTraffic's pass for the reference encoder with
// a 4096-octet dynamic table and 100 streams allowed to block, under a
// decoder that acknowledges each section and the inserts it received
// right after the section. A pass is a new connection; octets/pass counts
// its sections and encoder stream together.
func BenchmarkQIF(b *testing.B) {
	lists, raw := trafficLists(b)
	var enc *Encoder
	dst := make([]byte, 0, 64<<10)
	es := make([]byte, 0, 64<<10)
	ds := make([]byte, 0, 32)
	newConnection := func() {
		enc = New(Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096, BlockedStreams: 100})
	}
	benchLists(b, lists, raw, newConnection, func(stream uint64, l []spec.Field) int {
		section, inserts := enc.AppendSection(dst[:0], es[:0], stream, l)
		if err := ackAll(enc, ds, stream, section); err != nil {
			b.Fatal(err)
		}
		return len(section) + len(inserts)
	})
}

// benchLists runs encode on every list once per op, the list i on stream
// 4i, and reports the time and the encoded octets of a pass. A non-nil
// newConnection is called, off the clock, before each pass: a pass is
// then one connection, whose octets do not depend on the passes before.
func benchLists(b *testing.B, lists [][]spec.Field, raw int, newConnection func(), encode func(uint64, []spec.Field) int) {
	b.SetBytes(int64(raw))
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		if newConnection != nil {
			b.StopTimer()
			newConnection()
			b.StartTimer()
		}
		size = 0
		for i, l := range lists {
			size += encode(uint64(i)*4, l)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/pass")
	b.ReportMetric(float64(size), "octets/pass")
}
