package decoder

import (
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
)

// The benchmarks run each workload on this decoder and on x/net's, in the
// same run, so that benchstat can compare them:
//
//	go test -run='^$' -bench=. -benchmem -count=10 ./decoder | benchstat -col /impl -
//
// They are a first look, not issue 38's paired benchmarks.

// benchUserAgent is a 110-byte Chrome user-agent string.
const benchUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.0.0 Safari/537.36"

// benchBatch is the 4-field request of the encoder's benchmarks.
var benchBatch = [][2]string{
	{":method", "GET"}, {":path", "/api/v1/resource"},
	{"user-agent", benchUserAgent}, {"cookie", "session_token=deadbeef1234567890"},
}

// BenchmarkDecodeBatch decodes the batch request as the encoder sends it
// on a warm connection: per iteration, the first block (literals, Huffman
// coded, inserted) and the next (dynamic table hits). Repeating both is
// valid: the first refers only to entries it inserts.
func BenchmarkDecodeBatch(b *testing.B) {
	enc := encoder.New(encoder.Config{})
	var first, second []byte
	for _, f := range benchBatch {
		first = enc.AppendFieldString(first, f[0], f[1], false)
	}
	for _, f := range benchBatch {
		second = enc.AppendFieldString(second, f[0], f[1], false)
	}
	b.Run("impl=hpackcert", func(b *testing.B) {
		n := 0
		emit := func(name, value []byte, sensitive bool) error {
			n += len(value)
			return nil
		}
		d := New(Config{})
		b.ReportAllocs()
		b.SetBytes(int64(len(first) + len(second)))
		for b.Loop() {
			if err := d.Decode(first, emit); err != nil {
				b.Fatal(err)
			}
			if err := d.Decode(second, emit); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		d := hpack.NewDecoder(4096, nil)
		b.ReportAllocs()
		b.SetBytes(int64(len(first) + len(second)))
		for b.Loop() {
			if _, err := d.DecodeFull(first); err != nil {
				b.Fatal(err)
			}
			if _, err := d.DecodeFull(second); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHuffmanDecode decodes the Huffman coding of header text alone.
func BenchmarkHuffmanDecode(b *testing.B) {
	text := benchUserAgent + strings.Repeat("/api/v1/resource?id=1234&session_token=deadbeef;", 4)
	src := encoder.AppendHuffmanString(nil, text)
	b.Run("impl=hpackcert", func(b *testing.B) {
		dst := make([]byte, 0, len(text))
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			var err error
			if dst, err = AppendHuffman(dst[:0], src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := hpack.HuffmanDecodeToString(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
