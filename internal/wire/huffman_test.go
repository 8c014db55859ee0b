package wire

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// appendHuffmanCode is the tests' own Huffman coder, from the code of RFC
// 7541 Appendix B: each octet's code, most significant bit first, then
// ones up to the octet boundary (§5.2).
func appendHuffmanCode(dst []byte, s string) []byte {
	var acc uint64 // pending bits, the oldest highest
	bits := 0      // how many
	for i := 0; i < len(s); i++ {
		acc = acc<<spec.HuffmanCodeLens[s[i]] | uint64(spec.HuffmanCodes[s[i]])
		bits += int(spec.HuffmanCodeLens[s[i]])
		for ; bits >= 8; bits -= 8 {
			dst = append(dst, byte(acc>>(bits-8)))
		}
	}
	if bits > 0 {
		dst = append(dst, byte(acc<<(8-bits))|byte(0xff>>bits))
	}
	return dst
}

// referenceDecode decodes raw the slow way, as RFC 7541 §5.2 words it:
// at each bit, the one code of Appendix B that the next bits start with,
// found by trying all 257; what is left when no code fits is padding.
// It reports problems as DecodeHuffman does.
func referenceDecode(raw []byte) (string, string) {
	total := 8 * len(raw)
	bit := func(i int) uint32 { return uint32(raw[i/8]>>(7-i%8)) & 1 }
	var out []byte
	pos := 0
next:
	for pos < total {
		for sym := 0; sym <= spec.EOS; sym++ {
			n := int(spec.HuffmanCodeLens[sym])
			if pos+n > total {
				continue
			}
			var code uint32
			for i := range n {
				code = code<<1 | bit(pos+i)
			}
			if code != spec.HuffmanCodes[sym] {
				continue
			}
			if sym == spec.EOS {
				return string(out), fmt.Sprintf("EOS symbol inside the string at octet %d", (pos+n-1)/8)
			}
			out = append(out, byte(sym))
			pos += n
			continue next
		}
		break
	}
	pad, ones := total-pos, true
	for i := pos; i < total; i++ {
		ones = ones && bit(i) == 1
	}
	switch {
	case pad > 7:
		return string(out), fmt.Sprintf("%d bits of padding (at most 7 allowed)", pad)
	case !ones && pad == 1:
		return string(out), "padding of 1 bit is not a one (not a prefix of EOS)"
	case !ones:
		return string(out), fmt.Sprintf("padding of %d bits is not all ones (not a prefix of EOS)", pad)
	}
	return string(out), ""
}

func TestAppendHuffmanCode(t *testing.T) {
	// RFC 7541 C.4.1-C.4.3 and C.6.1: the test coder must agree with the
	// RFC before it can stand for an encoder.
	tests := []struct{ text, hex string }{
		{"www.example.com", "f1e3c2e5f23a6ba0ab90f4ff"},
		{"no-cache", "a8eb10649cbf"},
		{"custom-key", "25a849e95ba97d7f"},
		{"custom-value", "25a849e95bb8e8b4bf"},
		{"Mon, 21 Oct 2013 20:13:21 GMT", "d07abe941054d444a8200595040b8166e082a62d1bff"},
		{"https://www.example.com", "9d29ad171863c78f0b97c8e9ae82ae43d3"},
	}
	for _, tt := range tests {
		if got := fmt.Sprintf("%x", appendHuffmanCode(nil, tt.text)); got != tt.hex {
			t.Errorf("appendHuffmanCode(%q) = %s; want %s", tt.text, got, tt.hex)
		}
	}
}

func TestDecodeHuffmanEveryOctet(t *testing.T) {
	var all, reversed []byte
	for c := range 256 {
		all = append(all, byte(c))
		reversed = append(reversed, byte(255-c))
	}
	texts := []string{string(all), string(reversed), strings.Repeat(string(all), 3)}
	for c := range 256 {
		texts = append(texts, string([]byte{byte(c)}), string([]byte{byte(c), byte(c), 'a'}))
	}
	for _, text := range texts {
		code := appendHuffmanCode(nil, text)
		got, problem := DecodeHuffman(code)
		if got != text || problem != "" {
			t.Errorf("DecodeHuffman(%x) = %q, %q; want %q, no problem", code, got, problem, text)
		}
		if n := HuffmanLen(text); n != len(code) {
			t.Errorf("HuffmanLen(%q) = %d; the code is %d octets", text, n, len(code))
		}
	}
}

