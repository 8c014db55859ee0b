package wire

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
)

// fromHex decodes a hand-written hex block; spaces separate its parts.
func fromHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func TestKindString(t *testing.T) {
	tests := []struct {
		kind Kind
		want string
	}{
		{Indexed, "indexed (§6.1)"},
		{Incremental, "literal with incremental indexing (§6.2.1)"},
		{WithoutIndexing, "literal without indexing (§6.2.2)"},
		{NeverIndexed, "literal never indexed (§6.2.3)"},
		{SizeUpdate, "dynamic table size update (§6.3)"},
		{SizeUpdate + 1, "Kind(5)"}, // no such kind: printed, not a panic
	}
	for _, tt := range tests {
		if got := tt.kind.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q; want %q", uint8(tt.kind), got, tt.want)
		}
	}
}

func TestReadInt(t *testing.T) {
	tests := []struct {
		label   string
		hex     string
		prefix  uint8
		value   uint64
		minimal bool
		reason  string
	}{
		// Each prefix HPACK uses, at 2^N-2 (one octet), 2^N-1 (a single
		// zero continuation octet, which is minimal), 2^N and 2^N-1+200
		// (two continuation octets). The bits above the prefix are the
		// representation's pattern and must be ignored.
		{"4-bit 14", "1e", 4, 14, true, "largest value that fits the prefix"},
		{"4-bit 15", "1f 00", 4, 15, true, "2^N-1 needs one zero continuation octet"},
		{"4-bit 16", "1f 01", 4, 16, true, "first value past the prefix"},
		{"4-bit 215", "1f c8 01", 4, 215, true, "two continuation octets"},
		{"5-bit 30", "3e", 5, 30, true, "largest value that fits the prefix"},
		{"5-bit 31", "3f 00", 5, 31, true, "2^N-1 needs one zero continuation octet"},
		{"5-bit 32", "3f 01", 5, 32, true, "first value past the prefix"},
		{"5-bit 231", "3f c8 01", 5, 231, true, "two continuation octets"},
		{"6-bit 62", "7e", 6, 62, true, "largest value that fits the prefix"},
		{"6-bit 63", "7f 00", 6, 63, true, "2^N-1 needs one zero continuation octet"},
		{"6-bit 64", "7f 01", 6, 64, true, "first value past the prefix"},
		{"6-bit 263", "7f c8 01", 6, 263, true, "two continuation octets"},
		{"7-bit 126", "fe", 7, 126, true, "largest value that fits the prefix"},
		{"7-bit 127", "ff 00", 7, 127, true, "2^N-1 needs one zero continuation octet"},
		{"7-bit 128", "ff 01", 7, 128, true, "first value past the prefix"},
		{"7-bit 327", "ff c8 01", 7, 327, true, "two continuation octets"},
		{"C.1.1", "0a", 5, 10, true, "RFC 7541 C.1.1"},
		{"C.1.2", "1f 9a 0a", 5, 1337, true, "RFC 7541 C.1.2"},
		{"C.1.3", "2a", 8, 42, true, "RFC 7541 C.1.3, an 8-bit prefix"},
		{"1-bit 0", "fe", 1, 0, true, "a 1-bit prefix ignores seven pattern bits"},
		{"8-bit max", "ff 80 fe ff ff ff ff ff ff ff 01", 8, 1<<64 - 1, true, "2^64-1 in ten continuation octets, the last holding bit 63"},
		{"5-bit 31 redundant", "3f 80 00", 5, 31, false, "a zero continuation octet after another one adds nothing"},
		{"5-bit 32 redundant", "3f 81 00", 5, 32, false, "a last zero octet after a nonzero one"},
		{"7-bit 127 redundant", "ff 80 80 00", 7, 127, false, "two redundant octets"},
		{"4-bit 16 redundant", "1f 81 80 00", 4, 16, false, "redundant octets after the value"},
	}
	for _, tt := range tests {
		wire := fromHex(t, tt.hex)
		for _, p := range []int{0, 2} {
			// Two octets before and one after: the integer is read from
			// p and no further than its last octet.
			block := append(append(make([]byte, p, p+len(wire)+1), wire...), 0x42)
			got, end, err := ReadInt(block, p, tt.prefix)
			want := Int{Offset: p, Value: tt.value, Prefix: tt.prefix, Octets: len(wire), Minimal: tt.minimal}
			if err != nil || got != want || end != p+len(wire) {
				t.Errorf("%s (%s): ReadInt(%x, %d, %d) = %+v, %d, %v; want %+v, %d, nil", tt.label, tt.reason, block, p, tt.prefix, got, end, err, want, p+len(wire))
			}
		}
	}
}

