package decoder

import (
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// storyWire returns the raw-data stories of hpack-test-case as the
// reference encoder writes them, one connection per story.
func storyWire(tb testing.TB) [][][]byte {
	stories, err := vectors.RawData()
	if err != nil {
		tb.Fatal(err)
	}
	var conns [][][]byte
	for _, s := range stories {
		enc := encoder.New(encoder.Config{})
		var blocks [][]byte
		for _, c := range s.Cases {
			var block []byte
			for _, f := range c.Headers {
				block = enc.AppendFieldString(block, f.Name, f.Value, f.Sensitive)
			}
			blocks = append(blocks, block)
		}
		conns = append(conns, blocks)
	}
	return conns
}

// BenchmarkDecodeStories decodes the 32 raw-data stories, each on a fresh
// decoder, per iteration.
func BenchmarkDecodeStories(b *testing.B) {
	conns := storyWire(b)
	b.Run("impl=hpackcert", func(b *testing.B) {
		n := 0
		emit := func(name, value []byte, sensitive bool) error {
			n += len(value)
			return nil
		}
		ds := make([]*Decoder, len(conns))
		for i := range ds {
			ds[i] = New(Config{})
		}
		b.ReportAllocs()
		for b.Loop() {
			for c, blocks := range conns {
				d := ds[c]
				d.table = newTable(d.table.capacity)
				for _, block := range blocks {
					if err := d.Decode(block, emit); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, blocks := range conns {
				d := hpack.NewDecoder(4096, nil)
				for _, block := range blocks {
					if _, err := d.DecodeFull(block); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
}
