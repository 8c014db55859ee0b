package broken

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

func TestParseBug(t *testing.T) {
	for _, name := range Names() {
		bug, err := ParseBug(name)
		if err != nil || bug.String() != name {
			t.Errorf("ParseBug(%q) = %v, %v; want the bug named %q", name, bug, err, name)
		}
	}
	for _, x := range []byte{0x00, 0x7f, 0xc3, 0xff} {
		name := fmt.Sprintf("wrong-huffman-code:0x%02x", x)
		if bug, err := ParseBug(name); err != nil || bug != WrongHuffmanCode(x) || bug.String() != name {
			t.Errorf("ParseBug(%q) = %v, %v; want WrongHuffmanCode(%#02x)", name, bug, err, x)
		}
	}
	for _, bad := range []string{"off-by-two", "wrong-huffman-code:0x", "wrong-huffman-code:0x100", "wrong-huffman-code:0xzz"} {
		if _, err := ParseBug(bad); err == nil {
			t.Errorf("ParseBug(%q): no error", bad)
		}
	}
}

// TestWrongHuffmanCode checks that the bug changes the code of its octet
// only: a string without the octet is coded as without the bug.
func TestWrongHuffmanCode(t *testing.T) {
	fields := func(v string) []certify.Field { return []certify.Field{{Name: "x-octet", Value: v}} }
	const run = "aeiou0123456789"
	good, _ := New(None).EncodeBlock(nil, fields(run+"\xc3"+run))
	bad, _ := New(WrongHuffmanCode(0xc3)).EncodeBlock(nil, fields(run+"\xc3"+run))
	if string(good) == string(bad) {
		t.Errorf("wrong-huffman-code:0xc3 wrote the same block as no bug: %x", good)
	}
	good, _ = New(None).EncodeBlock(nil, fields(run))
	bad, _ = New(WrongHuffmanCode(0xc3)).EncodeBlock(nil, fields(run))
	if string(good) != string(bad) {
		t.Errorf("wrong-huffman-code:0xc3 changed a block without 0xc3: %x; want %x", bad, good)
	}
}

// TestNoneRoundTrips checks that the encoder without a bug is a correct
// encoder: the strict oracle decodes what it writes, through size changes,
// and both tables stay equal.
func TestNoneRoundTrips(t *testing.T) {
	e, d := New(None), strict.New()
	blocks := []struct {
		acked  []uint32
		fields []certify.Field
	}{
		{nil, []certify.Field{{Name: ":method", Value: "GET"}, {Name: "x-a", Value: "one"}, {Name: "authorization", Value: "secret"}}},
		{[]uint32{0, 4096}, []certify.Field{{Name: "x-a", Value: "one"}, {Name: "x-b", Value: "two", Sensitive: true}}},
		{[]uint32{64}, []certify.Field{{Name: "x-a", Value: "one"}, {Name: "x-c", Value: "a value longer than the table of sixty-four octets"}}},
		{nil, []certify.Field{{Name: "x-a", Value: "one"}, {Name: "x-a", Value: "one"}}},
	}
	for i, b := range blocks {
		for _, n := range b.acked {
			e.SetMaxDynamicTableSize(n)
			d.SetMaxDynamicTableSize(n)
		}
		wire, err := e.EncodeBlock(nil, b.fields)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.DecodeBlock(wire)
		if err != nil {
			t.Fatalf("block %d: strict: %v (wire %x)", i, err, wire)
		}
		if len(got) != len(b.fields) {
			t.Fatalf("block %d: got %d fields; want %d", i, len(got), len(b.fields))
		}
		for j, f := range b.fields {
			if got[j].Name != f.Name || got[j].Value != f.Value || got[j].Sensitive != (f.Sensitive || f.Name == "authorization") {
				t.Errorf("block %d field %d: got %+v; want %+v", i, j, got[j], f)
			}
		}
		if et, dt := e.Table(), d.Table(); len(et) != len(dt) {
			t.Errorf("block %d: encoder table %v; strict's %v", i, et, dt)
		}
	}
}

// TestEvictedNameAfterInsert checks that the bug changes only a literal
// whose name's entry its own insertion evicts (RFC 7541 §4.4): there the
// name index is one past the entry's, past the decoder's table; where the
// named entry survives the insertion, the blocks are those of no bug.
func TestEvictedNameAfterInsert(t *testing.T) {
	a, b := strings.Repeat("a", 30), strings.Repeat("b", 30) // 67-octet entries
	tests := []struct {
		name    string
		size    uint32 // the acknowledged table size
		changed bool   // whether the second block differs from no bug's
	}{
		{"each entry evicts the other", 100, true},
		{"both entries fit", 200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wires [2][]byte
			for i, bug := range []Bug{None, EvictedNameAfterInsert} {
				e, d := New(bug), strict.New()
				e.SetMaxDynamicTableSize(tt.size)
				d.SetMaxDynamicTableSize(tt.size)
				var err error
				for _, v := range []string{a, b} {
					wires[i], _ = e.EncodeBlock(nil, []certify.Field{{Name: "x-own", Value: v}})
					if _, err = d.DecodeBlock(wires[i]); err != nil {
						break
					}
				}
				if bug == EvictedNameAfterInsert && tt.changed != (err != nil) {
					t.Errorf("%s: strict decoding the second block %x: error %v; want one: %v", bug, wires[i], err, tt.changed)
				}
				if bug == None && err != nil {
					t.Fatalf("none: strict: %v (wire %x)", err, wires[i])
				}
			}
			if changed := !bytes.Equal(wires[0], wires[1]); changed != tt.changed {
				t.Errorf("second block %x with the bug, %x without; changed %v, want %v", wires[1], wires[0], changed, tt.changed)
			}
		})
	}
}
