package qencoder

import (
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// model is a QPACK decoder written for the tests from RFC 9204, strict
// about what the encoder must do: Set Dynamic Table Capacity within the
// setting and before any insertion, references to live entries only,
// below the Required Insert Count, which must be exact, and no section
// needing inserts not yet received (the encoder never blocks).
type model struct {
	maxCapacity uint64 // SETTINGS_QPACK_MAX_TABLE_CAPACITY
	capacity    uint64
	capacitySet bool
	entries     []spec.Field // every insertion, by absolute index
	first       uint64       // oldest live entry
	size        uint64
	acked       uint64 // inserts the model has told the encoder of
	dynRefs     int    // dynamic references decoded
}

func (m *model) encoderStream(b []byte) error {
	for p := 0; p < len(b); {
		in, next, err := qspec.ReadEncoderInstruction(b, p)
		if err != nil {
			return fmt.Errorf("encoder stream at %d: %w", p, err)
		}
		switch in.Kind {
		case qspec.SetCapacity:
			if in.Value > m.maxCapacity {
				return fmt.Errorf("capacity %d above the setting %d (§4.3.1)", in.Value, m.maxCapacity)
			}
			m.capacity, m.capacitySet = in.Value, true
			if err := m.evictTo(m.capacity); err != nil {
				return err
			}
		case qspec.InsertNameRef, qspec.InsertLiteralName:
			if !m.capacitySet {
				return fmt.Errorf("insert at %d before Set Dynamic Table Capacity (§3.2.3)", p)
			}
			f := spec.Field{Name: in.Name.Text, Value: in.FieldValue.Text}
			if in.Kind == qspec.InsertNameRef {
				name, err := m.nameOf(in.Static, in.Value)
				if err != nil {
					return err
				}
				f.Name = name
			}
			size := uint64(len(f.Name)+len(f.Value)) + qspec.EntryOverhead
			if size > m.capacity {
				return fmt.Errorf("entry of %d octets above capacity %d (§3.2.2)", size, m.capacity)
			}
			if err := m.evictTo(m.capacity - size); err != nil {
				return err
			}
			m.entries = append(m.entries, f)
			m.size += size
		default:
			return fmt.Errorf("unexpected %v at %d", in.Kind, p)
		}
		p = next
	}
	return nil
}

// nameOf resolves the name index of an Insert with Name Reference, before
// the insertion evicts anything.
func (m *model) nameOf(static bool, index uint64) (string, error) {
	if static {
		if index >= qspec.StaticTableLen {
			return "", fmt.Errorf("static index %d", index)
		}
		return qspec.StaticTable[index].Name, nil
	}
	inserted := uint64(len(m.entries))
	if index >= inserted || inserted-1-index < m.first {
		return "", fmt.Errorf("insert by relative name index %d: no such live entry", index)
	}
	return m.entries[inserted-1-index].Name, nil
}

func (m *model) evictTo(limit uint64) error {
	for m.size > limit {
		f := m.entries[m.first]
		m.size -= uint64(len(f.Name)+len(f.Value)) + qspec.EntryOverhead
		m.first++
	}
	return nil
}

// section decodes a field section, returning its fields and its Required
// Insert Count.
func (m *model) section(b []byte) ([]spec.Field, uint64, error) {
	pf, lines, err := qspec.WalkSection(b, 1<<20)
	if err != nil {
		return nil, 0, err
	}
	inserted := uint64(len(m.entries))
	required, err := pf.RequiredInsertCount(qspec.MaxEntries(m.maxCapacity), inserted)
	if err != nil {
		return nil, 0, err
	}
	if required > inserted {
		return nil, 0, fmt.Errorf("Required Insert Count %d with %d inserts received: the section blocks", required, inserted)
	}
	base, err := pf.Base(required)
	if err != nil {
		return nil, 0, err
	}
	var maxRef uint64
	entry := func(postBase bool, index uint64) (spec.Field, error) {
		abs := base - 1 - index
		if postBase {
			abs = base + index
		}
		if (!postBase && index >= base) || abs >= required || abs < m.first {
			return spec.Field{}, fmt.Errorf("dynamic index %d (post-base %v, Base %d, Required Insert Count %d): no such live entry below the Required Insert Count (first live %d)", index, postBase, base, required, m.first)
		}
		maxRef = max(maxRef, abs+1)
		m.dynRefs++
		return m.entries[abs], nil
	}
	fields := make([]spec.Field, len(lines))
	for i, l := range lines {
		var f spec.Field
		switch {
		case l.Static && l.Index >= qspec.StaticTableLen:
			return nil, 0, fmt.Errorf("line %d: static index %d", i, l.Index)
		case l.Static:
			f = qspec.StaticTable[l.Index]
		case l.Kind == qspec.LiteralName:
			f.Name = l.Name.Text
		default:
			if f, err = entry(l.Kind == qspec.IndexedPostBase || l.Kind == qspec.LiteralPostBaseRef, l.Index); err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", i, err)
			}
		}
		if l.Kind != qspec.Indexed && l.Kind != qspec.IndexedPostBase {
			f.Value = l.Value.Text
		}
		f.Sensitive = l.NeverIndexed
		fields[i] = f
	}
	if maxRef != required {
		return nil, 0, fmt.Errorf("Required Insert Count %d, but the highest reference needs %d (§4.5.1.1)", required, maxRef)
	}
	return fields, required, nil
}

// decoderStream returns the instructions the model sends after decoding
// a section of streamID with this Required Insert Count: a Section
// Acknowledgment when it is not 0 (§4.4.1), and an Insert Count Increment
// for inserts the encoder has not learned of when increment is set.
func (m *model) decoderStream(dst []byte, streamID, required uint64, increment bool) []byte {
	if required > 0 {
		dst = encoder.AppendInteger(dst, 0x80, 7, streamID)
		m.acked = max(m.acked, required)
	}
	if n := uint64(len(m.entries)) - m.acked; increment && n > 0 {
		dst = encoder.AppendInteger(dst, 0x00, 6, n)
		m.acked += n
	}
	return dst
}