func TestReadIntErrors(t *testing.T) {
	tests := []struct {
		label  string
		hex    string
		p      int
		prefix uint8
		want   Error
	}{
		{"empty", "", 0, 5, Error{0, "block ends before an integer"}},
		{"past the end", "00 1f", 2, 5, Error{2, "block ends before an integer"}},
		{"no continuation", "1f", 0, 5, Error{0, "integer runs past the end of the block"}},
		{"continuation bit on the last octet", "00 1f 80", 1, 5, Error{1, "integer runs past the end of the block"}},
		{"2^64", "ff 81 fe ff ff ff ff ff ff ff 01", 0, 8, Error{0, "integer longer than 64 bits"}},
		{"bit 64 in the tenth octet", "ff 80 fe ff ff ff ff ff ff ff 02", 0, 8, Error{0, "integer longer than 64 bits"}},
		{"31 + 2^64-31", "1f e1 ff ff ff ff ff ff ff ff 01", 0, 5, Error{0, "integer longer than 64 bits"}},
		{"eleven continuation octets", "1f 80 80 80 80 80 80 80 80 80 80 00", 0, 5, Error{0, "integer longer than 64 bits"}},
	}
	for _, tt := range tests {
		_, _, err := ReadInt(fromHex(t, tt.hex), tt.p, tt.prefix)
		var got *Error
		if !errors.As(err, &got) || *got != tt.want {
			t.Errorf("%s: ReadInt(%s, %d, %d) error %v; want %+v", tt.label, tt.hex, tt.p, tt.prefix, err, tt.want)
		}
	}
	if got, want := (&Error{3, "why"}).Error(), "hpack: offset 3: why"; got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
}

func TestReadString(t *testing.T) {
	tests := []struct {
		label   string
		hex     string
		p       int
		huffman bool
		text    string
		padErr  string
	}{
		{"raw", "03 616263", 0, false, "abc", ""},
		{"empty raw", "00", 0, false, "", ""},
		{"empty Huffman", "80", 0, true, "", ""},
		{"after other octets", "ffff 01 78", 2, false, "x", ""},
		{"raw with the high bit in its octets", "02 ff80", 0, false, "\xff\x80", ""},
		{"Huffman", "8c f1e3c2e5f23a6ba0ab90f4ff", 0, true, "www.example.com", ""}, // RFC 7541 C.4.1
		{"Huffman padded with zeros", "81 18", 0, true, "a", "padding of 3 bits is not all ones (not a prefix of EOS)"},
		{"raw of 127 octets", "7f 00" + strings.Repeat("61", 127), 0, false, strings.Repeat("a", 127), ""},
	}
	for _, tt := range tests {
		block := fromHex(t, tt.hex)
		s, end, err := ReadString(block, tt.p)
		if err != nil {
			t.Errorf("%s: ReadString(%s, %d): %v", tt.label, tt.hex, tt.p, err)
			continue
		}
		if s.Huffman != tt.huffman || s.Text != tt.text || s.PadErr != tt.padErr {
			t.Errorf("%s: ReadString(%s, %d) = Huffman %t, %q, %q; want Huffman %t, %q, %q", tt.label, tt.hex, tt.p, s.Huffman, s.Text, s.PadErr, tt.huffman, tt.text, tt.padErr)
		}
		start := s.Length.Offset + s.Length.Octets
		if s.Length.Offset != tt.p || s.Length.Prefix != 7 || s.Encoded != int(s.Length.Value) || start+s.Encoded != len(block) || end != len(block) {
			t.Errorf("%s: ReadString(%s, %d) = length %+v, %d octets, ends at %d; want the length at %d with a 7-bit prefix and %d octets up to %d", tt.label, tt.hex, tt.p, s.Length, s.Encoded, end, tt.p, len(block)-start, len(block))
		}
	}
}

