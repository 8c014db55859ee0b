package hpack

import (
	"bytes"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
	xhpack "golang.org/x/net/http2/hpack"
)

// BenchmarkDecoderDecodeFull decodes with DecodeFull, on this package's
// Decoder and x/net's in the same run, for benchstat:
//
//	go test -run='^$' -bench=DecoderDecodeFull -benchmem -count=10 ./hpack | benchstat -col /impl -
//
// batch is decoder's BenchmarkDecodeBatch workload through the x/net API:
// per iteration the first block of a 4-field request (literals, Huffman
// coded, inserted) and the next (table hits), from the reference encoder.
func BenchmarkDecoderDecodeFull(b *testing.B) {
	enc := encoder.New(encoder.Config{})
	batch := []HeaderField{
		{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/api/v1/resource"},
		{Name: "user-agent", Value: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.0.0 Safari/537.36"},
		{Name: "cookie", Value: "session_token=deadbeef1234567890"},
	}
	var first, second []byte
	for _, f := range batch {
		first = enc.AppendFieldString(first, f.Name, f.Value, false)
	}
	for _, f := range batch {
		second = enc.AppendFieldString(second, f.Name, f.Value, false)
	}
	run := func(b *testing.B, decodeFull func([]byte) (int, error)) {
		b.ReportAllocs()
		b.SetBytes(int64(len(first) + len(second)))
		for b.Loop() {
			for _, block := range [][]byte{first, second} {
				if n, err := decodeFull(block); err != nil || n != len(batch) {
					b.Fatalf("DecodeFull: %d fields, %v; want %d", n, err, len(batch))
				}
			}
		}
	}
	b.Run("workload=batch/impl=hpackcert", func(b *testing.B) {
		d := NewDecoder(4096, nil)
		run(b, func(p []byte) (int, error) { fs, err := d.DecodeFull(p); return len(fs), err })
	})
	b.Run("workload=batch/impl=xnet", func(b *testing.B) {
		d := xhpack.NewDecoder(4096, nil)
		run(b, func(p []byte) (int, error) { fs, err := d.DecodeFull(p); return len(fs), err })
	})
}

// BenchmarkDecoderStories decodes with DecodeFull the hpack-test-case
// raw-data stories as the reference encoder (through NewEncoder) writes
// them, each story on a new connection: a new Decoder per story, as a
// server has one per connection.
func BenchmarkDecoderStories(b *testing.B) {
	stories, err := vectors.RawData()
	if err != nil {
		b.Fatal(err)
	}
	var conns [][][]byte
	size := 0
	for _, st := range stories {
		var buf bytes.Buffer
		e := NewEncoder(&buf)
		var blocks [][]byte
		for _, c := range st.Cases {
			for _, f := range c.Headers {
				_ = e.WriteField(HeaderField(f))
			}
			blocks = append(blocks, bytes.Clone(buf.Bytes()))
			size += buf.Len()
			buf.Reset()
		}
		conns = append(conns, blocks)
	}
	run := func(b *testing.B, newConn func() func([]byte) error) {
		b.ReportAllocs()
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, blocks := range conns {
				decodeFull := newConn()
				for _, block := range blocks {
					if err := decodeFull(block); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	b.Run("impl=hpackcert", func(b *testing.B) {
		run(b, func() func([]byte) error {
			d := NewDecoder(4096, nil)
			return func(p []byte) error { _, err := d.DecodeFull(p); return err }
		})
	})
	b.Run("impl=xnet", func(b *testing.B) {
		run(b, func() func([]byte) error {
			d := xhpack.NewDecoder(4096, nil)
			return func(p []byte) error { _, err := d.DecodeFull(p); return err }
		})
	})
}
