package qstrict

import (
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// b2EncoderStream is the encoder stream of RFC 9204 Appendix B.2: Set
// Dynamic Table Capacity 220 and two inserts with static name references.
const b2EncoderStream = "3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468"

var b2Table = []spec.Field{{Name: ":path", Value: "/sample/path"}, {Name: ":authority", Value: "www.example.com"}}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// setCapacity, insertLiteral and duplicate write encoder instructions
// (§4.3.1, §4.3.3, §4.3.4) without Huffman coding.
func setCapacity(c uint64) []byte { return encoder.AppendInteger(nil, 0x20, 5, c) }

func insertLiteral(name, value string) []byte {
	b := append(encoder.AppendInteger(nil, 0x40, 5, uint64(len(name))), name...)
	return append(encoder.AppendInteger(b, 0, 7, uint64(len(value))), value...)
}

func duplicate(rel uint64) []byte { return encoder.AppendInteger(nil, 0, 5, rel) }

func join(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// wantError checks that err is an *Error with the code, offset and section.
func wantError(t *testing.T, label string, err error, code string, offset int, section string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v; want an *Error %s at offset %d (%s)", label, err, code, offset, section)
		return
	}
	if e.Code != code || e.Offset != offset || e.Section != section {
		t.Errorf("%s: %v; want %s at offset %d (%s)", label, e, code, offset, section)
	}
}

func TestEncoderStreamAppendixBInPieces(t *testing.T) {
	stream := mustHex(t, b2EncoderStream)
	d := New(Settings{MaxTableCapacity: 220})
	for i := range stream {
		if err := d.EncoderStream(stream[i : i+1]); err != nil {
			t.Fatalf("octet %d: %v", i, err)
		}
	}
	if got := d.Table(); !reflect.DeepEqual(got, b2Table) {
		t.Errorf("table %v; want %v", got, b2Table)
	}
	if d.Capacity() != 220 || d.InsertCount() != 2 {
		t.Errorf("capacity %d, %d inserts; want 220, 2", d.Capacity(), d.InsertCount())
	}
}

func TestEncoderStreamEviction(t *testing.T) {
	d := New(Settings{MaxTableCapacity: 100})
	// Entries of 34 octets: two fit in 70, a third evicts the oldest, and
	// a duplicate of the newest (relative 0) evicts the next.
	stream := join(setCapacity(70), insertLiteral("a", "1"), insertLiteral("b", "2"), insertLiteral("c", "3"), duplicate(0))
	if err := d.EncoderStream(stream); err != nil {
		t.Fatal(err)
	}
	want := []spec.Field{{Name: "c", Value: "3"}, {Name: "c", Value: "3"}}
	if got := d.Table(); !reflect.DeepEqual(got, want) {
		t.Errorf("table %v; want %v", got, want)
	}
	if err := d.EncoderStream(setCapacity(40)); err != nil {
		t.Fatal(err)
	}
	if got := d.Table(); len(got) != 1 || d.InsertCount() != 4 {
		t.Errorf("after capacity 40: table %v, %d inserts; want one entry, 4 inserts", got, d.InsertCount())
	}
}

func TestEncoderStreamErrors(t *testing.T) {
	tests := []struct {
		label   string
		max     uint64
		stream  []byte
		offset  int
		section string
	}{
		{"capacity above the setting", 100, setCapacity(101), 0, "§4.3.1"},
		{"insert before any capacity", 100, insertLiteral("a", "b"), 0, "§3.2.2"},
		{"entry larger than the capacity", 100, join(setCapacity(40), insertLiteral("abcdefgh", "x")), 2, "§3.2.2"},
		{"static name index past the table", 100, join(setCapacity(100), mustHex(t, "ff2400")), 2, "§3.1"},
		{"relative name index with no entries", 100, join(setCapacity(100), mustHex(t, "8000")), 2, "§4.3.2"},
		{"duplicate past the inserts", 100, join(setCapacity(100), duplicate(0)), 2, "§4.3.4"},
		{"duplicate of an evicted entry", 100, join(setCapacity(70), insertLiteral("a", "1"), insertLiteral("b", "2"), insertLiteral("c", "3"), duplicate(2)), 14, "§2.2.3"},
		{"Huffman EOS in a value", 100, join(setCapacity(100), mustHex(t, "c084ffffffff")), 4, "§4.1.2"},
		{"incomplete instruction longer than any entry can be", 10, join(mustHex(t, "5f45"), []byte(strings.Repeat("n", 80))), 0, "§3.2.2"},
	}
	for _, tt := range tests {
		d := New(Settings{MaxTableCapacity: tt.max})
		wantError(t, tt.label, d.EncoderStream(tt.stream), EncoderStreamError, tt.offset, tt.section)
		if err := d.EncoderStream(nil); !errors.Is(err, ErrBroken) {
			t.Errorf("%s: after the error, EncoderStream returned %v; want ErrBroken", tt.label, err)
		}
		if _, _, err := d.DecodeSection(0, []byte{0, 0}); !errors.Is(err, ErrBroken) {
			t.Errorf("%s: after the error, DecodeSection returned %v; want ErrBroken", tt.label, err)
		}
	}
}

// TestEncoderStreamErrorOffsetAcrossPieces checks that an offset counts
// from the stream's first octet, not from the piece's.
func TestEncoderStreamErrorOffsetAcrossPieces(t *testing.T) {
	d := New(Settings{MaxTableCapacity: 100})
	if err := d.EncoderStream(join(setCapacity(100), insertLiteral("a", "b")[:2])); err != nil {
		t.Fatal(err)
	}
	wantError(t, "capacity after a split insert", d.EncoderStream(join(insertLiteral("a", "b")[2:], setCapacity(200))), EncoderStreamError, 6, "§4.3.1")
}

func TestDecoderStreamInsertCountIncrement(t *testing.T) {
	d := New(Settings{MaxTableCapacity: 220})
	if err := d.EncoderStream(mustHex(t, b2EncoderStream)); err != nil {
		t.Fatal(err)
	}
	if got := d.DecoderStreamOut(); !reflect.DeepEqual(got, []byte{0x02}) {
		t.Errorf("after two inserts: %x; want an Insert Count Increment of 2, 02", got)
	}
	if got := d.DecoderStreamOut(); len(got) != 0 {
		t.Errorf("with nothing new: %x; want nothing (never an increment of 0)", got)
	}
	if err := d.Cancel(8); err != nil {
		t.Fatal(err)
	}
	if got := d.DecoderStreamOut(); !reflect.DeepEqual(got, []byte{0x48}) {
		t.Errorf("after Cancel(8): %x; want a Stream Cancellation, 48", got)
	}
	if d.KnownReceivedCount() != 2 {
		t.Errorf("Known Received Count %d; want 2", d.KnownReceivedCount())
	}
}
