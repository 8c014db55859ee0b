package qspec

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/quic-go/qpack"
)

// appendString appends s as a string literal (§4.1.2) whose length has an
// N-bit prefix, Huffman-coded when huffman is set, the bits above the H
// bit taken from pattern.
func appendString(dst []byte, pattern byte, prefix uint8, s string, huffman bool) []byte {
	if !huffman {
		return append(encoder.AppendInteger(dst, pattern, prefix, uint64(len(s))), s...)
	}
	dst = encoder.AppendInteger(dst, pattern|1<<prefix, prefix, uint64(encoder.HuffmanLen([]byte(s))))
	return encoder.AppendHuffmanString(dst, s)
}

// lineSummary is what a test compares of a Line: its parts, without the
// raw octets.
type lineSummary struct {
	Kind                 Kind
	Offset               int
	Static, NeverIndexed bool
	Index                uint64
	Name, Value          string
	NameHuff, ValueHuff  bool
}

func summarizeAll(lines []Line) []lineSummary {
	out := make([]lineSummary, len(lines))
	for i, l := range lines {
		out[i] = lineSummary{l.Kind, l.Offset, l.Static, l.NeverIndexed, l.Index, l.Name.Text, l.Value.Text, l.Name.Huffman, l.Value.Huffman}
	}
	return out
}

func TestWalkSectionEveryRepresentation(t *testing.T) {
	long := strings.Repeat("v", 200) // a length past every prefix
	s := []byte{0x00, 0x00}
	var want []lineSummary
	add := func(w lineSummary, b []byte) {
		w.Offset = len(s)
		want = append(want, w)
		s = append(s, b...)
	}
	add(lineSummary{Kind: Indexed, Static: true, Index: 17}, encoder.AppendInteger(nil, 0xc0, 6, 17))
	add(lineSummary{Kind: Indexed, Index: 70}, encoder.AppendInteger(nil, 0x80, 6, 70))
	add(lineSummary{Kind: IndexedPostBase, Index: 3}, encoder.AppendInteger(nil, 0x10, 4, 3))
	add(lineSummary{Kind: LiteralNameRef, Static: true, Index: 1, Value: "/a"}, appendString(encoder.AppendInteger(nil, 0x50, 4, 1), 0, 7, "/a", false))
	add(lineSummary{Kind: LiteralNameRef, NeverIndexed: true, Index: 20, Value: long, ValueHuff: true}, appendString(encoder.AppendInteger(nil, 0x60, 4, 20), 0, 7, long, true))
	add(lineSummary{Kind: LiteralPostBaseRef, NeverIndexed: true, Index: 9, Value: "x"}, appendString(encoder.AppendInteger(nil, 0x08, 3, 9), 0, 7, "x", false))
	add(lineSummary{Kind: LiteralPostBaseRef, Index: 0, Value: ""}, appendString(encoder.AppendInteger(nil, 0x00, 3, 0), 0, 7, "", false))
	add(lineSummary{Kind: LiteralName, NeverIndexed: true, Name: "secret", Value: "s3", NameHuff: true}, appendString(appendString(nil, 0x30, 3, "secret", true), 0, 7, "s3", false))
	add(lineSummary{Kind: LiteralName, Name: long, Value: "y", ValueHuff: true}, appendString(appendString(nil, 0x20, 3, long, false), 0, 7, "y", true))

	_, lines, err := WalkSection(s, 100)
	if err != nil {
		t.Fatal(err)
	}
	wantSame(t, "every representation", summarizeAll(lines), want)
}

// TestWalkSectionAppendixB walks the field sections of RFC 9204 Appendix
// B.1 and B.2, the two examples reconstructed here with certainty; B.3 to
// B.5 are left out.
func TestWalkSectionAppendixB(t *testing.T) {
	tests := []struct {
		label               string
		hex                 string
		maxEntries, inserts uint64
		wantRIC, wantBase   uint64
		want                []lineSummary
	}{
		{"B.1 literal field line with name reference", "0000510b2f696e6465782e68746d6c", 0, 0, 0, 0,
			[]lineSummary{{Kind: LiteralNameRef, Offset: 2, Static: true, Index: 1, Value: "/index.html"}}},
		{"B.2 post-base indices after two inserts", "03811011", 6, 2, 2, 0,
			[]lineSummary{{Kind: IndexedPostBase, Offset: 2}, {Kind: IndexedPostBase, Offset: 3, Index: 1}}},
	}
	for _, tt := range tests {
		section, _ := hex.DecodeString(tt.hex)
		pf, lines, err := WalkSection(section, 10)
		if err != nil {
			t.Fatalf("%s: %v", tt.label, err)
		}
		ric, err := pf.RequiredInsertCount(tt.maxEntries, tt.inserts)
		if err != nil || ric != tt.wantRIC {
			t.Errorf("%s: Required Insert Count %d, %v; want %d", tt.label, ric, err, tt.wantRIC)
		}
		if base, err := pf.Base(ric); err != nil || base != tt.wantBase {
			t.Errorf("%s: Base %d, %v; want %d", tt.label, base, err, tt.wantBase)
		}
		wantSame(t, tt.label, summarizeAll(lines), tt.want)
	}
}

