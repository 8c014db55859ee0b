package encoder

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// TestHuffmanOnlyWhenShorter checks the choice between a raw and a Huffman
// coded string literal (RFC 7541 §5.2) against x/net's Huffman length.
func TestHuffmanOnlyWhenShorter(t *testing.T) {
	tests := []struct {
		name, s     string
		wantHuffman bool
	}{
		{"compressible text", "www.example.com", true},
		{"8-bit codes: equal length, so raw", "&&&&", false},
		{"longer when coded", "\x00\x01\x02", false},
		{"empty", "", false},
		{"one 5-bit symbol pads to one byte: equal, so raw", "a", false},
		{"two 5-bit symbols: 10 bits, 2 bytes: equal, so raw", "aa", false},
		{"three 5-bit symbols: 15 bits, 2 bytes", "aaa", true},
	}
	for _, tt := range tests {
		enc := New(Config{})
		got := enc.appendString(nil, tt.s)
		if huffman := len(got) > 0 && got[0]&0x80 != 0; huffman != tt.wantHuffman {
			t.Errorf("%s: %q coded as %x: Huffman %v; want %v", tt.name, tt.s, got, huffman, tt.wantHuffman)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	enc := New(Config{})
	never := New(Config{Policy: Policy{Huffman: HuffmanNever}})
	notLonger := New(Config{Policy: Policy{Huffman: HuffmanNotLonger}})
	for range 5000 {
		s := randomString(rng, rng.IntN(200))
		got := enc.appendString(nil, s)
		huffLen := int(hpack.HuffmanEncodeLength(s))
		var want []byte
		if huffLen < len(s) {
			want = appendInteger(nil, huffmanPattern, stringPrefixBits, uint64(huffLen))
			want = hpack.AppendHuffmanString(want, s)
		} else {
			want = appendInteger(nil, 0, stringPrefixBits, uint64(len(s)))
			want = append(want, s...)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: got %x; want %x", s, got, want)
		}
		raw := never.appendString(nil, s)
		if want := append(appendInteger(nil, 0, stringPrefixBits, uint64(len(s))), s...); !bytes.Equal(raw, want) {
			t.Fatalf("HuffmanNever %q: got %x; want %x", s, raw, want)
		}
		coded := notLonger.appendString(nil, s)
		if isHuffman := len(coded) > 0 && coded[0]&0x80 != 0; isHuffman != (huffLen <= len(s) && len(s) > 0) {
			t.Fatalf("HuffmanNotLonger %q (Huffman length %d): got %x", s, huffLen, coded)
		}
	}
}

// randomString returns n bytes drawn from header-like text or, for some
// strings, from all 256 octets.
func randomString(rng *rand.Rand, n int) string {
	const text = "abcdefghijklmnopqrstuvwxyz0123456789-_./;=:, ABCXYZ"
	b := make([]byte, n)
	binary := rng.IntN(4) == 0
	for i := range b {
		if binary {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = text[rng.IntN(len(text))]
		}
	}
	return string(b)
}

// TestMaxFieldLen checks that no append exceeds MaxFieldLen, and that a dst
// with that much spare capacity is never reallocated, with two pending size
// updates, random lengths and contents, and every policy path.
func TestMaxFieldLen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	policies := []Policy{DefaultPolicy, IndexAllPolicy(), {Huffman: HuffmanNever}, {Huffman: HuffmanNotLonger}}
	for i := range 3000 {
		capacity := []uint32{0, 64, 4096, 1 << 16}[rng.IntN(4)]
		enc := New(Config{Capacity: capacity, Policy: policies[rng.IntN(len(policies))]})
		enc.SetMaxDynamicTableSize(rng.Uint32N(100))
		enc.SetMaxDynamicTableSize(rng.Uint32())
		for range 3 {
			nameLen := rng.IntN(40)
			if rng.IntN(10) == 0 {
				nameLen = rng.IntN(20000)
			}
			valueLen := rng.IntN(100)
			if rng.IntN(10) == 0 {
				valueLen = rng.IntN(70000)
			}
			name, value := randomString(rng, nameLen), randomString(rng, valueLen)
			if rng.IntN(4) == 0 && nameLen > 0 {
				name = []string{":path", "cookie", "authorization", "user-agent"}[rng.IntN(4)]
			}
			bound := MaxFieldLen(len(name), len(value))
			prefix := append(make([]byte, 0, 6+bound), "prefix"...)
			got := enc.AppendFieldString(prefix, name, value, rng.IntN(5) == 0)
			if n := len(got) - len(prefix); n > bound {
				t.Fatalf("case %d: %d-byte name, %d-byte value: appended %d bytes; MaxFieldLen = %d", i, len(name), len(value), n, bound)
			}
			if &got[0] != &prefix[0] {
				t.Fatalf("case %d: dst with MaxFieldLen spare capacity was reallocated", i)
			}
		}
	}
	if got := MaxFieldLen(-1, -5); got != MaxFieldLen(0, 0) {
		t.Errorf("MaxFieldLen(-1, -5) = %d; want MaxFieldLen(0, 0) = %d", got, MaxFieldLen(0, 0))
	}
}

// TestShortStringsNeverShorter checks the premise of appendString's skip:
// no string of one or two octets Huffman codes into fewer octets than it
// has.
func TestShortStringsNeverShorter(t *testing.T) {
	for a := range 256 {
		if n := HuffmanLen([]byte{byte(a)}); n < 1 {
			t.Fatalf("HuffmanLen(%#x) = %d; want at least 1", a, n)
		}
		for b := range 256 {
			if n := HuffmanLen([]byte{byte(a), byte(b)}); n < 2 {
				t.Fatalf("HuffmanLen(%#x %#x) = %d; want at least 2", a, b, n)
			}
		}
	}
}
