package encoder

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestHuffmanEveryOctet codes each of the 256 octets alone and in runs and
// compares with x/net's Huffman coder, and decodes the result back.
func TestHuffmanEveryOctet(t *testing.T) {
	for c := range 256 {
		for _, n := range []int{1, 2, 3, 7, 8, 33} {
			s := bytes.Repeat([]byte{byte(c)}, n)
			checkHuffman(t, s)
		}
	}
}

// TestHuffmanRandom does the same for random strings of every octet.
func TestHuffmanRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for range 5000 {
		s := make([]byte, rng.IntN(300))
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		checkHuffman(t, s)
	}
}

// TestHuffmanText does the same for strings of header text, mostly short
// codes (the eight-octet path) with a few long ones mixed in, written
// into buffers with every amount of spare capacity from none to 48 bytes
// past the coding, so that the coder's switch from eight-octet stores to
// exact bounds is crossed at every point.
func TestHuffmanText(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_./;=ABCDEFGHIJKLMNOPQRSTUVWXYZ (),\"\x00\xff~{"
	rng := rand.New(rand.NewPCG(12, 13))
	for range 2000 {
		s := make([]byte, rng.IntN(200))
		common := rng.IntN(len(alphabet)-10) + 10
		for i := range s {
			s[i] = alphabet[rng.IntN(common)]
		}
		want := hpack.AppendHuffmanString([]byte{0xaa}, string(s))
		spare := rng.IntN(49)
		dst := make([]byte, 1, len(want)+spare)
		dst[0] = 0xaa
		got, ok := appendHuffman(dst, s, len(want)-1)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("appendHuffman(%q, spare %d) = %x, %v; want %x, true", s, spare, got, ok, want)
		}
		if &got[0] != &dst[0] {
			t.Fatalf("appendHuffman(%q) reallocated a buffer with room for the coding", s)
		}
		if len(want) > 2 {
			dst = make([]byte, 1, len(want)-1+spare)
			if short, ok := appendHuffman(dst, s, len(want)-2); ok || len(short) != 1 {
				t.Fatalf("appendHuffman(%q, limit %d) = %x, %v; want [aa], false", s, len(want)-2, short, ok)
			}
		}
	}
}

func checkHuffman(t *testing.T, s []byte) {
	t.Helper()
	want := hpack.AppendHuffmanString([]byte{0xaa}, string(s))
	limit := len(want) - 1
	got, ok := appendHuffman([]byte{0xaa}, s, limit)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("appendHuffman(%x, limit %d) = %x, %v; want %x, true", s, limit, got, ok, want)
	}
	if limit > 0 {
		if short, ok := appendHuffman([]byte{0xaa}, s, limit-1); ok || len(short) != 1 {
			t.Fatalf("appendHuffman(%x, limit %d) = %x, %v; want [aa], false", s, limit-1, short, ok)
		}
	}
	decoded, err := hpack.HuffmanDecodeToString(got[1:])
	if err != nil || decoded != string(s) {
		t.Fatalf("decoding appendHuffman(%x) = %q, %v", s, decoded, err)
	}
}

// TestHuffmanTables checks the tables the coder reads against Appendix B
// as internal/spec holds it: the code and length of every octet, and of
// every pair of octets (or the mark of a pair too long for pairCodes).
func TestHuffmanTables(t *testing.T) {
	for c := range 256 {
		if huffmanCodes[c] != spec.HuffmanCodes[c] || huffmanLens[c] != spec.HuffmanCodeLens[c] {
			t.Fatalf("octet %#x: code %#x, %d bits; want %#x, %d bits", c, huffmanCodes[c], huffmanLens[c], spec.HuffmanCodes[c], spec.HuffmanCodeLens[c])
		}
	}
	for i := range 1 << 16 {
		a, b := i&0xff, i>>8 // the first octet is the low byte
		length := int(spec.HuffmanCodeLens[a]) + int(spec.HuffmanCodeLens[b])
		if length > 32 {
			if pairLens[i] <= 56 {
				t.Fatalf("pair %#04x: %d bits long but marked %d; want more than 56, so that its eight octets leave the eight-octet step", i, length, pairLens[i])
			}
			continue
		}
		code := uint64(spec.HuffmanCodes[a])<<spec.HuffmanCodeLens[b] | uint64(spec.HuffmanCodes[b])
		if int(pairLens[i]) != length || uint64(pairCodes[i]) != code {
			t.Fatalf("pair %#04x: code %#x, %d bits; want %#x, %d bits", i, pairCodes[i], pairLens[i], code, length)
		}
	}
}
