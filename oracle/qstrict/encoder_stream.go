package qstrict

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// tailTooLong reports whether an incomplete instruction of n octets can
// only insert an entry larger than SETTINGS_QPACK_MAX_TABLE_CAPACITY, which
// bounds what the decoder keeps. An instruction is at most three integers
// of 11 octets and two strings; a Huffman code is at most 30 bits a
// character, so strings of more than 4*capacity octets decode to more than
// capacity characters, an entry too large for the table (§3.2.2). It
// divides rather than multiplies so that no capacity up to 2^62-1
// overflows.
func (d *Decoder) tailTooLong(n uint64) bool {
	return n > 3*11 && (n-3*11)/4 > d.settings.MaxTableCapacity
}

// EncoderStream feeds the next octets of the encoder stream (§4.3). An
// instruction cut by the end of data is kept until the rest arrives. Each
// insertion may unblock sections: they are decoded at once and returned by
// Unblocked; an error in one of them is returned here.
func (d *Decoder) EncoderStream(data []byte) error {
	if d.err != nil {
		return ErrBroken
	}
	d.pending = append(d.pending, data...)
	p := 0
	for p < len(d.pending) {
		in, next, err := qspec.ReadEncoderInstruction(d.pending, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			break
		}
		if err != nil {
			return d.fail(wrap(err, EncoderStreamError, encoderStream, 0, d.consumed))
		}
		if err := d.apply(in); err != nil {
			return d.fail(err)
		}
		p = next
		if in.Kind != qspec.SetCapacity {
			if err := d.unblock(); err != nil {
				return err
			}
		}
	}
	d.consumed += p
	d.pending = append(d.pending[:0], d.pending[p:]...)
	if tail := uint64(len(d.pending)); d.tailTooLong(tail) {
		return d.fail(&Error{Code: EncoderStreamError, Stream: encoderStream, Offset: d.consumed, Section: "§3.2.2",
			Reason: fmt.Sprintf("an instruction still incomplete after %d octets can only insert an entry larger than SETTINGS_QPACK_MAX_TABLE_CAPACITY %d", tail, d.settings.MaxTableCapacity)})
	}
	return nil
}

// apply carries out one encoder instruction on the table.
func (d *Decoder) apply(in qspec.Instruction) *Error {
	at := d.consumed + in.Offset
	bad := func(section, reason string) *Error {
		return &Error{Code: EncoderStreamError, Stream: encoderStream, Offset: at, Section: section, Reason: reason}
	}
	var f spec.Field
	switch in.Kind {
	case qspec.SetCapacity:
		if in.Value > d.settings.MaxTableCapacity {
			return bad("§4.3.1", fmt.Sprintf("capacity %d is above SETTINGS_QPACK_MAX_TABLE_CAPACITY %d", in.Value, d.settings.MaxTableCapacity))
		}
		d.table.capacity = in.Value
		d.table.evictTo(0)
		return nil
	case qspec.InsertNameRef:
		name, e := d.encoderRef(in, "§4.3.2", bad)
		if e != nil {
			return e
		}
		f = spec.Field{Name: name.Name, Value: in.FieldValue.Text}
	case qspec.InsertLiteralName:
		f = spec.Field{Name: in.Name.Text, Value: in.FieldValue.Text}
	case qspec.Duplicate:
		var e *Error
		if f, e = d.encoderRef(in, "§4.3.4", bad); e != nil {
			return e
		}
	}
	if reason := d.table.insert(f); reason != "" {
		return bad("§3.2.2", reason)
	}
	return nil
}

// encoderRef resolves the static or relative index of an Insert With Name
// Reference or a Duplicate (§3.2.5: relative index 0 is the newest entry).
func (d *Decoder) encoderRef(in qspec.Instruction, section string, bad func(string, string) *Error) (spec.Field, *Error) {
	if in.Static {
		if in.Value >= qspec.StaticTableLen {
			return spec.Field{}, bad("§3.1", fmt.Sprintf("static index %d is past the static table", in.Value))
		}
		return qspec.StaticTable[in.Value], nil
	}
	n := d.table.inserts()
	if in.Value >= n {
		return spec.Field{}, bad(section, fmt.Sprintf("relative index %d with only %d inserts", in.Value, n))
	}
	f, reason := d.table.lookup(n - 1 - in.Value)
	if reason != "" {
		return spec.Field{}, bad("§2.2.3", fmt.Sprintf("relative index %d: %s", in.Value, reason))
	}
	return f, nil
}
