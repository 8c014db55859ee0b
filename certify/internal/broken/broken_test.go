package broken

import (
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
	if _, err := ParseBug("off-by-two"); err == nil {
		t.Error(`ParseBug("off-by-two"): no error`)
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
			if got[j].Name != f.Name || got[j].Value != f.Value || got[j].NeverIndexed != (f.Sensitive || f.Name == "authorization") {
				t.Errorf("block %d field %d: got %+v; want %+v", i, j, got[j], f)
			}
		}
		if et, dt := e.Table(), d.Table(); len(et) != len(dt) {
			t.Errorf("block %d: encoder table %v; strict's %v", i, et, dt)
		}
	}
}
