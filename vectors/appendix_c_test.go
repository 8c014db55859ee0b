package vectors

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// xnetDecoder wraps x/net's decoder, an implementation independent of the
// transcription, with a way to read its dynamic table.
type xnetDecoder struct {
	*hpack.Decoder
}

func newXNetDecoder(tableSize uint32) xnetDecoder {
	return xnetDecoder{hpack.NewDecoder(tableSize, nil)}
}

func (d xnetDecoder) decode(t *testing.T, label string, wire []byte) []hpack.HeaderField {
	t.Helper()
	fields, err := d.DecodeFull(wire)
	if err != nil {
		t.Fatalf("%s: x/net cannot decode % x: %v", label, wire, err)
	}
	return fields
}

// table reads the dynamic table by decoding "Indexed Header Field"
// representations of indices 62, 63, ... (RFC 7541 §2.3.3, §6.1), which do
// not change the table, until x/net rejects one as out of range.
func (d xnetDecoder) table(t *testing.T, label string) []Field {
	t.Helper()
	var table []Field
	for index := 62; ; index++ {
		if index > 62+4096/32 {
			t.Fatalf("%s: x/net accepts index %d, more entries than a 4096-octet table holds", label, index)
		}
		fields, err := d.DecodeFull(appendIndexed(nil, index))
		if err != nil {
			return table
		}
		table = append(table, Field{Name: fields[0].Name, Value: fields[0].Value})
	}
}

// appendIndexed appends an "Indexed Header Field" representation (§6.1):
// a 7-bit prefix integer (§5.1) after a 1 bit.
func appendIndexed(dst []byte, index int) []byte {
	if index < 127 {
		return append(dst, 0x80|byte(index))
	}
	dst = append(dst, 0xff)
	for index -= 127; index >= 128; index >>= 7 {
		dst = append(dst, byte(index%128)|0x80)
	}
	return append(dst, byte(index))
}

func fromXNet(fields []hpack.HeaderField) []Field {
	out := make([]Field, len(fields))
	for i, f := range fields {
		out[i] = Field{Name: f.Name, Value: f.Value}
	}
	return out
}

func tableSize(table []Field) uint32 {
	var size uint32
	for _, f := range table {
		size += uint32(len(f.Name)+len(f.Value)) + 32
	}
	return size
}

func TestAppendixCSequencesDecodeWithXNet(t *testing.T) {
	sequences := RFCAppendixC()
	if got := len(sequences); got != 4 {
		t.Fatalf("RFCAppendixC returned %d sequences; want 4 (C.3-C.6)", got)
	}
	for _, seq := range sequences {
		if len(seq.Steps) != 3 {
			t.Errorf("%s: %d steps; want 3", seq.Section, len(seq.Steps))
		}
		dec := newXNetDecoder(seq.TableSize)
		for _, step := range seq.Steps {
			got := fromXNet(dec.decode(t, step.Section, step.Wire))
			if !slices.Equal(got, step.Headers) {
				t.Errorf("%s: x/net decodes %v; want %v", step.Section, got, step.Headers)
			}
			if table := dec.table(t, step.Section); !slices.Equal(table, step.Table) {
				t.Errorf("%s: x/net's table after decoding is %v; want %v", step.Section, table, step.Table)
			}
			if got := tableSize(step.Table); got != step.TableSize {
				t.Errorf("%s: entries add up to %d octets; TableSize says %d", step.Section, got, step.TableSize)
			}
			if step.TableSize > seq.TableSize {
				t.Errorf("%s: table size %d exceeds the maximum %d", step.Section, step.TableSize, seq.TableSize)
			}
		}
	}
}

// TestAppendixCHuffmanFlag checks each sequence's Huffman flag against the
// wire: every string literal has the H bit (RFC 7541 §5.2) iff Huffman is set.
func TestAppendixCHuffmanFlag(t *testing.T) {
	for _, seq := range RFCAppendixC() {
		for _, step := range seq.Steps {
			flags, err := literalHuffmanBits(step.Wire)
			if err != nil {
				t.Fatalf("%s: %v", step.Section, err)
			}
			if len(flags) == 0 {
				t.Errorf("%s: no string literal on the wire", step.Section)
			}
			for i, h := range flags {
				if h != seq.Huffman {
					t.Errorf("%s: string literal %d has H = %v; the sequence's Huffman is %v", step.Section, i, h, seq.Huffman)
				}
			}
		}
	}
}

