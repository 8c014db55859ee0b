package decoder

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
)

// randomField returns a field from a small set of names and values, so
// that fields repeat and hit the dynamic table, or a fresh one.
func randomField(r *rand.Rand) hpack.HeaderField {
	names := []string{":method", ":path", "cookie", "x-a", "x-b", "user-agent", "authorization", "etag"}
	values := []string{"GET", "/", "", "v", "a longer value with spaces", "\x00\xff\x80 binary", strings.Repeat("z", 300)}
	f := hpack.HeaderField{Name: names[r.IntN(len(names))], Value: values[r.IntN(len(values))]}
	if r.IntN(4) == 0 {
		f.Value = fmt.Sprintf("v%d", r.IntN(1000))
	}
	if r.IntN(8) == 0 {
		f.Name = fmt.Sprintf("x-%d", r.IntN(50))
	}
	f.Sensitive = r.IntN(10) == 0
	return f
}

// randomBlock returns a block of 1 to maxFields random fields, as enc
// encodes them.
func randomBlock(r *rand.Rand, enc *encoder.Encoder, maxFields int) []byte {
	var block []byte
	for range 1 + r.IntN(maxFields) {
		f := randomField(r)
		block = enc.AppendFieldString(block, f.Name, f.Value, f.Sensitive)
	}
	return block
}

// xnetFields formats x/net's fields as collect does.
func xnetFields(fields []hpack.HeaderField) []string {
	var out []string
	for _, f := range fields {
		s := f.Name + ": " + f.Value
		if f.Sensitive {
			s += " (sensitive)"
		}
		out = append(out, s)
	}
	return out
}

// TestDecodeDifferential encodes random blocks with hpackcert's encoder
// and x/net's, with table size changes in between, and decodes each with
// Decode and with x/net's decoder: the fields and their "Never Indexed"
// flags must agree.
func TestDecodeDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for conn := range 40 {
		ours := encoder.New(encoder.Config{})
		var xbuf strings.Builder
		xenc := hpack.NewEncoder(&xbuf)
		useX := conn%2 == 1
		d := New(Config{})
		xdec := hpack.NewDecoder(4096, nil)
		for range 30 {
			if r.IntN(6) == 0 {
				size := uint32(r.IntN(4097))
				ours.SetMaxDynamicTableSize(size)
				xenc.SetMaxDynamicTableSize(size)
			}
			var block []byte
			xbuf.Reset()
			for range 1 + r.IntN(12) {
				f := randomField(r)
				if useX {
					if err := xenc.WriteField(f); err != nil {
						t.Fatal(err)
					}
				} else {
					block = ours.AppendFieldString(block, f.Name, f.Value, f.Sensitive)
				}
			}
			if useX {
				block = []byte(xbuf.String())
			}
			want, err := xdec.DecodeFull(block)
			if err != nil {
				t.Fatalf("x/net: %v", err)
			}
			wantS := xnetFields(want)
			got, err := collect(d, block)
			if err != nil || strings.Join(got, "|") != strings.Join(wantS, "|") {
				t.Fatalf("block %x: %q, %v; x/net %q", block, got, err, wantS)
			}
		}
	}
}

// TestDecodeEmitError checks that an error from emit stops decoding and is
// returned as is.
func TestDecodeEmitError(t *testing.T) {
	stop := fmt.Errorf("stop")
	n := 0
	err := New(Config{}).Decode([]byte{0x82, 0x84, 0x86}, func(name, value []byte, sensitive bool) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Fatalf("Decode returned %v after %d fields; want stop after 1", err, n)
	}
}

// TestDecodeDynamicNameEvicted inserts a field whose name refers to an
// entry its own insertion evicts, with the new entry's octets written over
// the old name's: the name emitted and the one inserted must survive.
func TestDecodeDynamicNameEvicted(t *testing.T) {
	d := New(Config{TableSize: 100})
	// "aa: bbbb" (38) and "x-name: v" (39), then a literal with
	// incremental indexing naming index 62 with a 30-octet value: its 68
	// octets need both entries gone, and its value lands where the name
	// was.
	value := strings.Repeat("w", 30)
	block := []byte("\x40\x02aa\x04bbbb\x40\x06x-name\x01v\x7e\x1e" + value)
	got, err := collect(d, block)
	want := "aa: bbbb|x-name: v|x-name: " + value
	if err != nil || strings.Join(got, "|") != want {
		t.Fatalf("%q, %v; want %q", got, err, want)
	}
	if tab := strings.Join(tableFields(&d.table), "|"); tab != "x-name: "+value {
		t.Fatalf("table %q", tab)
	}
}

// TestDecodeHeaderListSize checks the header list limit, 32 octets per
// field counted: on references to a large dynamic entry, which would
// otherwise expand one wire octet to the entry's size, on empty literals,
// and at exactly the limit.
func TestDecodeHeaderListSize(t *testing.T) {
	value := strings.Repeat("v", 100)
	insert := "\x40\x01n\x64" + value // "n: v...", 133 octets
	d := New(Config{MaxHeaderListSize: 3 * 133})
	got, err := collect(d, []byte(insert+"\xbe\xbe"))
	if err != nil || len(got) != 3 {
		t.Fatalf("3 fields of 133 octets at a limit of 399: %d fields, %v", len(got), err)
	}
	got, err = collect(d, []byte("\xbe\xbe\xbe\xbe"))
	if e, ok := err.(*Error); !ok || e.Rule != RuleHeaderListSize || e.Offset != 3 || len(got) != 3 {
		t.Fatalf("4 references to a 133-octet entry: %d fields, %v; want 3 and the limit at offset 3", len(got), err)
	}
	// Thirteen empty literals cost 32 octets each: 416 > 399.
	got, err = collect(New(Config{MaxHeaderListSize: 399}), []byte(strings.Repeat("\x00\x00\x00", 13)))
	if e, ok := err.(*Error); !ok || e.Rule != RuleHeaderListSize || e.Offset != 36 || len(got) != 12 {
		t.Fatalf("13 empty literals: %d fields, %v; want 12 and the limit at offset 36", len(got), err)
	}
}
