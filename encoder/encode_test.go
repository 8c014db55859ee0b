package encoder

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// unhex decodes hex written with spaces and newlines, as the RFC prints it.
func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		tb.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

var (
	rfcRequests = [3][][2]string{
		{{":method", "GET"}, {":scheme", "http"}, {":path", "/"}, {":authority", "www.example.com"}},
		{{":method", "GET"}, {":scheme", "http"}, {":path", "/"}, {":authority", "www.example.com"}, {"cache-control", "no-cache"}},
		{{":method", "GET"}, {":scheme", "https"}, {":path", "/index.html"}, {":authority", "www.example.com"}, {"custom-key", "custom-value"}},
	}
	rfcResponses = [3][][2]string{
		{{":status", "302"}, {"cache-control", "private"}, {"date", "Mon, 21 Oct 2013 20:13:21 GMT"}, {"location", "https://www.example.com"}},
		{{":status", "307"}, {"cache-control", "private"}, {"date", "Mon, 21 Oct 2013 20:13:21 GMT"}, {"location", "https://www.example.com"}},
		{{":status", "200"}, {"cache-control", "private"}, {"date", "Mon, 21 Oct 2013 20:13:22 GMT"}, {"location", "https://www.example.com"},
			{"content-encoding", "gzip"}, {"set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"}},
	}
)

// TestRFCAppendixC reproduces the header blocks of RFC 7541 Appendix C.3 to
// C.6 byte for byte under IndexAllPolicy, with HuffmanNever for C.3 and C.5
// and HuffmanNotLonger for C.4 and C.6 (whose examples code "307", three
// bytes either way).
//
// C.5 and C.6 run with SETTINGS_HEADER_TABLE_SIZE 256, which the RFC treats
// as in force from the start. Our encoder starts at the protocol's 4096 and
// so opens the first block with the "Dynamic Table Size Update" to 256
// (3fe101, §6.3) before the RFC's bytes.
func TestRFCAppendixC(t *testing.T) {
	tests := []struct {
		name      string
		huffman   HuffmanMode
		tableSize uint32 // acknowledged before the first block; 0 for none
		prefix    string // expected before the RFC's first block
		fields    [3][][2]string
		wire      [3]string
		sizes     [3]uint32 // table size after each block, from the RFC
	}{
		{
			name: "C.3 requests without Huffman", huffman: HuffmanNever, fields: rfcRequests,
			wire: [3]string{
				"8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
				"8286 84be 5808 6e6f 2d63 6163 6865",
				"8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
			},
			sizes: [3]uint32{57, 110, 164},
		},
		{
			name: "C.4 requests with Huffman", huffman: HuffmanNotLonger, fields: rfcRequests,
			wire: [3]string{
				"8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
				"8286 84be 5886 a8eb 1064 9cbf",
				"8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
			},
			sizes: [3]uint32{57, 110, 164},
		},
		{
			name: "C.5 responses without Huffman", huffman: HuffmanNever, tableSize: 256, prefix: "3fe101", fields: rfcResponses,
			wire: [3]string{
				`4803 3330 3258 0770 7269 7661 7465 611d
				4d6f 6e2c 2032 3120 4f63 7420 3230 3133
				2032 303a 3133 3a32 3120 474d 546e 1768
				7474 7073 3a2f 2f77 7777 2e65 7861 6d70
				6c65 2e63 6f6d`,
				"4803 3330 37c1 c0bf",
				`88c1 611d 4d6f 6e2c 2032 3120 4f63 7420
				3230 3133 2032 303a 3133 3a32 3220 474d
				54c0 5a04 677a 6970 7738 666f 6f3d 4153
				444a 4b48 514b 425a 584f 5157 454f 5049
				5541 5851 5745 4f49 553b 206d 6178 2d61
				6765 3d33 3630 303b 2076 6572 7369 6f6e
				3d31`,
			},
			sizes: [3]uint32{222, 222, 215},
		},
		{
			name: "C.6 responses with Huffman", huffman: HuffmanNotLonger, tableSize: 256, prefix: "3fe101", fields: rfcResponses,
			wire: [3]string{
				`4882 6402 5885 aec3 771a 4b61 96d0 7abe
				9410 54d4 44a8 2005 9504 0b81 66e0 82a6
				2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8
				e9ae 82ae 43d3`,
				"4883 640e ffc1 c0bf",
				`88c1 6196 d07a be94 1054 d444 a820 0595
				040b 8166 e084 a62d 1bff c05a 839b d9ab
				77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b
				3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
				9587 3160 65c0 03ed 4ee5 b106 3d50 07`,
			},
			sizes: [3]uint32{222, 222, 215},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policy := IndexAllPolicy()
			policy.Huffman = tt.huffman
			enc := New(Config{Policy: policy})
			if tt.tableSize != 0 {
				enc.SetMaxDynamicTableSize(tt.tableSize)
			}
			for i, fields := range tt.fields {
				var got []byte
				for _, f := range fields {
					got = enc.AppendFieldString(got, f[0], f[1], false)
				}
				want := tt.wire[i]
				if i == 0 {
					want = tt.prefix + want
				}
				if w := unhex(t, want); !bytes.Equal(got, w) {
					t.Errorf("block %d:\ngot  %x\nwant %x", i+1, got, w)
				}
				if enc.TableSize() != tt.sizes[i] {
					t.Errorf("block %d: TableSize() = %d; want %d", i+1, enc.TableSize(), tt.sizes[i])
				}
			}
		})
	}
}

