package fuzz

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/wire"
)

func TestParseScript(t *testing.T) {
	tests := []struct {
		label string
		data  []byte
		want  *Script
	}{
		{"empty input", nil, &Script{Capacity: 4096}},
		{"header only: capacity 64, IndexAll, HuffmanNever", []byte{0x03 | 0x08 | 0x20}, &Script{Capacity: 64, IndexAll: true, Huffman: encoder.HuffmanNever}},
		{"Huffman mode 3 reads as HuffmanShorter", []byte{0x30}, &Script{Capacity: 4096}},
		{"static name and its value, sensitive", []byte{0, 0x01, 1}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: ":method", Value: "GET", Sensitive: true}}}},
		{"static name index wraps at 61", []byte{0, 0x00, 61 + 1}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: ":method", Value: "GET"}}}},
		{"literal name and value", []byte{0, 0x14, 2, 'a', 'b', 1, 'c'}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: "ab", Value: "c"}}}},
		{"long literal length", []byte{0, 0x04, 0xff, 0x00, 0x02, 'x', 'y'}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: "xy", Value: ""}}}},
		{"literal cut off by the end of input", []byte{0, 0x04, 9, 'a'}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: "a"}}}},
		{"run of one octet", []byte{0, 0x1c, 1, 'n', 0x00, 0x03, 'z'}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: "n", Value: "zzz"}}}},
		{"repeat earlier name and value", []byte{0, 0x14, 1, 'a', 1, 'b', 0x0a, 0, 0}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField, Name: "a", Value: "b"}, {Kind: OpField, Name: "a", Value: "b"}}}},
		{"repeat with nothing earlier is empty", []byte{0, 0x0a, 5, 5}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpField}}}},
		{"table sizes, 16 and 32 bits", []byte{0, 0x80, 0x01, 0x00, 0x81, 0x00, 0x01, 0x00, 0x00}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpTableSize, Size: 256}, {Kind: OpTableSize, Size: 65536}}}},
		{"end of block and reset", []byte{0, 0xc0, 0xef, 0xf0, 0xff}, &Script{Capacity: 4096, Ops: []Op{
			{Kind: OpEndBlock}, {Kind: OpEndBlock}, {Kind: OpReset}, {Kind: OpReset}}}},
	}
	for _, tt := range tests {
		got := ParseScript(tt.data)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ParseScript(%x) = %+v; want %+v", tt.label, tt.data, got, tt.want)
		}
	}
}

func TestParseScriptLimits(t *testing.T) {
	// A run longer than MaxString is cut to MaxString.
	s := ParseScript([]byte{0, 0x1c, 0x00, 0xff, 0xff, 'q'})
	if len(s.Ops) != 1 || len(s.Ops[0].Value) != MaxString {
		t.Fatalf("run of 65535: got %d ops, value of %d octets; want 1 op of %d", len(s.Ops), len(s.Ops[0].Value), MaxString)
	}
	// Parsing stops at the field that would take the script past
	// MaxScriptListSize, whatever the blocks.
	field := []byte{0x1c, 0x00, 0xff, 0xff, 'q'}
	for _, sep := range [][]byte{nil, {0xc0}, {0xf0}} {
		data := []byte{0}
		for range 5 {
			data = append(data, field...)
			data = append(data, sep...)
		}
		fields := 0
		for _, op := range ParseScript(data).Ops {
			if op.Kind == OpField {
				fields++
			}
		}
		if want := MaxScriptListSize / (MaxString + spec32); fields != want {
			t.Errorf("five giant fields separated by %x: %d parsed; want %d", sep, fields, want)
		}
	}
}

// spec32 is the entry overhead of RFC 7541 §4.1.
const spec32 = 32

func TestScriptBytesRoundTrip(t *testing.T) {
	s := &Script{Capacity: 100, IndexAll: true, Huffman: encoder.HuffmanNotLonger, Ops: []Op{
		{Kind: OpField, Name: "", Value: ""},
		{Kind: OpField, Name: "custom-key", Value: strings.Repeat("v", 180), Sensitive: true},
		{Kind: OpTableSize, Size: 0},
		{Kind: OpTableSize, Size: 1 << 20},
		{Kind: OpEndBlock},
		{Kind: OpReset},
		{Kind: OpField, Name: "\x00\xff", Value: "\n"},
	}}
	b, err := s.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if got := ParseScript(b); !reflect.DeepEqual(got, s) {
		t.Errorf("ParseScript(Bytes()) = %+v; want %+v", got, s)
	}
	// A literal of 255 octets or more takes a 2-octet length; past
	// MaxScriptInput the parser reads it cut, like any input that ends
	// early.
	const longValue = 300 // > MaxScriptInput, and a 2-octet length
	long := &Script{Capacity: 4096, Ops: []Op{{Kind: OpField, Name: "n", Value: strings.Repeat("w", longValue)}}}
	b, err = long.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// header, field op, literal name "n", literal value of 2-octet length
	head := []byte{0, 0x14, 1, 'n', longLength, longValue >> 8, longValue & 0xff}
	if !bytes.HasPrefix(b, head) {
		t.Errorf("Bytes() starts %x; want %x", b[:len(head)], head)
	}
	got := ParseScript(b)
	if want := MaxScriptInput - len(head); len(got.Ops) != 1 || len(got.Ops[0].Value) != want {
		t.Errorf("ParseScript of a %d-octet literal: %d ops, value of %d octets; want 1 op of %d", longValue, len(got.Ops), len(got.Ops[0].Value), want)
	}
}

