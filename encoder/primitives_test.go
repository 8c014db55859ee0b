package encoder

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
	"golang.org/x/net/http2/hpack"
)

func TestAppendSizeUpdates(t *testing.T) {
	tests := []struct {
		name  string
		sizes []uint32 // SetMaxDynamicTableSize calls before AppendSizeUpdates
		want  []byte
	}{
		{"nothing set", nil, nil},
		{"same size again", []uint32{4096}, nil},
		{"down to zero", []uint32{0}, []byte{0x20}},
		{"down then up", []uint32{100, 4096}, []byte{0x3f, 0x45, 0x3f, 0xe1, 0x1f}},
		{"down twice", []uint32{1000, 100}, []byte{0x3f, 0x45}},
		{"above capacity is clamped, no change", []uint32{1 << 20}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(Config{})
			for _, n := range tt.sizes {
				e.SetMaxDynamicTableSize(n)
			}
			got := e.AppendSizeUpdates(nil)
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("AppendSizeUpdates = %x; want %x", got, tt.want)
			}
			// The updates are sent once: neither a second call nor
			// the next field repeats them.
			if again := e.AppendSizeUpdates(nil); len(again) != 0 {
				t.Errorf("second AppendSizeUpdates = %x; want nothing", again)
			}
			if field := e.AppendFieldString(nil, ":method", "GET", false); !bytes.Equal(field, []byte{0x82}) {
				t.Errorf("next field = %x; want 82 with no size update", field)
			}
		})
	}
}

// TestAppendSizeUpdatesDecodes checks an empty block made of the updates
// alone against x/net's decoder, which must end with the new maximum.
func TestAppendSizeUpdatesDecodes(t *testing.T) {
	e := New(Config{})
	d := hpack.NewDecoder(4096, nil)
	block := e.AppendFieldString(nil, "x-custom", "value", false)
	if _, err := d.DecodeFull(block); err != nil {
		t.Fatal(err)
	}
	e.SetMaxDynamicTableSize(0)
	d.SetAllowedMaxDynamicTableSize(0)
	block = e.AppendSizeUpdates(nil)
	if _, err := d.DecodeFull(block); err != nil {
		t.Fatalf("decoding %x: %v", block, err)
	}
	if e.TableLen() != 0 {
		t.Errorf("TableLen = %d after shrinking to 0; want 0", e.TableLen())
	}
}

// decodeInteger decodes an RFC 7541 §5.1 integer with an n-bit prefix by
// the pseudocode of that section.
func decodeInteger(t *testing.T, b []byte, n uint8) (uint64, int) {
	t.Helper()
	limit := uint64(1)<<n - 1
	v := uint64(b[0]) & limit
	if v < limit {
		return v, 1
	}
	var m uint
	for i := 1; i < len(b); i++ {
		v += uint64(b[i]&0x7f) << m
		m += 7
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	t.Fatalf("truncated integer %x", b)
	return 0, 0
}

func TestAppendIntegerRFCExamples(t *testing.T) {
	for _, ex := range vectors.IntegerExamples() {
		got := AppendInteger(nil, 0, ex.PrefixBits, ex.Value)
		if !bytes.Equal(got, ex.Wire) {
			t.Errorf("%s: AppendInteger(%d, %d-bit prefix) = %x; want %x", ex.Section, ex.Value, ex.PrefixBits, got, ex.Wire)
		}
	}
}

func TestAppendIntegerEveryPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	values := []uint64{0, 1, 126, 127, 128, 254, 255, 256, 1<<14 - 1, 1 << 14, math.MaxUint32, math.MaxUint64}
	for range 2000 {
		values = append(values, r.Uint64()>>uint(r.IntN(64)))
	}
	for prefix := uint8(1); prefix <= 8; prefix++ {
		limit := uint64(1)<<prefix - 1
		for _, v := range values {
			pattern := byte(0xff) << prefix // every pattern bit set, to catch overlap
			if prefix == 8 {
				pattern = 0
			}
			got := AppendInteger([]byte{0xaa}, 0xff, prefix, v)
			if got[0] != 0xaa {
				t.Fatalf("AppendInteger overwrote dst")
			}
			got = got[1:]
			if got[0]&^byte(limit) != pattern {
				t.Fatalf("prefix %d, v %d: first octet %08b does not keep pattern %08b", prefix, v, got[0], pattern)
			}
			dec, n := decodeInteger(t, got, prefix)
			if dec != v || n != len(got) {
				t.Fatalf("prefix %d: AppendInteger(%d) = %x decodes to %d in %d octets", prefix, v, got, dec, n)
			}
			if IntegerLen(prefix, v) != len(got) {
				t.Fatalf("IntegerLen(%d, %d) = %d; AppendInteger wrote %d", prefix, v, IntegerLen(prefix, v), len(got))
			}
			// Minimal: the last continuation octet carries a set bit,
			// and a value below the limit takes one octet.
			if (v < limit) != (len(got) == 1) || (len(got) > 2 && got[len(got)-1] == 0) {
				t.Fatalf("prefix %d: %d encoded as %x is not minimal", prefix, v, got)
			}
		}
	}
}

func TestAppendHuffmanAgainstXNet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	inputs := []string{"", "a", "www.example.com", "no-cache", "\x00\xff\x7f\x80"}
	for range 500 {
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		inputs = append(inputs, string(b))
	}
	for _, s := range inputs {
		want := hpack.AppendHuffmanString(nil, s)
		if got := AppendHuffmanString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendHuffmanString(%q) = %x; x/net gives %x", s, got, want)
		}
		if got := AppendHuffman([]byte("prefix"), []byte(s)); !bytes.Equal(got[6:], want) || string(got[:6]) != "prefix" {
			t.Fatalf("AppendHuffman(%q) = %x; want prefix then %x", s, got, want)
		}
		if n, want := HuffmanLen([]byte(s)), int(hpack.HuffmanEncodeLength(s)); n != want {
			t.Fatalf("HuffmanLen(%q) = %d; x/net gives %d", s, n, want)
		}
	}
}

func TestPrimitivesDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	e := New(Config{})
	dst := make([]byte, 0, 4096)
	s := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
	allocs := testing.AllocsPerRun(200, func() {
		e.SetMaxDynamicTableSize(100)
		e.SetMaxDynamicTableSize(4096)
		out := e.AppendSizeUpdates(dst[:0])
		out = AppendInteger(out, 0x20, 5, 1<<30)
		out = AppendHuffmanString(out, s)
		out = AppendHuffmanString(out, "gzip") // the short path
		_ = HuffmanLen(out)
	})
	if allocs != 0 {
		t.Fatalf("AppendSizeUpdates, AppendInteger, AppendHuffmanString, HuffmanLen: %v allocations per run; want 0", allocs)
	}
}