// TestIntegerEncoding checks §5.1 integers: the examples of RFC 7541 C.1
// and the boundaries of every prefix size the encoder uses.
func TestIntegerEncoding(t *testing.T) {
	tests := []struct {
		name       string
		prefixBits uint8
		v          uint64
		want       string
	}{
		{"C.1.1 10 in a 5-bit prefix", 5, 10, "0a"},
		{"C.1.2 1337 in a 5-bit prefix", 5, 1337, "1f9a0a"},
		{"largest one-byte value, 4-bit prefix", 4, 14, "0e"},
		{"prefix full, 4-bit prefix: a zero continuation byte", 4, 15, "0f00"},
		{"prefix full, 7-bit prefix", 7, 127, "7f00"},
		{"two continuation bytes, 7-bit prefix", 7, 127 + 128, "7f8001"},
		{"largest uint32, 5-bit prefix", 5, 1<<32 - 1, "1fe0ffffff0f"},
	}
	for _, tt := range tests {
		got := appendInteger(nil, 0, tt.prefixBits, tt.v)
		if want := unhex(t, tt.want); !bytes.Equal(got, want) {
			t.Errorf("%s: got %x; want %x", tt.name, got, want)
		}
		if n := integerLen(tt.prefixBits, tt.v); n != len(got) {
			t.Errorf("%s: integerLen = %d; want %d", tt.name, n, len(got))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		prefixBits := uint8(4 + rng.IntN(4))
		v := rng.Uint64() >> rng.IntN(64)
		if n, got := integerLen(prefixBits, v), len(appendInteger(nil, 0, prefixBits, v)); n != got {
			t.Fatalf("integerLen(%d, %d) = %d; appendInteger wrote %d bytes", prefixBits, v, n, got)
		}
	}
}

// TestSizeUpdates checks the "Dynamic Table Size Update" rule (RFC 7541
// §4.2, §6.3) byte for byte: the smallest size set since the last field,
// then the final size if different, none when nothing changed. Each case
// ends with two ":method: GET" fields (82 82).
func TestSizeUpdates(t *testing.T) {
	tests := []struct {
		name     string
		capacity uint32
		sets     []uint32
		want     string
	}{
		{"nothing set", 0, nil, "82 82"},
		{"same size set again", 0, []uint32{4096}, "82 82"},
		{"shrink", 0, []uint32{256}, "3fe101 82 82"},
		{"zero then back", 0, []uint32{0, 4096}, "20 3fe11f 82 82"},
		{"shrink then grow", 0, []uint32{256, 1024}, "3fe101 3fe107 82 82"},
		{"smallest of three, then final", 0, []uint32{1024, 256, 2048}, "3fe101 3fe10f 82 82"},
		{"min then final equal: one update", 0, []uint32{0, 4096, 0}, "20 82 82"},
		{"growth beyond capacity is clamped: no change", 4096, []uint32{65536}, "82 82"},
		{"growth up to capacity", 8192, []uint32{65536}, "3fe13f 82 82"},
		{"up then down to the signalled size: no change", 8192, []uint32{8192, 4096}, "82 82"},
		{"capacity below 4096 is signalled first", 1024, nil, "3fe107 82 82"},
		{"capacity below 4096, setting above it", 1024, []uint32{65536}, "3fe107 82 82"},
		{"capacity below 4096, smaller setting", 1024, []uint32{512}, "3fe103 82 82"},
	}
	for _, tt := range tests {
		enc := New(Config{Capacity: tt.capacity})
		for _, n := range tt.sets {
			enc.SetMaxDynamicTableSize(n)
		}
		got := enc.AppendFieldString(nil, ":method", "GET", false)
		got = enc.AppendFieldString(got, ":method", "GET", false)
		if want := unhex(t, tt.want); !bytes.Equal(got, want) {
			t.Errorf("%s: got %x; want %x", tt.name, got, want)
		}
	}
}

// representation names the §6 representation a field was sent with, from
// its first byte.
func representation(first byte) string {
	switch {
	case first&0x80 != 0:
		return "indexed"
	case first&0xc0 == 0x40:
		return "incremental"
	case first&0xf0 == 0x00:
		return "without"
	case first&0xf0 == 0x10:
		return "never"
	}
	return fmt.Sprintf("other %#x", first)
}

// TestPolicy checks which representation each policy rule picks, that only
// "with Incremental Indexing" adds an entry, that the block decodes with
// x/net, and that names are still referenced by index.
func TestPolicy(t *testing.T) {
	large := strings.Repeat("v", 3*4096/4-32-len("x-large")+1) // entry just over 3/4 of 4096
	fits := large[1:]                                          // entry exactly 3/4
	giant := strings.Repeat("g", 4096)                         // entry over 4096
	tests := []struct {
		name, field, value string
		sensitive          bool
		policy             Policy
		maxSize            uint32 // acknowledged first when not 4096
		want               string // representation
		wantNameIndex      int    // for literals: index of the name, 0 for a literal name
	}{
		{name: "authorization is never indexed", field: "authorization", value: "Bearer abc", want: "never", wantNameIndex: 23},
		{name: "proxy-authorization is never indexed", field: "proxy-authorization", value: "Basic xyz", want: "never", wantNameIndex: 49},
		{name: "authorization of 20 bytes and more is never indexed", field: "authorization", value: "Bearer 0123456789abcdefghij", want: "never", wantNameIndex: 23},
		{name: "short cookie is never indexed", field: "cookie", value: strings.Repeat("c", 19), want: "never", wantNameIndex: 32},
		{name: "20-byte cookie is indexed", field: "cookie", value: strings.Repeat("c", 20), want: "incremental", wantNameIndex: 32},
		{name: "ShortCookieLen 30", field: "cookie", value: strings.Repeat("c", 29), policy: Policy{ShortCookieLen: 30}, want: "never", wantNameIndex: 32},
		{name: "ShortCookieLen negative turns the rule off", field: "cookie", value: "a=b", policy: Policy{ShortCookieLen: -1}, want: "incremental", wantNameIndex: 32},
		{name: "sensitive custom field", field: "x-secret", value: "s", sensitive: true, want: "never"},
		{name: "sensitive field the static table holds", field: ":method", value: "GET", sensitive: true, want: "never", wantNameIndex: 2},
		{name: "sensitive field equal to a later static entry names that entry", field: ":status", value: "500", sensitive: true, want: "never", wantNameIndex: 14},
		{name: "authorization equal to its static entry is referenced", field: "authorization", value: "", want: "indexed"},
		{name: "empty cookie equal to its static entry is referenced", field: "cookie", value: "", want: "indexed"},
		{name: "sensitive under IndexAll", field: "x-secret", value: "s", sensitive: true, policy: IndexAllPolicy(), want: "never"},
		{name: ":path with a query is not indexed", field: ":path", value: "/search?q=1", want: "without", wantNameIndex: 4},
		{name: ":path without a query is indexed", field: ":path", value: "/search", want: "incremental", wantNameIndex: 4},
		{name: ":path of 28 bytes is indexed", field: ":path", value: "/" + strings.Repeat("p", 27), want: "incremental", wantNameIndex: 4},
		{name: ":path over 28 bytes is not indexed", field: ":path", value: "/" + strings.Repeat("p", 28), want: "without", wantNameIndex: 4},
		{name: ":path / is static", field: ":path", value: "/", want: "indexed"},
		{name: "content-length", field: "content-length", value: "1234", want: "without", wantNameIndex: 28},
		{name: "etag", field: "etag", value: `"abc"`, want: "without", wantNameIndex: 34},
		{name: "if-modified-since", field: "if-modified-since", value: "Mon, 21 Oct 2013 20:13:21 GMT", want: "without", wantNameIndex: 40},
		{name: "if-none-match", field: "if-none-match", value: `"abc"`, want: "without", wantNameIndex: 41},
		{name: "last-modified", field: "last-modified", value: "Mon, 21 Oct 2013 20:13:21 GMT", want: "without", wantNameIndex: 44},
		{name: "location", field: "location", value: "https://example.com/", want: "without", wantNameIndex: 46},
		{name: "set-cookie", field: "set-cookie", value: "a=b; Path=/", want: "without", wantNameIndex: 55},
		{name: "age", field: "age", value: "10", want: "without", wantNameIndex: 21},
		{name: "IndexAll indexes authorization", field: "authorization", value: "Bearer abc", policy: IndexAllPolicy(), want: "incremental", wantNameIndex: 23},
		{name: "IndexAll indexes content-length", field: "content-length", value: "1234", policy: IndexAllPolicy(), want: "incremental", wantNameIndex: 28},
		{name: "ordinary field is indexed", field: "user-agent", value: "curl/8", want: "incremental", wantNameIndex: 58},
		{name: "new name is indexed", field: "x-request-kind", value: "a", want: "incremental"},
		{name: "entry over 3/4 of the table", field: "x-large", value: large, want: "without"},
		{name: "entry of exactly 3/4 of the table", field: "x-large", value: fits, want: "incremental"},
		{name: "LargeEntryPercent 100", field: "x-large", value: large, policy: Policy{LargeEntryPercent: 100}, want: "incremental"},
		{name: "IndexAll ignores the 3/4 rule", field: "x-large", value: large, policy: IndexAllPolicy(), want: "incremental"},
		{name: "giant field", field: "x-giant", value: giant, policy: IndexAllPolicy(), want: "without"},
		{name: "sensitive giant field", field: "x-giant", value: giant, sensitive: true, policy: IndexAllPolicy(), want: "never"},
		{name: "maximum size 0: literal", field: "x-a", value: "b", maxSize: 0, want: "without"},
		{name: "maximum size 0: static reference", field: ":method", value: "GET", maxSize: 0, want: "indexed"},
		{name: "maximum size 0: static name", field: "user-agent", value: "x", maxSize: 0, want: "without", wantNameIndex: 58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := New(Config{Policy: tt.policy})
			p := newPeer()
			// A first block with one entry, to see that the field
			// under test leaves it alone or adds exactly one.
			block := enc.AppendFieldString(nil, "x-first", "1", false)
			if _, err := p.dec.DecodeFull(block); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.name, "maximum size 0") {
				p.ack(enc, tt.maxSize)
			}
			before := enc.TableLen()
			block = enc.AppendFieldString(nil, tt.field, tt.value, tt.sensitive)
			got, err := p.dec.DecodeFull(block)
			if err != nil {
				t.Fatalf("decoding %x: %v", block, err)
			}
			if strings.HasPrefix(tt.name, "maximum size 0") {
				block = block[1:] // the size update to 0
			}
			if rep := representation(block[0]); rep != tt.want {
				t.Errorf("representation %s; want %s (block %x)", rep, tt.want, block)
			}
			want := hpack.HeaderField{Name: tt.field, Value: tt.value, Sensitive: tt.want == "never"}
			if len(got) != 1 || got[0] != want {
				t.Errorf("decoded %v; want %v", got, want)
			}
			wantLen := before
			if tt.want == "incremental" {
				wantLen++
			}
			if enc.TableLen() != wantLen {
				t.Errorf("TableLen() = %d; want %d", enc.TableLen(), wantLen)
			}
			checkTablesEqual(t, "after the field", enc, p)
			if tt.want == "without" || tt.want == "never" || tt.want == "incremental" {
				prefixBits := uint8(4)
				if tt.want == "incremental" {
					prefixBits = 6
				}
				if index := decodeIndex(block, prefixBits); index != tt.wantNameIndex {
					t.Errorf("name index %d; want %d", index, tt.wantNameIndex)
				}
			}
		})
	}
}