func TestDecodeHuffman(t *testing.T) {
	// '0' is 00000 and 'a' 00011 (RFC 7541 Appendix B); EOS is 30 ones.
	tests := []struct {
		label   string
		hex     string
		text    string
		problem string
	}{
		{"empty", "", "", ""},
		{"0 bits of padding", "0000000000", "00000000", ""},
		{"1 bit of padding", "0001", "000", ""},
		{"2 bits of padding", "00000003", "000000", ""},
		{"3 bits of padding", "07", "0", ""},
		{"4 bits of padding", "00000f", "0000", ""},
		{"5 bits of padding", "000000001f", "0000000", ""},
		{"6 bits of padding", "003f", "00", ""},
		{"7 bits of padding", "0000007f", "00000", ""},
		{"RFC 7541 C.4.1", "f1e3c2e5f23a6ba0ab90f4ff", "www.example.com", ""},
		{"8 bits of padding after symbols", "0000000000ff", "00000000", "8 bits of padding (at most 7 allowed)"},
		{"8 bits of padding alone", "ff", "", "8 bits of padding (at most 7 allowed)"},
		{"24 bits of padding", "ffffff", "", "24 bits of padding (at most 7 allowed)"},
		{"padding of 1 zero bit", "0000", "000", "padding of 1 bit is not a one (not a prefix of EOS)"},
		{"padding 110", "06", "0", "padding of 3 bits is not all ones (not a prefix of EOS)"},
		{"padding 011", "03", "0", "padding of 3 bits is not all ones (not a prefix of EOS)"},
		{"padding 000", "18", "a", "padding of 3 bits is not all ones (not a prefix of EOS)"},
		{"padding of 7 bits with a zero", "0000007e", "00000", "padding of 7 bits is not all ones (not a prefix of EOS)"},
		{"EOS alone", "ffffffff", "", "EOS symbol inside the string at octet 3"},
		{"EOS after a symbol", "07ffffffff", "0", "EOS symbol inside the string at octet 4"},
		{"EOS before a symbol", "fffffffc07", "", "EOS symbol inside the string at octet 3"},
	}
	for _, tt := range tests {
		raw := fromHex(t, tt.hex)
		text, problem := DecodeHuffman(raw)
		if text != tt.text || problem != tt.problem {
			t.Errorf("%s: DecodeHuffman(%s) = %q, %q; want %q, %q", tt.label, tt.hex, text, problem, tt.text, tt.problem)
		}
		// The reference must agree, or one of the two wants are wrong.
		if text, problem := referenceDecode(raw); text != tt.text || problem != tt.problem {
			t.Errorf("%s: referenceDecode(%s) = %q, %q; want %q, %q", tt.label, tt.hex, text, problem, tt.text, tt.problem)
		}
	}
}

// TestDecodeHuffmanLong decodes texts longer than the decoder's array on
// the stack, and problems found after the text has moved out of it.
func TestDecodeHuffmanLong(t *testing.T) {
	text := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz-", 40) // 5-bit and 6-bit codes mostly
	code := appendHuffmanCode(nil, text)
	bits := 0 // the code of text+"0" without padding
	for _, c := range []byte(text + "0") {
		bits += int(spec.HuffmanCodeLens[c])
	}
	tests := []struct {
		label   string
		raw     []byte
		text    string
		problem string
	}{
		{"well formed", code, text, ""},
		// The ones padding text+"0" and the 32 after it make EOS, whose
		// 30th bit is bit bits+29.
		{"EOS at the end", append(appendHuffmanCode(nil, text+"0"), 0xff, 0xff, 0xff, 0xff), text + "0", fmt.Sprintf("EOS symbol inside the string at octet %d", (bits+29)/8)},
		{"octet of padding", append(appendHuffmanCode(nil, strings.Repeat("0", 8*50)), 0xff), strings.Repeat("0", 8*50), "8 bits of padding (at most 7 allowed)"},
	}
	for _, tt := range tests {
		got, problem := DecodeHuffman(tt.raw)
		if got != tt.text || problem != tt.problem {
			t.Errorf("%s: DecodeHuffman of %d octets = %d octets, %q; want %d octets, %q (text equal: %t)", tt.label, len(tt.raw), len(got), problem, len(tt.text), tt.problem, got == tt.text)
		}
	}
}