func TestReadStringErrors(t *testing.T) {
	tests := []struct {
		label string
		hex   string
		p     int
		want  Error
	}{
		{"missing", "82", 1, Error{1, "block ends before a string literal"}},
		{"raw past the end", "82 05 616263", 1, Error{1, "string of 5 octets runs past the end of the block (3 left)"}},
		{"Huffman past the end", "82 83 1f", 1, Error{1, "string of 3 octets runs past the end of the block (1 left)"}},
		{"length past the end", "7f", 0, Error{0, "integer runs past the end of the block"}},
		{"length past 2^64-1", "ff ff ff ff ff ff ff ff ff ff 7f", 0, Error{0, "integer longer than 64 bits"}},
	}
	for _, tt := range tests {
		s, _, err := ReadString(fromHex(t, tt.hex), tt.p)
		var got *Error
		if !errors.As(err, &got) || *got != tt.want || s != nil {
			t.Errorf("%s: ReadString(%s, %d) = %+v, error %v; want nil, %+v", tt.label, tt.hex, tt.p, s, err, tt.want)
		}
	}
}

// describe prints a representation for comparison: offset, kind, index
// (marked when not minimal), and the name and value literals, Huffman ones
// marked H, with their padding problem.
func describe(r Representation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d: %v %d", r.Offset, r.Kind, r.Index.Value)
	if !r.Index.Minimal {
		b.WriteString(" (not minimal)")
	}
	for _, lit := range []struct {
		what string
		s    *String
	}{{"name", r.Name}, {"value", r.Value}} {
		if lit.s == nil {
			continue
		}
		fmt.Fprintf(&b, " %s ", lit.what)
		if lit.s.Huffman {
			b.WriteString("H")
		}
		fmt.Fprintf(&b, "%q", lit.s.Text)
		if lit.s.PadErr != "" {
			fmt.Fprintf(&b, " [%s]", lit.s.PadErr)
		}
	}
	return b.String()
}

// prefixOf is the prefix of each kind's index (RFC 7541 §6).
var prefixOf = map[Kind]uint8{Indexed: 7, Incremental: 6, WithoutIndexing: 4, NeverIndexed: 4, SizeUpdate: 5}

// checkWalked checks what describe does not show: each index has its
// kind's prefix, and each literal's octets, found from its length as the
// String doc says, are Encoded octets that read back to the same text.
func checkWalked(t *testing.T, label string, block []byte, reps []Representation) {
	t.Helper()
	for i, r := range reps {
		if r.Index.Offset != r.Offset || r.Index.Prefix != prefixOf[r.Kind] {
			t.Errorf("%s: representation %d (%s): index at %d with a %d-bit prefix; want at %d with %d", label, i, describe(r), r.Index.Offset, r.Index.Prefix, r.Offset, prefixOf[r.Kind])
		}
		for _, s := range []*String{r.Name, r.Value} {
			if s == nil {
				continue
			}
			raw := block[s.Length.Offset+s.Length.Octets:][:s.Encoded]
			text := string(raw)
			if s.Huffman {
				text, _ = DecodeHuffman(raw)
			}
			if text != s.Text || s.Length.Prefix != 7 {
				t.Errorf("%s: representation %d (%s): string octets %x read %q, length prefix %d; want %q, 7", label, i, describe(r), raw, text, s.Length.Prefix, s.Text)
			}
		}
	}
}