// decodeIndex reads the §5.1 integer with a prefixBits-bit prefix at the
// start of b.
func decodeIndex(b []byte, prefixBits uint8) int {
	limit := 1<<prefixBits - 1
	v := int(b[0]) & limit
	if v < limit {
		return v
	}
	for shift, i := 0, 1; ; shift, i = shift+7, i+1 {
		v += int(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v
		}
	}
}

// TestZeroPolicyIsDefaultPolicy checks that Config{} and an explicit
// DefaultPolicy encode the same.
func TestZeroPolicyIsDefaultPolicy(t *testing.T) {
	a, b := New(Config{}), New(Config{Policy: DefaultPolicy})
	var outA, outB []byte
	for _, s := range readRawStories(t)[:4] {
		for _, block := range s.blocks {
			for _, f := range block {
				outA = a.AppendFieldString(outA, f.Name, f.Value, false)
				outB = b.AppendFieldString(outB, f.Name, f.Value, false)
			}
		}
	}
	if !bytes.Equal(outA, outB) {
		t.Errorf("zero Policy and DefaultPolicy encode differently")
	}
	if a.config != b.config {
		t.Errorf("normalized configs differ: %+v and %+v", a.config, b.config)
	}
}

// TestDynamicNameReference checks that a literal reuses a name the dynamic
// table holds, the newest entry winning, and that a full match is sent as
// "Indexed Header Field" with the newest entry's index.
func TestDynamicNameReference(t *testing.T) {
	enc := New(Config{})
	enc.AppendFieldString(nil, "x-custom", "a", false) // index 62
	enc.AppendFieldString(nil, "x-other", "b", false)  // now 63, x-custom a 63 -> 63
	enc.AppendFieldString(nil, "x-custom", "c", false) // 62; x-other 63; x-custom a 64
	got := enc.AppendFieldString(nil, "x-custom", "secret", true)
	if want := byte(0x1f); got[0] != want || decodeIndex(got, 4) != 62 {
		t.Errorf("never-indexed literal %x; want name index 62 (newest x-custom)", got)
	}
	if got := enc.AppendFieldString(nil, "x-custom", "a", false); !bytes.Equal(got, []byte{0x80 | 64}) {
		t.Errorf("full match of the oldest entry: got %x; want %x", got, []byte{0x80 | 64})
	}
	enc.AppendFieldString(nil, "x-custom", "a", false) // unchanged table: still a hit
	if enc.TableLen() != 3 {
		t.Errorf("TableLen() = %d; want 3", enc.TableLen())
	}
}

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

