package hpack

import (
	"io"
	"slices"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// unlimited is the Capacity the reference encoder is given: the largest it
// honours. The limit of SetMaxDynamicTableSizeLimit is applied here, so the
// capacity only bounds what a limit can allow; the encoder's memory follows
// the sizes actually set, not the capacity.
const unlimited = 1 << 30

// fieldRoom is what a field's representation takes beyond its name and
// value, at most: two size updates of 6 bytes, a first byte and two string
// length prefixes of at most 5 bytes each (lengths under 2^31), 23 bytes;
// TestFieldRoom checks it against encoder.MaxFieldLen.
const fieldRoom = 32

// An Encoder writes HPACK header blocks to an io.Writer, one field per
// Write, as x/net's hpack.Encoder does. It is not safe for concurrent use.
type Encoder struct {
	enc   *encoder.Encoder
	w     io.Writer
	limit uint32 // SetMaxDynamicTableSizeLimit's value
	buf   []byte // one field's representation, reused
}

// NewEncoder returns an Encoder that writes the encoded fields to w, with
// encoder.DefaultPolicy, a dynamic table of 4096 bytes and a size limit of
// 4096, as x/net's NewEncoder.
func NewEncoder(w io.Writer) *Encoder {
	return NewEncoderPolicy(w, encoder.DefaultPolicy)
}

// NewEncoderPolicy is NewEncoder with the indexing policy p;
// encoder.IndexAllPolicy() indexes every field that fits, as x/net does.
func NewEncoderPolicy(w io.Writer, p encoder.Policy) *Encoder {
	return &Encoder{
		enc:   encoder.New(encoder.Config{Capacity: unlimited, Policy: p}),
		w:     w,
		limit: spec.DefaultTableSize,
	}
}

// WriteField encodes f and writes its representation to the Writer in a
// single Write, after any pending "Dynamic Table Size Update" (RFC 7541
// §6.3). It returns the Writer's error, or io.ErrShortWrite if the Writer
// wrote less without one.
func (e *Encoder) WriteField(f HeaderField) error {
	// fieldRoom bounds encoder.MaxFieldLen without its integer lengths:
	// the buffer never grows inside AppendFieldString.
	if need := len(f.Name) + len(f.Value) + fieldRoom; cap(e.buf) < need {
		e.buf = slices.Grow(e.buf[:0], need)
	}
	e.buf = e.enc.AppendFieldString(e.buf[:0], f.Name, f.Value, f.Sensitive)
	n, err := e.w.Write(e.buf)
	if err == nil && n != len(e.buf) {
		err = io.ErrShortWrite
	}
	return err
}

// SetMaxDynamicTableSize sets the maximum dynamic table size to v, capped
// by the limit of SetMaxDynamicTableSizeLimit (4096 by default), evicting
// entries if it shrinks; the change is signalled before the next field.
// Call it with the peer's acknowledged SETTINGS_HEADER_TABLE_SIZE.
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	e.enc.SetMaxDynamicTableSize(min(v, e.limit))
}

// MaxDynamicTableSize returns the current maximum dynamic table size.
func (e *Encoder) MaxDynamicTableSize() uint32 {
	return e.enc.MaxTableSize()
}

// SetMaxDynamicTableSizeLimit sets the largest value SetMaxDynamicTableSize
// may set, 4096 by default. If the current maximum size is larger than v,
// the table shrinks to v at once and the change is signalled before the
// next field.
func (e *Encoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.limit = v
	if e.enc.MaxTableSize() > v {
		e.enc.SetMaxDynamicTableSize(v)
	}
}