func TestScriptBytesRejects(t *testing.T) {
	tests := []struct {
		label   string
		s       *Script
		wantErr string
	}{
		{"capacity not in the header's list", &Script{Capacity: 5000}, "capacity 5000"},
		{"string over MaxString", &Script{Capacity: 4096, Ops: []Op{{Kind: OpField, Value: strings.Repeat("a", MaxString+1)}}}, "op 0"},
		{"unknown Huffman mode", &Script{Capacity: 4096, Huffman: 7}, "Huffman mode 7"},
	}
	for _, tt := range tests {
		_, err := tt.s.Bytes()
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: Bytes() error %v; want one containing %q", tt.label, err, tt.wantErr)
		}
	}
}

func TestScriptString(t *testing.T) {
	s := &Script{Capacity: 256, Ops: []Op{
		{Kind: OpField, Name: ":path", Value: "/", Sensitive: true},
		{Kind: OpTableSize, Size: 0},
		{Kind: OpField, Name: "x", Value: strings.Repeat("z", 100)},
		{Kind: OpEndBlock},
		{Kind: OpReset},
	}}
	want := `script: capacity 256, policy default, Huffman when shorter, 5 ops
  connection 1, block 1:
    ":path": "/" (sensitive)
  SETTINGS_HEADER_TABLE_SIZE = 0; block 2:
    "x": "z" x 100
  end of block; block 3:
  reset; connection 2, block 1:
`
	if got := s.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}

func TestParseSession(t *testing.T) {
	data := []byte{2, 0x82, 0x86, 0xf0, 0x01, 0x00, 0xf1, 0x00, 0x01, 0x00, 0x00, 0xe0, 0x01, 0xbe, 3, 'a'}
	want := &Session{Steps: []Step{
		{Block: []byte{0x82, 0x86}},
		{IsSetting: true, Size: 256},
		{IsSetting: true, Size: 65536},
		{Block: []byte{0xbe}},
		{Block: []byte{'a'}},
	}}
	got := ParseSession(data)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseSession(%x) = %+v; want %+v", data, got, want)
	}
	long := &Session{Steps: []Step{{Block: make([]byte, 300)}, {IsSetting: true, Size: 1 << 31}}}
	b, err := long.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if back := ParseSession(b); !reflect.DeepEqual(back, long) {
		t.Errorf("ParseSession(Bytes()) = %+v; want %+v", back, long)
	}
	if _, err := (&Session{Steps: []Step{{Block: make([]byte, 4096)}}}).Bytes(); err == nil {
		t.Errorf("Bytes() of a 4096-octet block succeeded; want an error")
	}
}

func TestIntegerLen(t *testing.T) {
	tests := []struct {
		v    uint64
		n    uint
		want int
	}{
		{10, 5, 1},   // RFC 7541 C.1.1
		{1337, 5, 3}, // C.1.2
		{42, 8, 1},   // C.1.3
		{30, 5, 1},
		{31, 5, 2},
		{31 + 127, 5, 2},
		{31 + 128, 5, 3},
		{1<<32 - 1, 4, 6},
	}
	for _, tt := range tests {
		if got := IntegerLen(tt.v, tt.n); got != tt.want {
			t.Errorf("IntegerLen(%d, %d) = %d; want %d", tt.v, tt.n, got, tt.want)
		}
	}
}

func TestReadAppendInteger(t *testing.T) {
	tests := []struct {
		pattern byte
		n       uint
		v       uint64
		wire    string
	}{
		{0x00, 5, 10, "0a"},       // RFC 7541 C.1.1
		{0x00, 5, 1337, "1f9a0a"}, // C.1.2
		{0x00, 8, 42, "2a"},       // C.1.3
		{0xe0, 5, 31, "ff00"},
		{0x80, 1, 0, "80"},
		{0x00, 8, 255, "ff00"},
		// 2^64-1 - 1 = 0xfffffffffffffffe: nine 7-bit groups of ones
		// (0x7e first) and a last octet holding the top bit.
		{0xfe, 1, 1<<64 - 1, "fffeffffffffffffffff01"},
		// 2^64-1 - 255: the low group 0x00, then ...
		{0x00, 8, 1<<64 - 1, "ff80feffffffffffffff01"},
	}
	for _, tt := range tests {
		want, _ := hex.DecodeString(tt.wire)
		if got := appendInteger(nil, tt.pattern, tt.n, tt.v); !bytes.Equal(got, want) {
			t.Errorf("appendInteger(%#02x, %d, %d) = %x; want %s", tt.pattern, tt.n, tt.v, got, tt.wire)
		}
		// The writer and the walker's reader agree.
		read, _, err := wire.ReadInt(append(want, 0x42), 0, uint8(tt.n))
		if err != nil || read.Value != tt.v || read.Octets != len(want) {
			t.Errorf("wire.ReadInt(%s, 0, %d) = %d, %d octets, %v; want %d, %d octets", tt.wire, tt.n, read.Value, read.Octets, err, tt.v, len(want))
		}
		if err := checkIntegerDirect(tt.pattern, tt.v); err != nil {
			t.Errorf("checkIntegerDirect(%#02x, %d): %v", tt.pattern, tt.v, err)
		}
	}
}
