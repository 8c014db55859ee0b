package encoder

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
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