// TestShrinkEvictsAtOnce checks that SetMaxDynamicTableSize evicts before
// the next block (RFC 7541 §4.3) and that growing back works.
func TestShrinkEvictsAtOnce(t *testing.T) {
	enc := New(Config{})
	for i := range 10 {
		enc.AppendFieldString(nil, fmt.Sprintf("x-field-%d", i), "value", false)
	}
	if enc.TableLen() != 10 {
		t.Fatalf("TableLen() = %d; want 10", enc.TableLen())
	}
	enc.SetMaxDynamicTableSize(100) // each entry is 9+5+32 = 46 bytes
	if enc.TableLen() != 2 || enc.TableSize() != 92 || enc.MaxTableSize() != 100 {
		t.Errorf("after shrinking to 100: TableLen %d, TableSize %d, MaxTableSize %d; want 2, 92, 100",
			enc.TableLen(), enc.TableSize(), enc.MaxTableSize())
	}
	if name, _ := enc.TableEntry(0); string(name) != "x-field-9" {
		t.Errorf("newest entry %q; want x-field-9", name)
	}
	enc.SetMaxDynamicTableSize(0)
	if enc.TableLen() != 0 || enc.TableSize() != 0 {
		t.Errorf("after shrinking to 0: TableLen %d, TableSize %d; want 0, 0", enc.TableLen(), enc.TableSize())
	}
	enc.SetMaxDynamicTableSize(1 << 20)
	if enc.MaxTableSize() != 4096 {
		t.Errorf("MaxTableSize() = %d after a setting above Capacity; want 4096", enc.MaxTableSize())
	}
	enc.AppendFieldString(nil, "x-again", "v", false)
	if enc.TableLen() != 1 {
		t.Errorf("TableLen() = %d after growing back; want 1", enc.TableLen())
	}
	if name, value := enc.TableEntry(1); name != nil || value != nil {
		t.Errorf("TableEntry(1) out of range = %q, %q; want nil, nil", name, value)
	}
	if name, value := enc.TableEntry(-1); name != nil || value != nil {
		t.Errorf("TableEntry(-1) = %q, %q; want nil, nil", name, value)
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
