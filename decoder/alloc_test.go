package decoder

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

const allocRuns = 200

// TestDecodeAllocs checks that Decode allocates nothing once the decoder
// is built, on every path: static and dynamic hits, raw and Huffman
// literals, insertions that evict and compact, size updates, and a
// literal naming a dynamic entry.
func TestDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	long := strings.Repeat("a long value that is Huffman coded ", 10)
	huffman := encoder.IndexAllPolicy()
	huffman.Huffman = encoder.HuffmanNotLonger
	raw := encoder.IndexAllPolicy()
	raw.Huffman = encoder.HuffmanNever
	cases := []struct {
		name      string
		policy    encoder.Policy
		tableSize uint32
		fields    [][2]string
	}{
		{"static hits", encoder.Policy{}, 0, [][2]string{{":method", "GET"}, {":path", "/"}, {":scheme", "https"}}},
		{"raw literals", raw, 0, [][2]string{{"x-custom", "value"}, {"user-agent", long}}},
		{"Huffman literals", huffman, 0, [][2]string{{"x-custom", "value"}, {"user-agent", long}}},
		{"evictions", huffman, 256, [][2]string{{"x-a", long[:100]}, {"x-b", long[100:200]}, {"x-c", long[200:300]}}},
		{"dynamic names", raw, 512, [][2]string{{"x-name", "1"}, {"x-name", "2"}, {"x-name", "3"}, {"x-name", "4"}}},
	}
	emitted := 0
	emit := func(name, value []byte, sensitive bool) error {
		emitted += len(name) + len(value)
		return nil
	}
	for _, c := range cases {
		enc := encoder.New(encoder.Config{Policy: c.policy})
		if c.tableSize != 0 {
			enc.SetMaxDynamicTableSize(c.tableSize)
		}
		// Each run decodes two blocks on one decoder: the first
		// inserts its fields (evicting what earlier runs left), the
		// second hits them. Both stay valid when repeated, as the
		// first refers only to entries it inserts itself.
		var first, second []byte
		for _, f := range c.fields {
			first = enc.AppendFieldString(first, f[0], f[1], false)
		}
		for _, f := range c.fields {
			second = enc.AppendFieldString(second, f[0], f[1], false)
		}
		d := New(Config{})
		runs := 0
		allocs := testing.AllocsPerRun(allocRuns, func() {
			runs++
			if err := d.Decode(first, emit); err != nil {
				t.Fatal(err)
			}
			if err := d.Decode(second, emit); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run; want 0", c.name, allocs)
		}
		if runs < allocRuns || emitted == 0 {
			t.Fatalf("%s: %d runs, %d octets emitted", c.name, runs, emitted)
		}
	}
}

// TestDecodeSizeUpdateAllocs checks that size updates, which evict,
// allocate nothing.
func TestDecodeSizeUpdateAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	d := New(Config{})
	// Shrink to 0, grow to 4096, insert two fields.
	block := []byte("\x20\x3f\xe1\x1f\x40\x03x-a\x01v\x40\x03x-b\x01w")
	emit := func(name, value []byte, sensitive bool) error { return nil }
	allocs := testing.AllocsPerRun(allocRuns, func() {
		if err := d.Decode(block, emit); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || d.table.len() != 2 {
		t.Fatalf("%v allocations per run, %d entries; want 0 and 2", allocs, d.table.len())
	}
	// A lowered setting and its required update, then the setting raised
	// back within the memory New allocated.
	lowered := []byte("\x3f\x45\x82") // update to 100, :method GET
	raised := []byte("\x3f\xe1\x1f\x82")
	allocs = testing.AllocsPerRun(allocRuns, func() {
		d.SetTableSize(100)
		if err := d.Decode(lowered, emit); err != nil {
			t.Fatal(err)
		}
		d.SetTableSize(4096)
		if err := d.Decode(raised, emit); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("SetTableSize and its updates: %v allocations per run; want 0", allocs)
	}
}

// TestDecodeErrorAllocs checks that errors allocate nothing either: the
// *Error is the decoder's own. None of these blocks changes the table.
func TestDecodeErrorAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	d := New(Config{MaxStringLength: 8})
	emit := func(name, value []byte, sensitive bool) error { return nil }
	blocks := map[string][]byte{
		RuleIndexRange:      []byte("\x82\xbe"),
		RuleIndexZero:       []byte("\x80"),
		RuleHuffmanEOS:      []byte("\x00\x01a\x84\xff\xff\xff\xff"),
		RuleHuffmanPadOnes:  []byte("\x00\x01a\x81\x00"),
		RuleIntegerOverflow: []byte("\xff\x80\x80\x80\x80\xff\x0f"),
		RuleStringTooLong:   []byte("\x00\x09aaaaaaaaa"),
		RuleSizeUpdatePlace: []byte("\x82\x20"),
	}
	for rule, block := range blocks {
		allocs := testing.AllocsPerRun(allocRuns, func() {
			err := d.Decode(block, emit)
			if e, ok := err.(*Error); !ok || e.Rule != rule {
				t.Fatalf("%x: %v; want %q", block, err, rule)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run; want 0", rule, allocs)
		}
	}
}

// TestAppendHuffmanAllocs checks that AppendHuffman allocates nothing
// into a slice with room, on success: no error value escapes on the way.
func TestAppendHuffmanAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	src := encoder.AppendHuffmanString(nil, "short")
	dst := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(allocRuns, func() {
		var err error
		if dst, err = AppendHuffman(dst[:0], src); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("AppendHuffman: %v allocations per call, want 0", allocs)
	}
}
