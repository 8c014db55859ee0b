package encoder

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// TestAppendStringLiteral checks AppendStringLiteral with QPACK's prefixes
// against x/net's Huffman coder and AppendInteger: the H bit above the
// length, the pattern's higher bits kept and its lower ones ignored, the
// coding chosen only when strictly shorter, with and without room in dst.
func TestAppendStringLiteral(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 6000 {
		s := randomString(rng, rng.IntN(300))
		if i%7 == 0 {
			s = randomString(rng, 120+rng.IntN(30)) // lengths about prefix limits
		}
		prefixBits := []uint8{3, 5, 7}[i%3]
		pattern := byte(rng.Uint32())
		high := pattern &^ byte(1<<(prefixBits+1)-1)
		var want []byte
		if n := int(hpack.HuffmanEncodeLength(s)); n < len(s) {
			want = AppendInteger([]byte("x"), high|1<<prefixBits, prefixBits, uint64(n))
			want = hpack.AppendHuffmanString(want, s)
		} else {
			want = AppendInteger([]byte("x"), high, prefixBits, uint64(len(s)))
			want = append(want, s...)
		}
		dst := []byte("x")
		if i%2 == 0 {
			dst = make([]byte, 1, 1+rng.IntN(2*len(s)+12))
			dst[0] = 'x'
		}
		if got := AppendStringLiteral(dst, pattern, prefixBits, s); !bytes.Equal(got, want) {
			t.Fatalf("%d-bit prefix, pattern %#x, %q: got %x; want %x", prefixBits, pattern, s, got, want)
		}
	}
}

// TestAppendStringLiteralPrefix checks that a prefix outside 1 to 7 is
// taken as 7, HPACK's.
func TestAppendStringLiteralPrefix(t *testing.T) {
	const s = "www.example.com"
	want := New(Config{}).appendString([]byte{}, s)
	for _, prefixBits := range []uint8{0, 8, 9} {
		if got := AppendStringLiteral(nil, 0, prefixBits, s); !bytes.Equal(got, want) {
			t.Errorf("prefix %d: got %x; want %x", prefixBits, got, want)
		}
	}
}