// literalHuffmanBits walks the representations of a header block (§6) and
// returns the H bit of every string literal in it, in order.
func literalHuffmanBits(wire []byte) ([]bool, error) {
	var flags []bool
	pos := 0
	readInt := func(prefixBits uint) (uint64, error) {
		if pos >= len(wire) {
			return 0, fmt.Errorf("offset %d: truncated integer", pos)
		}
		max := uint64(1)<<prefixBits - 1
		v := uint64(wire[pos]) & max
		pos++
		if v < max {
			return v, nil
		}
		for shift := uint(0); shift < 63; shift += 7 {
			if pos >= len(wire) {
				return 0, fmt.Errorf("offset %d: truncated integer", pos)
			}
			b := wire[pos]
			pos++
			v += uint64(b&0x7f) << shift
			if b&0x80 == 0 {
				return v, nil
			}
		}
		return 0, fmt.Errorf("offset %d: integer overflow", pos)
	}
	readString := func() error {
		if pos >= len(wire) {
			return fmt.Errorf("offset %d: truncated string", pos)
		}
		flags = append(flags, wire[pos]&0x80 != 0)
		n, err := readInt(7)
		if err != nil {
			return err
		}
		if n > uint64(len(wire)-pos) {
			return fmt.Errorf("offset %d: string of %d octets past the end", pos, n)
		}
		pos += int(n)
		return nil
	}
	for pos < len(wire) {
		b := wire[pos]
		var prefixBits uint
		switch {
		case b&0x80 != 0: // Indexed Header Field (§6.1)
			if _, err := readInt(7); err != nil {
				return nil, err
			}
			continue
		case b&0xc0 == 0x40: // Literal with Incremental Indexing (§6.2.1)
			prefixBits = 6
		case b&0xe0 == 0x20: // Dynamic Table Size Update (§6.3)
			if _, err := readInt(5); err != nil {
				return nil, err
			}
			continue
		default: // Literal without Indexing or Never Indexed (§6.2.2, §6.2.3)
			prefixBits = 4
		}
		index, err := readInt(prefixBits)
		if err != nil {
			return nil, err
		}
		if index == 0 {
			if err := readString(); err != nil {
				return nil, err
			}
		}
		if err := readString(); err != nil {
			return nil, err
		}
	}
	return flags, nil
}

func TestAppendixCFieldsDecodeWithXNet(t *testing.T) {
	examples := FieldExamples()
	if got := len(examples); got != 4 {
		t.Fatalf("FieldExamples returned %d examples; want 4 (C.2.1-C.2.4)", got)
	}
	for _, ex := range examples {
		dec := newXNetDecoder(4096)
		fields := dec.decode(t, ex.Section, ex.Wire)
		if len(fields) != 1 {
			t.Fatalf("%s: x/net decodes %d fields; want 1", ex.Section, len(fields))
		}
		if got := (Field{Name: fields[0].Name, Value: fields[0].Value}); got != ex.Field {
			t.Errorf("%s: x/net decodes %v; want %v", ex.Section, got, ex.Field)
		}
		if fields[0].Sensitive != ex.NeverIndexed {
			t.Errorf("%s: x/net reports never-indexed %v; want %v", ex.Section, fields[0].Sensitive, ex.NeverIndexed)
		}
		if table := dec.table(t, ex.Section); !slices.Equal(table, ex.Table) {
			t.Errorf("%s: x/net's table is %v; want %v", ex.Section, table, ex.Table)
		}
		if got := tableSize(ex.Table); got != ex.TableSize {
			t.Errorf("%s: entries add up to %d octets; TableSize says %d", ex.Section, got, ex.TableSize)
		}
	}
}

// TestAppendixCIntegers decodes each C.1 example with the algorithm of
// RFC 7541 §5.1 and checks the encoding is the minimal one.
func TestAppendixCIntegers(t *testing.T) {
	examples := IntegerExamples()
	if got := len(examples); got != 3 {
		t.Fatalf("IntegerExamples returned %d examples; want 3 (C.1.1-C.1.3)", got)
	}
	for _, ex := range examples {
		max := uint64(1)<<ex.PrefixBits - 1
		value := uint64(ex.Wire[0]) & max
		used := 1
		if value == max {
			for shift := 0; ; shift += 7 {
				if used == len(ex.Wire) {
					t.Fatalf("%s: truncated integer % x", ex.Section, ex.Wire)
				}
				b := ex.Wire[used]
				used++
				value += uint64(b&0x7f) << shift
				if b&0x80 == 0 {
					break
				}
			}
		}
		if value != ex.Value || used != len(ex.Wire) {
			t.Errorf("%s: % x decodes to %d using %d octets; want %d using all %d", ex.Section, ex.Wire, value, used, ex.Value, len(ex.Wire))
		}
		if ex.Wire[0]&^byte(max) != 0 {
			t.Errorf("%s: bits above the %d-bit prefix are set in %#x", ex.Section, ex.PrefixBits, ex.Wire[0])
		}
		if used > 1 && ex.Wire[used-1] == 0 {
			t.Errorf("%s: % x ends in a zero continuation octet (not minimal)", ex.Section, ex.Wire)
		}
	}
}

func TestAppendixCReturnsFreshSlices(t *testing.T) {
	first := RFCAppendixC()
	first[0].Steps[0].Wire[0] ^= 0xff
	first[0].Steps[0].Headers[0].Name = "mutated"
	first[2].Steps[0].Table[0].Value = "mutated"
	second := RFCAppendixC()
	if second[0].Steps[0].Wire[0] != 0x82 || second[0].Steps[0].Headers[0].Name != ":method" || second[2].Steps[0].Table[0].Value != "https://www.example.com" {
		t.Errorf("a caller's change to one RFCAppendixC result shows in the next")
	}
}
