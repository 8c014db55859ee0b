package encoder

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/net/http2/hpack"
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
