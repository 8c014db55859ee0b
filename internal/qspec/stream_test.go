package qspec

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

// instructionSummary is what a test compares of an Instruction.
type instructionSummary struct {
	Kind             Kind
	Offset           int
	Static           bool
	Value            uint64
	Name, FieldValue string
}

func summarizeInstruction(in Instruction) instructionSummary {
	return instructionSummary{in.Kind, in.Offset, in.Static, in.Value, in.Name.Text, in.FieldValue.Text}
}

// readAll reads instructions from stream with read until it ends or
// fails, returning them and the offset and error it stopped at.
func readAll(stream []byte, read func([]byte, int) (Instruction, int, error)) ([]instructionSummary, int, error) {
	var got []instructionSummary
	p := 0
	for p < len(stream) {
		in, next, err := read(stream, p)
		if err != nil {
			return got, p, err
		}
		got = append(got, summarizeInstruction(in))
		p = next
	}
	return got, p, nil
}

// encoderStream is an encoder stream holding every instruction of §4.3:
// the instructions of Appendix B.2, then one of each other kind.
func encoderStream() ([]byte, []instructionSummary) {
	stream, _ := hex.DecodeString("3fbd01" + "c00f7777772e6578616d706c652e636f6d" + "c10c2f73616d706c652f70617468")
	want := []instructionSummary{
		{Kind: SetCapacity, Value: 220},
		{Kind: InsertNameRef, Offset: 3, Static: true, Value: 0, FieldValue: "www.example.com"},
		{Kind: InsertNameRef, Offset: 20, Static: true, Value: 1, FieldValue: "/sample/path"},
	}
	add := func(w instructionSummary, b []byte) {
		w.Offset = len(stream)
		want = append(want, w)
		stream = append(stream, b...)
	}
	long := strings.Repeat("n", 40)
	add(instructionSummary{Kind: InsertNameRef, Value: 100, FieldValue: "v"}, appendString(encoder.AppendInteger(nil, 0x80, 6, 100), 0, 7, "v", true))
	add(instructionSummary{Kind: InsertLiteralName, Name: long, FieldValue: "custom-value"}, appendString(appendString(nil, 0x40, 5, long, true), 0, 7, "custom-value", false))
	add(instructionSummary{Kind: Duplicate, Value: 2}, encoder.AppendInteger(nil, 0x00, 5, 2))
	add(instructionSummary{Kind: Duplicate, Value: 1000}, encoder.AppendInteger(nil, 0x00, 5, 1000))
	return stream, want
}

func TestReadEncoderInstruction(t *testing.T) {
	stream, want := encoderStream()
	got, _, err := readAll(stream, ReadEncoderInstruction)
	if err != nil {
		t.Fatal(err)
	}
	wantSame(t, "encoder stream", got, want)
}

// TestStreamsIncremental cuts each stream at every offset: the first piece
// must read up to the instruction the cut falls in and report
// ErrIncomplete there, never an error, and reading on from that offset
// over the whole stream must give the rest.
func TestStreamsIncremental(t *testing.T) {
	decoderStream := encoder.AppendInteger(nil, 0x80, 7, 4)
	decoderStream = encoder.AppendInteger(decoderStream, 0x40, 6, 1<<40)
	decoderStream = encoder.AppendInteger(decoderStream, 0x00, 6, 63)
	encStream, _ := encoderStream()
	streams := []struct {
		label  string
		stream []byte
		read   func([]byte, int) (Instruction, int, error)
	}{
		{"encoder stream", encStream, ReadEncoderInstruction},
		{"decoder stream", decoderStream, ReadDecoderInstruction},
	}
	for _, s := range streams {
		whole, _, err := readAll(s.stream, s.read)
		if err != nil {
			t.Fatalf("%s: %v", s.label, err)
		}
		for cut := 0; cut < len(s.stream); cut++ {
			first, p, err := readAll(s.stream[:cut], s.read)
			if err != nil && !errors.Is(err, ErrIncomplete) {
				t.Fatalf("%s cut at %d: %v at offset %d; want ErrIncomplete", s.label, cut, err, p)
			}
			rest, _, err := readAll(s.stream[p:], s.read)
			if err != nil {
				t.Fatalf("%s cut at %d, read on from %d: %v", s.label, cut, p, err)
			}
			if len(first)+len(rest) != len(whole) {
				t.Fatalf("%s cut at %d: %d + %d instructions; want %d", s.label, cut, len(first), len(rest), len(whole))
			}
			for i, in := range rest {
				in.Offset += p
				if in != whole[len(first)+i] {
					t.Errorf("%s cut at %d: instruction %d: %+v; want %+v", s.label, cut, len(first)+i, in, whole[len(first)+i])
				}
			}
		}
	}
}

func TestReadDecoderInstruction(t *testing.T) {
	stream, _ := hex.DecodeString("84" + "41" + "3f01" + "ff80")
	want := []instructionSummary{
		{Kind: SectionAck, Value: 4},
		{Kind: StreamCancel, Offset: 1, Value: 1},
		{Kind: InsertCountIncrement, Offset: 2, Value: 64},
	}
	got, p, err := readAll(stream, ReadDecoderInstruction)
	if !errors.Is(err, ErrIncomplete) || p != 4 {
		t.Errorf("stream ending in a cut Section Acknowledgment: stopped at %d with %v; want ErrIncomplete at 4", p, err)
	}
	wantSame(t, "decoder stream", got, want)
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		label   string
		decoder bool
		hex     string
		offset  int
		section string
	}{
		{"capacity above 2^62-1", false, "3f 80808080808080808040", 0, "§4.3.1"},
		{"capacity longer than 64 bits", false, "3f 8080808080808080808001", 0, "§4.3.1"},
		{"name index above 2^62-1", false, "ff 80808080808080808040 00", 0, "§4.3.2"},
		{"Huffman value padded with zeros", false, "c1 81 00", 2, "§4.1.2"},
		{"Huffman literal name padded with zeros", false, "61 00 00", 1, "§4.1.2"},
		{"duplicate index above 2^62-1", false, "1f 80808080808080808040", 0, "§4.3.4"},
		{"Insert Count Increment of 0", true, "84 00", 1, "§4.4.3"},
		{"stream ID above 2^62-1", true, "ff 80808080808080808040", 0, "§4.4.1"},
		{"cancelled stream ID above 2^62-1", true, "7f 80808080808080808040", 0, "§4.4.2"},
	}
	for _, tt := range tests {
		stream, err := hex.DecodeString(strings.ReplaceAll(tt.hex, " ", ""))
		if err != nil {
			t.Fatalf("%s: %v", tt.label, err)
		}
		read := ReadEncoderInstruction
		if tt.decoder {
			read = ReadDecoderInstruction
		}
		_, _, err = readAll(stream, read)
		wantError(t, tt.label, err, tt.offset, tt.section)
	}
}
