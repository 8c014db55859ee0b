package encoder

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// The benchmarks run each workload on this encoder and on x/net's
// http2/hpack Encoder, in the same run, so that benchstat can compare them:
//
//	go test -run='^$' -bench=. -benchmem -count=10 ./encoder | benchstat -col /impl -

func batchBytes() int {
	n := 0
	for _, f := range batch {
		n += len(f.name) + len(f.value)
	}
	return n
}

// BenchmarkBatch encodes the 4-field request (:method GET, :path
// /api/v1/resource, a 110-byte Chrome user-agent, a session cookie) as one
// block per iteration, on a warm connection.
func BenchmarkBatch(b *testing.B) {
	if len(chromeUserAgent) != 110 {
		b.Fatalf("user-agent is %d bytes; want 110", len(chromeUserAgent))
	}
	b.Run("impl=hpackcert/input=string", func(b *testing.B) {
		enc := New(Config{})
		dst := make([]byte, 0, 1024)
		b.ReportAllocs()
		b.SetBytes(int64(batchBytes()))
		for b.Loop() {
			dst = appendAll(enc, dst[:0], batch, true)
		}
	})
	b.Run("impl=hpackcert/input=bytes", func(b *testing.B) {
		enc := New(Config{})
		dst := make([]byte, 0, 1024)
		b.ReportAllocs()
		b.SetBytes(int64(batchBytes()))
		for b.Loop() {
			dst = appendAll(enc, dst[:0], batch, false)
		}
	})
	b.Run("impl=xnet/input=string", func(b *testing.B) {
		var buf bytes.Buffer
		enc := hpack.NewEncoder(&buf)
		b.ReportAllocs()
		b.SetBytes(int64(batchBytes()))
		for b.Loop() {
			buf.Reset()
			for _, f := range batch {
				enc.WriteField(hpack.HeaderField{Name: f.name, Value: f.value})
			}
		}
	})
}

// BenchmarkStories encodes every block of the 32 raw-data stories per
// iteration, one connection per story, and reports the time per block.
func BenchmarkStories(b *testing.B) {
	stories := readRawStories(b)
	blocks, size := 0, 0
	for _, s := range stories {
		blocks += len(s.blocks)
		for _, block := range s.blocks {
			for _, f := range block {
				size += len(f.Name) + len(f.Value)
			}
		}
	}
	perBlock := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*blocks), "ns/block")
	}
	// huffman=never sends every string raw: the difference from the
	// default is the share of Huffman coding in a pass.
	for _, mode := range []struct {
		name    string
		huffman HuffmanMode
	}{{"", HuffmanShorter}, {"/huffman=never", HuffmanNever}} {
		b.Run("impl=hpackcert"+mode.name, func(b *testing.B) {
			enc := New(Config{Policy: Policy{Huffman: mode.huffman}})
			dst := make([]byte, 0, 1<<16)
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, s := range stories {
					enc.Reset()
					for _, block := range s.blocks {
						dst = dst[:0]
						for _, f := range block {
							dst = enc.AppendFieldString(dst, f.Name, f.Value, false)
						}
					}
				}
			}
			perBlock(b)
		})
	}
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		b.ReportAllocs()
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, s := range stories {
				enc := hpack.NewEncoder(&buf)
				for _, block := range s.blocks {
					buf.Reset()
					for _, f := range block {
						enc.WriteField(f)
					}
				}
			}
		}
		perBlock(b)
	})
}

// huffmanText is header-like text for BenchmarkHuffman.
var huffmanText = []string{
	chromeUserAgent,
	"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
	"gzip, deflate, br, zstd",
	"en-US,en;q=0.9",
	"https://www.example.com/products/shoes?color=blue&size=42",
	"/api/v1/resource",
	"session_token=deadbeef1234567890; theme=dark; _ga=GA1.2.1234567890.1700000000",
	"max-age=31536000, includeSubDomains; preload",
	"Mon, 30 Nov 2026 00:00:00 GMT",
	"application/json; charset=utf-8",
	"3f2a9c4e-7b1d-4e8a-9c2f-1a2b3c4d5e6f",
}

// BenchmarkHuffman codes header text with AppendHuffmanString and with
// x/net's function of the same name.
func BenchmarkHuffman(b *testing.B) {
	benchHuffman(b, huffmanText, AppendHuffmanString)
}

// BenchmarkHuffmanStories codes every name and value of the raw-data
// stories (78,718 strings, 1,162,372 octets, most of them under 32
// octets) one at a time, as the encoder meets them: with appendString,
// which Huffman codes a string when that is strictly shorter and sends it
// raw otherwise, and with x/net's AppendHuffmanString, which always codes.
func BenchmarkHuffmanStories(b *testing.B) {
	var strs []string
	for _, s := range readRawStories(b) {
		for _, block := range s.blocks {
			for _, f := range block {
				strs = append(strs, f.Name, f.Value)
			}
		}
	}
	benchHuffman(b, strs, New(Config{}).appendString)
}

// benchHuffman codes strs one at a time with ours and with x/net's
// AppendHuffmanString, as sub-benchmarks of b.
func benchHuffman(b *testing.B, strs []string, ours func(dst []byte, s string) []byte) {
	size := 0
	for _, s := range strs {
		size += len(s)
	}
	dst := make([]byte, 0, 4*size+8)
	for _, impl := range []struct {
		name   string
		append func(dst []byte, s string) []byte
	}{{"hpackcert", ours}, {"xnet", hpack.AppendHuffmanString}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				dst = dst[:0]
				for _, s := range strs {
					dst = impl.append(dst, s)
				}
			}
		})
	}
}