// TestDecodeHuffmanReference compares DecodeHuffman with referenceDecode on
// random octets (mostly malformed) and on codes of random texts, as they
// are and with one bit flipped, cut short or lengthened.
func TestDecodeHuffmanReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7541))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		var raw []byte
		switch i % 2 {
		case 0:
			raw = make([]byte, rng.Intn(12))
			rng.Read(raw)
		default:
			text := make([]byte, rng.Intn(20))
			for j := range text {
				text[j] = byte(rng.Intn(256))
				if rng.Intn(2) == 0 {
					text[j] = "aeiost/-.0123456789"[rng.Intn(19)] // the short codes
				}
			}
			raw = appendHuffmanCode(nil, string(text))
			switch rng.Intn(4) {
			case 1:
				if len(raw) > 0 {
					raw[rng.Intn(len(raw))] ^= 1 << rng.Intn(8)
				}
			case 2:
				raw = raw[:rng.Intn(len(raw)+1)]
			case 3:
				raw = append(raw, byte(rng.Intn(256)))
			}
		}
		text, problem := DecodeHuffman(raw)
		wantText, wantProblem := referenceDecode(raw)
		if text != wantText || problem != wantProblem {
			t.Fatalf("DecodeHuffman(%x) = %q, %q; the reference decodes %q, %q", raw, text, problem, wantText, wantProblem)
		}
	}
}

// TestHuffmanCodeComplete checks why DecodeHuffman never reports an
// invalid code: every bit string leads somewhere in the tree of Appendix
// B, whose 257 codes fill it (their 2^-length sum to 1).
func TestHuffmanCodeComplete(t *testing.T) {
	for state := range huffman.steps {
		for nibble, step := range huffman.steps[state] {
			if step.stop == stopInvalid {
				t.Fatalf("state %d, nibble %x: no code starts with these bits", state, nibble)
			}
		}
	}
}

func TestDecodeHuffmanInvalidCode(t *testing.T) {
	// A code where 'a' takes the code of '0' (00000), so that 00011, the
	// code of 'a' in Appendix B, starts no code.
	codes, lens := spec.HuffmanCodes, spec.HuffmanCodeLens
	codes['a'], lens['a'] = codes['0'], lens['0']
	d := newHuffmanDecoder(&codes, &lens)
	tests := []struct {
		hex     string
		text    string
		problem string
	}{
		{"00ff", "a", "invalid code at octet 1"}, // 00000 000|11: the missing code ends in octet 1
		{"18", "", "invalid code at octet 0"},    // 00011 000
		{"07", "a", ""},                          // 00000 111: 'a' with padding
	}
	for _, tt := range tests {
		text, problem := d.decode(fromHex(t, tt.hex))
		if text != tt.text || problem != tt.problem {
			t.Errorf("decode(%s) with a code missing 00011 = %q, %q; want %q, %q", tt.hex, text, problem, tt.text, tt.problem)
		}
	}
}

func TestHuffmanLen(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"www.example.com", 12}, // RFC 7541 C.4.1
		{"no-cache", 6},         // C.4.2
		{"custom-value", 9},     // C.4.3
		{"\xff", 4},             // a 26-bit code: padded to 32 bits
		{"0", 1},                // a 5-bit code
		{"00000000", 5},         // 40 bits, no padding
		{"\x00\x00", 4},         // two 13-bit codes: 26 bits
	}
	for _, tt := range tests {
		if got := HuffmanLen(tt.s); got != tt.want {
			t.Errorf("HuffmanLen(%q) = %d; want %d", tt.s, got, tt.want)
		}
	}
}

func TestDecodeHuffmanAllocs(t *testing.T) {
	tests := []struct {
		label string
		raw   []byte
	}{
		{"short", appendHuffmanCode(nil, "www.example.com")},
		{"longer than the stack array", appendHuffmanCode(nil, strings.Repeat("www.example.com/", 50))},
	}
	for _, tt := range tests {
		// The string returned is the only allocation.
		if got := testing.AllocsPerRun(100, func() { DecodeHuffman(tt.raw) }); got != 1 {
			t.Errorf("%s: DecodeHuffman allocates %v times; want 1", tt.label, got)
		}
	}
}

func BenchmarkDecodeHuffman(b *testing.B) {
	var random []byte
	for c := range 256 {
		random = append(random, byte(c*167+13))
	}
	inputs := []struct{ name, text string }{
		{"host", "www.example.com"},
		{"date", "Mon, 21 Oct 2013 20:13:21 GMT"},
		{"set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"},
		{"user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"},
		{"all-octets", string(random)},
	}
	for _, in := range inputs {
		code := appendHuffmanCode(nil, in.text)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(code)))
			for b.Loop() {
				DecodeHuffman(code)
			}
		})
	}
}
