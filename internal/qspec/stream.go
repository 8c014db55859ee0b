package qspec

import "errors"

// Instruction is one encoder-stream (§4.3) or decoder-stream (§4.4)
// instruction as it stood on the wire.
type Instruction struct {
	// Kind is SetCapacity, InsertNameRef, InsertLiteralName or Duplicate
	// on the encoder stream; SectionAck, StreamCancel or
	// InsertCountIncrement on the decoder stream.
	Kind Kind
	// Offset is the offset of the instruction's first octet in the
	// octets read.
	Offset int
	// Static is the T bit of an InsertNameRef: Value is a static index.
	Static bool
	// Value is the instruction's integer: the capacity, the (relative or
	// static) name index, the relative index of a Duplicate, the stream
	// ID or the increment. It is 0 for an InsertLiteralName.
	Value uint64
	// Name is the literal name of an InsertLiteralName.
	Name String
	// FieldValue is the value of an InsertNameRef or InsertLiteralName.
	FieldValue String
}

// ReadEncoderInstruction reads the encoder-stream instruction (§4.3) whose
// first octet is stream[p] and returns it with the offset after it. When
// stream ends inside the instruction it returns ErrIncomplete: the caller
// keeps the octets from p on and calls again once more have arrived; it
// also bounds how many it keeps, since a string length of up to 2^62-1
// reads as incomplete until that many octets arrive. An integer above 2^62-1 or a malformed Huffman code is an *Error, which
// the RFC makes a QPACK_ENCODER_STREAM_ERROR.
func ReadEncoderInstruction(stream []byte, p int) (Instruction, int, error) {
	if p >= len(stream) {
		return Instruction{}, p, ErrIncomplete
	}
	b := stream[p]
	in := Instruction{Offset: p}
	next := p
	var err error
	switch {
	case b&0x80 != 0:
		in.Kind, in.Static = InsertNameRef, b&0x40 != 0
		if in.Value, next, err = readInt(stream, next, 6, "§4.3.2"); err == nil {
			in.FieldValue, next, err = readString(stream, next, 7, "§4.3.2")
		}
	case b&0xc0 == 0x40:
		in.Kind = InsertLiteralName
		if in.Name, next, err = readString(stream, next, 5, "§4.3.3"); err == nil {
			in.FieldValue, next, err = readString(stream, next, 7, "§4.3.3")
		}
	case b&0xe0 == 0x20:
		in.Kind = SetCapacity
		in.Value, next, err = readInt(stream, next, 5, "§4.3.1")
	default:
		in.Kind = Duplicate
		in.Value, next, err = readInt(stream, next, 5, "§4.3.4")
	}
	return finish(in, p, next, err)
}

// ReadDecoderInstruction reads the decoder-stream instruction (§4.4)
// whose first octet is stream[p] and returns it with the offset after it.
// When stream ends inside the instruction it returns ErrIncomplete, as
// ReadEncoderInstruction does. An integer above 2^62-1 and an Insert
// Count Increment of 0 are *Error values, which the RFC makes a
// QPACK_DECODER_STREAM_ERROR.
func ReadDecoderInstruction(stream []byte, p int) (Instruction, int, error) {
	if p >= len(stream) {
		return Instruction{}, p, ErrIncomplete
	}
	b := stream[p]
	in := Instruction{Offset: p}
	var next int
	var err error
	switch {
	case b&0x80 != 0:
		in.Kind = SectionAck
		in.Value, next, err = readInt(stream, p, 7, "§4.4.1")
	case b&0xc0 == 0x40:
		in.Kind = StreamCancel
		in.Value, next, err = readInt(stream, p, 6, "§4.4.2")
	default:
		in.Kind = InsertCountIncrement
		in.Value, next, err = readInt(stream, p, 6, "§4.4.3")
		if err == nil && in.Value == 0 {
			err = &Error{Offset: p, Section: "§4.4.3", Reason: "Insert Count Increment of 0"}
		}
	}
	return finish(in, p, next, err)
}

// finish returns a read instruction, turning an *Error for input cut
// short into ErrIncomplete and leaving the offset at the instruction's
// start on any error.
func finish(in Instruction, p, next int, err error) (Instruction, int, error) {
	if err == nil {
		return in, next, nil
	}
	var e *Error
	if errors.As(err, &e) && e.truncated {
		return Instruction{}, p, ErrIncomplete
	}
	return in, p, err
}