func TestWalk(t *testing.T) {
	tests := []struct {
		label string
		hex   string
		want  []string // describe of each representation
		err   string   // the walk error, "" for none
	}{
		{"empty block", "", nil, ""},
		{"indexed at the 7-bit boundary", "fe ff00 ff01", []string{
			"0: indexed (§6.1) 126",
			"1: indexed (§6.1) 127",
			"3: indexed (§6.1) 128",
		}, ""},
		{"every kind", "3fe11f 82 41 03616263 40 0161 0162 0f02 03616263 00 0161 0162 10 0161 0162 1f00 0162", []string{
			"0: dynamic table size update (§6.3) 4096",
			"3: indexed (§6.1) 2",
			"4: literal with incremental indexing (§6.2.1) 1 value \"abc\"",
			"9: literal with incremental indexing (§6.2.1) 0 name \"a\" value \"b\"",
			"14: literal without indexing (§6.2.2) 17 value \"abc\"",
			"20: literal without indexing (§6.2.2) 0 name \"a\" value \"b\"",
			"25: literal never indexed (§6.2.3) 0 name \"a\" value \"b\"",
			"30: literal never indexed (§6.2.3) 15 value \"b\"",
		}, ""},
		{"largest one-octet name indexes", "7e 0161 0e 0161 1e 0161", []string{
			"0: literal with incremental indexing (§6.2.1) 62 value \"a\"",
			"3: literal without indexing (§6.2.2) 14 value \"a\"",
			"6: literal never indexed (§6.2.3) 14 value \"a\"",
		}, ""},
		{"index 0 and a late size update walk", "80 82 20", []string{
			"0: indexed (§6.1) 0",
			"1: indexed (§6.1) 2",
			"2: dynamic table size update (§6.3) 0",
		}, ""},
		{"not minimal", "3f8000 ff8000 7f8000 0161", []string{
			"0: dynamic table size update (§6.3) 31 (not minimal)",
			"3: indexed (§6.1) 127 (not minimal)",
			"6: literal with incremental indexing (§6.2.1) 63 (not minimal) value \"a\"",
		}, ""},
		{"Huffman name and value", "40 811f 811f", []string{
			"0: literal with incremental indexing (§6.2.1) 0 name H\"a\" value H\"a\"",
		}, ""},
		{"Huffman padding problems walk", "00 8118 82 1fff", []string{
			"0: literal without indexing (§6.2.2) 0 name H\"a\" [padding of 3 bits is not all ones (not a prefix of EOS)] value H\"a\" [11 bits of padding (at most 7 allowed)]",
		}, ""},
		{"EOS in a value", "10 0161 84 ffffffff", []string{
			"0: literal never indexed (§6.2.3) 0 name \"a\" value H\"\" [EOS symbol inside the string at octet 3]",
		}, ""},
		{"value missing", "82 40 03616263", []string{"0: indexed (§6.1) 2"}, "hpack: offset 6: block ends before a string literal"},
		{"name past the end", "82 40 056162", []string{"0: indexed (§6.1) 2"}, "hpack: offset 2: string of 5 octets runs past the end of the block (2 left)"},
		{"index past the end", "82 7f", []string{"0: indexed (§6.1) 2"}, "hpack: offset 1: integer runs past the end of the block"},
		{"size update past 2^64-1", "20 3f ffffffffffffffffff7f", []string{"0: dynamic table size update (§6.3) 0"}, "hpack: offset 1: integer longer than 64 bits"},
	}
	for _, tt := range tests {
		block := fromHex(t, tt.hex)
		reps, err := Walk(block)
		var got []string
		for _, r := range reps {
			got = append(got, describe(r))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: Walk(%s) =\n\t%s\nwant\n\t%s", tt.label, tt.hex, strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
		}
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
			if _, ok := err.(*Error); !ok {
				t.Errorf("%s: Walk error is a %T; want *Error", tt.label, err)
			}
		}
		if gotErr != tt.err {
			t.Errorf("%s: Walk error %q; want %q", tt.label, gotErr, tt.err)
		}
		checkWalked(t, tt.label, block, reps)
	}
}

// The representations of RFC 7541 C.3/C.4 (requests) and C.5/C.6
// (responses), one list a block, as "kind index"; the strings are
// checked against the header lists of package vectors.
var (
	appendixCRequests = [][]string{
		{"i 2", "i 6", "i 4", "+ 1"},
		{"i 2", "i 6", "i 4", "i 62", "+ 24"},
		{"i 2", "i 7", "i 5", "i 63", "+ 0"},
	}
	appendixCResponses = [][]string{
		{"+ 8", "+ 24", "+ 33", "+ 46"},
		{"+ 8", "i 65", "i 64", "i 63"},
		{"i 8", "i 65", "+ 33", "i 64", "+ 26", "+ 55"},
	}
	appendixCKinds = map[string]Kind{"i": Indexed, "+": Incremental, "-": WithoutIndexing, "!": NeverIndexed}
)

