package strict

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"golang.org/x/net/http2/hpack"
)

// TestHuffmanTreeComplete checks that every internal node has two children
// and that there are 257 leaves: Appendix B is a complete prefix code, so
// no bit sequence falls off the tree.
func TestHuffmanTreeComplete(t *testing.T) {
	leaves := 0
	var walk func(n *huffmanNode, depth int)
	walk = func(n *huffmanNode, depth int) {
		if n.isLeaf() {
			leaves++
			if got, want := depth, int(spec.HuffmanCodeLens[n.symbol]); got != want {
				t.Errorf("symbol %d: leaf at depth %d; want its code length %d", n.symbol, got, want)
			}
			return
		}
		if n.children[0] == nil || n.children[1] == nil {
			t.Errorf("internal node at depth %d has a missing child", depth)
			return
		}
		walk(n.children[0], depth+1)
		walk(n.children[1], depth+1)
	}
	walk(huffmanRoot, 0)
	if leaves != 257 {
		t.Errorf("got %d leaves; want 257", leaves)
	}
}

// TestDecodeHuffmanEveryOctet decodes each octet alone, padded with ones,
// using x/net's encoder as an independent source of encoded strings.
func TestDecodeHuffmanEveryOctet(t *testing.T) {
	for c := 0; c < 256; c++ {
		in := []byte{byte(c)}
		encoded := hpack.AppendHuffmanString(nil, string(in))
		got, err := decodeHuffman(encoded)
		if err != nil {
			t.Errorf("octet %#02x: %v at octet %d", c, err.reason, err.octet)
			continue
		}
		if !bytes.Equal(got, in) {
			t.Errorf("octet %#02x: got %x; want %x", c, got, in)
		}
	}
}

func TestDecodeHuffmanRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		in := make([]byte, r.IntN(64))
		for j := range in {
			in[j] = byte(r.UintN(256))
		}
		encoded := hpack.AppendHuffmanString(nil, string(in))
		got, err := decodeHuffman(encoded)
		if err != nil {
			t.Fatalf("decodeHuffman(%x) of %x: %s at octet %d", encoded, in, err.reason, err.octet)
		}
		if !bytes.Equal(got, in) {
			t.Fatalf("decodeHuffman(%x) = %x; want %x", encoded, got, in)
		}
	}
}

func TestDecodeHuffmanErrors(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		encoded []byte
		octet   int
	}{
		{"eos", "30 ones are the EOS code", []byte{0xff, 0xff, 0xff, 0xfc}, 3},
		{"eos-after-symbol", "'0' (00000), then EOS starting at bit 5", []byte{0x07, 0xff, 0xff, 0xff, 0xe0}, 4},
		{"padding-8-ones", "a whole octet of ones is padding longer than 7 bits", []byte{0xff}, 0},
		{"padding-zero", "'0' then 000 padding", []byte{0x00}, 0},
		{"padding-mixed", "'0' then 101 padding", []byte{0x05}, 0},
		{"incomplete-long-code", "the first 16 bits of a 23-bit code", []byte{0xff, 0xfe}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeHuffman(tc.encoded)
			if err == nil {
				t.Fatalf("decodeHuffman(%x) = %x; want an error (%s)", tc.encoded, got, tc.reason)
			}
			if err.octet != tc.octet {
				t.Errorf("got octet %d (%s); want %d (%s)", err.octet, err.reason, tc.octet, tc.reason)
			}
		})
	}
}