// TestWalkSectionQuicGo walks what quic-go/qpack's encoder writes (indexed
// static lines, literals with a static name reference, literal names,
// all Huffman-coded) and resolves it against StaticTable.
func TestWalkSectionQuicGo(t *testing.T) {
	fields := []qpack.HeaderField{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/index.html"},
		{Name: "content-type", Value: "text/plain"},
		{Name: "x-custom", Value: strings.Repeat("header value ", 20)},
		{Name: "cookie", Value: ""},
	}
	var buf bytes.Buffer
	enc := qpack.NewEncoder(&buf)
	for _, f := range fields {
		if err := enc.WriteField(f); err != nil {
			t.Fatal(err)
		}
	}
	_, lines, err := WalkSection(buf.Bytes(), 100)
	if err != nil {
		t.Fatalf("walking %x: %v", buf.Bytes(), err)
	}
	if len(lines) != len(fields) {
		t.Fatalf("%d lines; want %d", len(lines), len(fields))
	}
	for i, l := range lines {
		var got qpack.HeaderField
		switch {
		case l.Kind == Indexed && l.Static && l.Index < StaticTableLen:
			got = qpack.HeaderField{Name: StaticTable[l.Index].Name, Value: StaticTable[l.Index].Value}
		case l.Kind == LiteralNameRef && l.Static && l.Index < StaticTableLen:
			got = qpack.HeaderField{Name: StaticTable[l.Index].Name, Value: l.Value.Text}
		case l.Kind == LiteralName:
			got = qpack.HeaderField{Name: l.Name.Text, Value: l.Value.Text}
		default:
			t.Fatalf("line %d: %v with index %d, static %v: quic-go writes only static references", i, l.Kind, l.Index, l.Static)
		}
		if got != fields[i] {
			t.Errorf("line %d (%v): %q: %q; want %q: %q", i, l.Kind, got.Name, got.Value, fields[i].Name, fields[i].Value)
		}
	}
}

func TestWalkSectionErrors(t *testing.T) {
	tests := []struct {
		label   string
		hex     string
		offset  int
		section string
	}{
		{"indexed line cut in its index", "0000ff", 2, "§4.5.2"},
		{"post-base index above 2^62-1", "00001f80808080808080808040", 2, "§4.5.3"},
		{"literal with name reference and no value", "000051", 3, "§4.5.4"},
		{"value longer than the section", "0000510b2f", 3, "§4.5.4"},
		{"post-base name reference cut", "00000f", 2, "§4.5.5"},
		{"literal name longer than the section", "0000230102", 2, "§4.5.6"},
		{"literal name without its value", "000023616263", 6, "§4.5.6"},
		// A Huffman-coded value of one octet 0x00: "0" (5 bits) then
		// padding of three zero bits, which is not a prefix of EOS.
		{"Huffman padding of zeros", "00005181 00", 4, "§4.1.2"},
		{"Huffman EOS inside the string", "00005184ffffffff", 4, "§4.1.2"},
	}
	for _, tt := range tests {
		section, err := hex.DecodeString(strings.ReplaceAll(tt.hex, " ", ""))
		if err != nil {
			t.Fatalf("%s: %v", tt.label, err)
		}
		_, _, err = WalkSection(section, 10)
		wantError(t, tt.label, err, tt.offset, tt.section)
	}
	if _, lines, err := WalkSection([]byte{0, 0, 0xc1, 0xc1, 0xc1}, 2); len(lines) != 2 {
		t.Errorf("WalkSection limited to 2 lines: %d lines, %v", len(lines), err)
	} else {
		wantError(t, "a line past the limit", err, 4, "§4.5")
	}
}