func TestWalkAppendixC(t *testing.T) {
	type block struct {
		section string
		wire    []byte
		huffman bool
		headers []vectors.Field
		want    []string
	}
	blocks := []block{
		{"C.2.1", nil, false, nil, []string{"+ 0"}},
		{"C.2.2", nil, false, nil, []string{"- 4"}},
		{"C.2.3", nil, false, nil, []string{"! 0"}},
		{"C.2.4", nil, false, nil, []string{"i 2"}},
	}
	fields := vectors.FieldExamples()
	if len(fields) != 4 {
		t.Fatalf("vectors.FieldExamples() has %d examples; want C.2.1 to C.2.4", len(fields))
	}
	for i, f := range fields {
		blocks[i].section, blocks[i].wire, blocks[i].headers = f.Section, f.Wire, []vectors.Field{f.Field}
	}
	for _, seq := range vectors.RFCAppendixC() {
		want := appendixCRequests
		if seq.TableSize == 256 {
			want = appendixCResponses
		}
		for i, step := range seq.Steps {
			blocks = append(blocks, block{step.Section, step.Wire, seq.Huffman, step.Headers, want[i]})
		}
	}
	if len(blocks) != 4+4*3 {
		t.Fatalf("%d blocks of Appendix C; want 16 (C.2.1-C.2.4, C.3.1-C.6.3)", len(blocks))
	}
	for _, b := range blocks {
		reps, err := Walk(b.wire)
		if err != nil {
			t.Errorf("%s: Walk: %v", b.section, err)
			continue
		}
		checkWalked(t, b.section, b.wire, reps)
		if len(reps) != len(b.want) || len(reps) != len(b.headers) {
			t.Errorf("%s: %d representations; want %d, one a header of %v", b.section, len(reps), len(b.want), b.headers)
			continue
		}
		for i, r := range reps {
			var sym string
			var index uint64
			fmt.Sscanf(b.want[i], "%s %d", &sym, &index)
			h := b.headers[i]
			switch {
			case r.Kind != appendixCKinds[sym] || r.Index.Value != index || !r.Index.Minimal:
				t.Errorf("%s: representation %d is %s; want %s %d, minimal", b.section, i, describe(r), appendixCKinds[sym], index)
			case r.Kind == Indexed && (r.Name != nil || r.Value != nil):
				t.Errorf("%s: indexed representation %d has literals: %s", b.section, i, describe(r))
			case r.Kind != Indexed && (r.Value == nil || r.Value.Text != h.Value || r.Value.Huffman != b.huffman || r.Value.PadErr != ""):
				t.Errorf("%s: representation %d is %s; want the value %q, Huffman %t, well formed", b.section, i, describe(r), h.Value, b.huffman)
			case r.Kind != Indexed && (r.Name != nil) != (index == 0):
				t.Errorf("%s: representation %d is %s; want a literal name exactly when the name index is 0", b.section, i, describe(r))
			case r.Name != nil && (r.Name.Text != h.Name || r.Name.Huffman != b.huffman || r.Name.PadErr != ""):
				t.Errorf("%s: representation %d is %s; want the name %q, Huffman %t, well formed", b.section, i, describe(r), h.Name, b.huffman)
			case r.Value != nil && r.Value.Huffman && r.Value.Encoded != HuffmanLen(h.Value):
				t.Errorf("%s: representation %d: value Huffman-coded in %d octets; HuffmanLen says %d", b.section, i, r.Value.Encoded, HuffmanLen(h.Value))
			}
		}
	}
}

// TestWalkLimit checks that WalkLimit reads at most its limit of
// representations and says where it stopped.
func TestWalkLimit(t *testing.T) {
	block := []byte{0x82, 0x86, 0x84, 0x20, 0x82} // four fields and a size update between them
	tests := []struct {
		max     int
		reps    int
		errText string
	}{
		{0, 5, ""},
		{5, 5, ""},
		{4, 4, "offset 4: more than 4 representations"},
		{1, 1, "offset 1: more than 1 representations"},
	}
	for _, tt := range tests {
		reps, err := WalkLimit(block, tt.max)
		if len(reps) != tt.reps {
			t.Errorf("WalkLimit(%x, %d): %d representations; want %d", block, tt.max, len(reps), tt.reps)
		}
		if tt.errText == "" && err != nil || tt.errText != "" && (err == nil || !strings.Contains(err.Error(), tt.errText)) {
			t.Errorf("WalkLimit(%x, %d) error %v; want %q", block, tt.max, err, tt.errText)
		}
	}
}
