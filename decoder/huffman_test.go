package decoder

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// decodeHuffman runs appendHuffman and returns its output and the rule
// and offset of its error, "" and 0 if none.
func decodeHuffman(t testing.TB, src []byte) ([]byte, string, int) {
	t.Helper()
	out, err := AppendHuffman(nil, src)
	if err == nil {
		return out, "", 0
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	return out, e.Rule, e.Offset
}

// TestHuffmanCanonical checks that every code, EOS included, is found by
// huffSlow, which relies on the code being canonical.
func TestHuffmanCanonical(t *testing.T) {
	for sym, n := range spec.HuffmanCodeLens {
		acc := uint64(spec.HuffmanCodes[sym]) << (64 - uint(n))
		got, gotN := huffSlow(acc)
		if int(got) != sym || gotN != uint(n) {
			t.Errorf("symbol %d: huffSlow = %d, %d bits; want %d bits", sym, got, gotN, n)
		}
	}
}

// TestHuffmanEverySymbol decodes every octet alone and after each
// position of a 5-bit prefix, which puts it at every bit alignment.
func TestHuffmanEverySymbol(t *testing.T) {
	for c := range 256 {
		for lead := range 8 {
			s := append(bytes.Repeat([]byte{'0'}, lead), byte(c))
			checkRoundTrip(t, s)
		}
	}
}

// TestHuffmanRandom round-trips random strings through the encoder's
// Huffman coder: ASCII text, every octet value, and short strings.
func TestHuffmanRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		s := make([]byte, r.IntN(200))
		for i := range s {
			if r.IntN(4) == 0 {
				s[i] = byte(r.IntN(256))
			} else {
				s[i] = byte(' ' + r.IntN(95))
			}
		}
		checkRoundTrip(t, s)
	}
}

func checkRoundTrip(t *testing.T, s []byte) {
	t.Helper()
	enc := encoder.AppendHuffman(nil, s)
	got, rule, off := decodeHuffman(t, enc)
	if rule != "" || !bytes.Equal(got, s) {
		t.Fatalf("decode(%x) = %q, %q at %d; want %q", enc, got, rule, off, s)
	}
}

// TestHuffmanAppendixC decodes the Huffman strings of RFC 7541 Appendix C.4
// and C.6, transcribed from the RFC.
func TestHuffmanAppendixC(t *testing.T) {
	for _, c := range []struct{ hex, want string }{
		{"f1e3c2e5f23a6ba0ab90f4ff", "www.example.com"},
		{"a8eb10649cbf", "no-cache"},
		{"25a849e95ba97d7f", "custom-key"},
		{"25a849e95bb8e8b4bf", "custom-value"},
		{"6402", "302"},
		{"aec3771a4b", "private"},
		{"d07abe941054d444a8200595040b8166e082a62d1bff", "Mon, 21 Oct 2013 20:13:21 GMT"},
		{"9d29ad171863c78f0b97c8e9ae82ae43d3", "https://www.example.com"},
		{"640eff", "307"},
		{"d07abe941054d444a8200595040b8166e084a62d1bff", "Mon, 21 Oct 2013 20:13:22 GMT"},
		{"9bd9ab", "gzip"},
		{"94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"},
	} {
		src, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		got, rule, off := decodeHuffman(t, src)
		if rule != "" || string(got) != c.want {
			t.Errorf("decode(%s) = %q, %q at %d; want %q", c.hex, got, rule, off, c.want)
		}
	}
}

// TestHuffmanStrict checks each error and the offset it names.
func TestHuffmanStrict(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
		rule string
		off  int
	}{
		{"one octet of ones", []byte{0xff}, RuleHuffmanPadLength, 0},
		{"EOS alone", []byte{0xff, 0xff, 0xff, 0xfc}, RuleHuffmanEOS, 0},
		{"EOS after a", []byte{0x1f, 0xff, 0xff, 0xff, 0xe0}, RuleHuffmanEOS, 0},
		{"EOS after 4 octets", append(encoder.AppendHuffman(nil, []byte("aaaa"))[:3], 0xff, 0xff, 0xff, 0xff), RuleHuffmanEOS, 2},
		{"padding of zeros", []byte{0x00}, RuleHuffmanPadOnes, 0},          // '0' then 000
		{"9 bits of padding", []byte{0x1f, 0xff}, RuleHuffmanPadLength, 0}, // 'a' then 11 ones
		{"padding 0 after a", []byte{0x1e}, RuleHuffmanPadOnes, 0},
		{"long padding late", []byte{0x00, 0x00, 0x03, 0xff, 0xff}, RuleHuffmanPadLength, 3},
	} {
		_, rule, off := decodeHuffman(t, c.src)
		wantOut, wantRule, wantOff := refDecode(c.src)
		if rule != c.rule || off != c.off {
			t.Errorf("%s: %x gave %q at %d; want %q at %d", c.name, c.src, rule, off, c.rule, c.off)
		}
		if wantRule != c.rule || wantOff != c.off {
			t.Errorf("%s: the reference gave %q at %d (output %q)", c.name, wantRule, wantOff, wantOut)
		}
	}
}

// FuzzHuffman compares appendHuffman with the bit-by-bit reference on any
// input: the same octets, or the same rule at the same offset.
func FuzzHuffman(f *testing.F) {
	f.Add([]byte{0xff})
	f.Add(encoder.AppendHuffman(nil, []byte("www.example.com")))
	f.Add([]byte{0xff, 0xff, 0xff, 0xfc})
	f.Fuzz(func(t *testing.T, src []byte) {
		got, rule, off := decodeHuffman(t, src)
		want, wantRule, wantOff := refDecode(src)
		if rule != wantRule || off != wantOff {
			t.Fatalf("decode(%x): %q at %d; reference %q at %d", src, rule, off, wantRule, wantOff)
		}
		if rule == "" && !bytes.Equal(got, want) {
			t.Fatalf("decode(%x) = %q; reference %q", src, got, want)
		}
	})
}
