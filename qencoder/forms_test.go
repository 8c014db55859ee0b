package qencoder

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// TestWireForms pins, octet by octet, the forms a blocked-streams budget
// and the draining index bring, each section acknowledged before the
// next and decoded by qstrict: a field inserted the second time it is
// seen, post-base references to entries the section inserts (§4.5.3,
// §4.5.5) under a Base equal to the Insert Count at its start, and a
// Duplicate (§4.3.4) for a field whose only entry is draining, referenced
// post-base when the section may block and not at all when it may not.
func TestWireForms(t *testing.T) {
	x := func(name, value string) spec.Field { return spec.Field{Name: name, Value: value} }
	three := []spec.Field{x("x-a", "1"), x("x-b", "1"), x("x-c", "1")}
	type step struct {
		fields       []spec.Field
		enc, section string // hex
	}
	for _, c := range []struct {
		label    string
		capacity uint32
		blocked  uint64
		steps    []step
	}{
		{"post-base", 4096, 1, []step{
			// Seen once: literals, no insert.
			{[]spec.Field{x("x-a", "1"), {Name: "x-a", Value: "2", Sensitive: true}}, "", "0000 23782d610131 33782d610132"},
			// Seen again: Set Dynamic Table Capacity 4096, Insert
			// With Literal Name "x-a": "1"; Required Insert Count 1
			// (encoded 2), Base 0 (S=1, Delta Base 0), post-base index
			// 0, then its name post-base with the N bit, value "2".
			{[]spec.Field{x("x-a", "1"), {Name: "x-a", Value: "2", Sensitive: true}}, "3fe11f 43782d61 0131", "0280 10 08 0132"},
		}},
		{"duplicate when blocking", 120, 1, []step{
			{three, "", "0000 23782d610131 23782d620131 23782d630131"},
			// Three entries of 36 octets fill 108 of 120: the oldest
			// is draining (12 octets free, under 120/8). Required
			// Insert Count 3 (encoded 4), Base 0 (S=1, Delta Base 2).
			{three, "3f59 43782d610131 43782d620131 43782d630131", "0482 10 11 12"},
			// Duplicate of relative index 2, evicting entry 0, and a
			// reference to the copy: Required Insert Count 4 (5),
			// Base 3.
			{[]spec.Field{x("x-a", "1")}, "02", "0580 10"},
		}},
		{"duplicate without blocking", 120, 0, []step{
			{three, "", "0000 23782d610131 23782d620131 23782d630131"},
			// No section may reference an entry not acknowledged:
			// the inserts go, the lines are literals.
			{three, "3f59 43782d610131 43782d620131 43782d630131", "0000 23782d610131 23782d620131 23782d630131"},
			// The copy of the draining entry cannot be referenced
			// yet, nor the original, which is draining.
			{[]spec.Field{x("x-a", "1")}, "02", "0000 23782d610131"},
		}},
	} {
		enc := New(Config{TableCapacity: c.capacity, PeerMaxTableCapacity: 4096, BlockedStreams: c.blocked})
		dec := qstrict.New(qstrict.Settings{MaxTableCapacity: 4096, BlockedStreams: c.blocked})
		for i, s := range c.steps {
			section, es := enc.AppendSection(nil, nil, 0, s.fields)
			if got, want := fmt.Sprintf("%x/%x", es, section), strings.ReplaceAll(s.enc+"/"+s.section, " ", ""); got != want {
				t.Errorf("%s, section %d: encoder stream/section %s, want %s", c.label, i, got, want)
			}
			if err := dec.EncoderStream(es); err != nil {
				t.Fatalf("%s, section %d: qstrict: %v", c.label, i, err)
			}
			got, _, err := dec.DecodeSection(0, section)
			if err != nil || len(got) != len(s.fields) {
				t.Fatalf("%s, section %d: qstrict decodes %+v, %v", c.label, i, got, err)
			}
			if n, err := enc.DecoderStream(dec.DecoderStreamOut()); err != nil {
				t.Fatalf("%s, section %d: DecoderStream: %d, %v", c.label, i, n, err)
			}
		}
	}
}

// TestSameOutput checks that two encoders write the same octets for the
// same traffic: the reference encoder's transcripts must not change from
// run to run, though which fields it inserts depends on their hashes.
func TestSameOutput(t *testing.T) {
	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	lists := files[0].HeaderLists
	cfg := Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096, BlockedStreams: 100}
	a, b := New(cfg), New(cfg)
	for i, l := range lists {
		sa, ea := a.AppendSection(nil, nil, uint64(i)*4, l)
		sb, eb := b.AppendSection(nil, nil, uint64(i)*4, l)
		if !bytes.Equal(sa, sb) || !bytes.Equal(ea, eb) {
			t.Fatalf("list %d: %x/%x, then %x/%x", i, ea, sa, eb, sb)
		}
		if err := ackAll(a, nil, uint64(i)*4, sa); err != nil {
			t.Fatal(err)
		}
		if err := ackAll(b, nil, uint64(i)*4, sb); err != nil {
			t.Fatal(err)
		}
	}
}
