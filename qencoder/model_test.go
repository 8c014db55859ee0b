package qencoder

import (
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// mirror follows the encoder's side of a connection as the encoder sees
// it, from the octets it writes and the decoder-stream octets it has read,
// to check the rule no decoder can see: an insertion (or a capacity)
// evicts only evictable entries, those below the Known Received Count
// that no unacknowledged section references (§2.1.1). A decoder notices
// a bad eviction only when a late section needs the entry; the mirror
// notices it when the instruction is written. It is written from RFC 9204,
// not from the encoder, and also counts the forms the encoder used, for
// the tests to check the policy reached them.
type mirror struct {
	maxEntries  uint64 // of the decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY
	capacity    uint64
	entries     []spec.Field // every insertion, by absolute index
	first, size uint64
	known       uint64          // the Known Received Count (§2.1.4)
	sections    []mirrorSection // unacknowledged, in the order written

	instructions, duplicates, dynRefs, postBase int
}

// mirrorSection is a section with dynamic references awaiting its
// Section Acknowledgment: its stream, Required Insert Count and the
// absolute index of each reference.
type mirrorSection struct {
	stream, required uint64
	refs             []uint64
}

// written takes a section of stream and the encoder-stream octets
// AppendSection wrote with it. The section's own references count as
// unacknowledged for its instructions: the decoder may read them before
// the section.
func (m *mirror) written(stream uint64, section, enc []byte) error {
	var ins []qspec.Instruction
	inserts := uint64(len(m.entries))
	for p := 0; p < len(enc); {
		in, next, err := qspec.ReadEncoderInstruction(enc, p)
		if err != nil {
			return fmt.Errorf("encoder stream at %d: %w", p, err)
		}
		if in.Kind != qspec.SetCapacity {
			inserts++
		}
		ins, p = append(ins, in), next
	}
	cur := mirrorSection{stream: stream}
	pf, lines, err := qspec.WalkSection(section, len(section))
	if err != nil {
		return err
	}
	if cur.required, err = pf.RequiredInsertCount(m.maxEntries, inserts); err != nil {
		return err
	}
	base, err := pf.Base(cur.required)
	if err != nil {
		return err
	}
	for _, l := range lines {
		switch {
		case l.Static || l.Kind == qspec.LiteralName:
		case l.Kind == qspec.IndexedPostBase || l.Kind == qspec.LiteralPostBaseRef:
			if start := uint64(len(m.entries)); base != start {
				return fmt.Errorf("post-base reference from Base %d, not the Insert Count %d at the start of the section (the package doc's policy)", base, start)
			}
			cur.refs = append(cur.refs, base+l.Index)
			m.postBase++
		default:
			cur.refs = append(cur.refs, base-1-l.Index)
		}
	}
	m.dynRefs += len(cur.refs)
	for _, in := range ins {
		if err := m.apply(in, cur.refs); err != nil {
			return fmt.Errorf("encoder stream at %d: %w", in.Offset, err)
		}
	}
	if cur.required > 0 {
		m.sections = append(m.sections, cur)
	}
	return nil
}

// apply carries out one encoder instruction, checking its evictions.
func (m *mirror) apply(in qspec.Instruction, current []uint64) error {
	m.instructions++
	if in.Kind == qspec.SetCapacity {
		m.capacity = in.Value
		return m.evictTo(m.capacity, current)
	}
	var f spec.Field
	switch {
	case in.Kind == qspec.InsertLiteralName:
		f = spec.Field{Name: in.Name.Text, Value: in.FieldValue.Text}
	case in.Static:
		f = spec.Field{Name: qspec.StaticTable[in.Value].Name, Value: in.FieldValue.Text}
	default:
		n := uint64(len(m.entries))
		if in.Value >= n || n-1-in.Value < m.first {
			return fmt.Errorf("%v of relative index %d: no such entry", in.Kind, in.Value)
		}
		f = m.entries[n-1-in.Value]
		if in.Kind == qspec.Duplicate {
			m.duplicates++
		} else {
			f.Value = in.FieldValue.Text
		}
	}
	size := uint64(len(f.Name)+len(f.Value)) + qspec.EntryOverhead
	if size > m.capacity {
		return fmt.Errorf("entry of %d octets above capacity %d", size, m.capacity)
	}
	if err := m.evictTo(m.capacity-size, current); err != nil {
		return err
	}
	m.entries = append(m.entries, f)
	m.size += size
	return nil
}

// evictTo evicts the oldest entries until the table holds at most limit
// octets, refusing any that is not evictable.
func (m *mirror) evictTo(limit uint64, current []uint64) error {
	for m.size > limit {
		abs := m.first
		if abs >= m.known {
			return fmt.Errorf("evicts entry %d, not acknowledged (Known Received Count %d) (§2.1.1)", abs, m.known)
		}
		if slices.Contains(current, abs) {
			return fmt.Errorf("evicts entry %d, which the section written with it references (§2.1.1)", abs)
		}
		for _, s := range m.sections {
			if slices.Contains(s.refs, abs) {
				return fmt.Errorf("evicts entry %d, referenced by an unacknowledged section of stream %d (§2.1.1)", abs, s.stream)
			}
		}
		f := m.entries[abs]
		m.size -= uint64(len(f.Name)+len(f.Value)) + qspec.EntryOverhead
		m.first++
	}
	return nil
}

// decoderStream takes decoder-stream octets the encoder has read, whole
// instructions only (§4.4).
func (m *mirror) decoderStream(b []byte) error {
	for p := 0; p < len(b); {
		in, next, err := qspec.ReadDecoderInstruction(b, p)
		if err != nil {
			return err
		}
		switch in.Kind {
		case qspec.SectionAck:
			i := slices.IndexFunc(m.sections, func(s mirrorSection) bool { return s.stream == in.Value })
			if i < 0 {
				return fmt.Errorf("Section Acknowledgment of stream %d, with none outstanding", in.Value)
			}
			m.known = max(m.known, m.sections[i].required)
			m.sections = slices.Delete(m.sections, i, i+1)
		case qspec.StreamCancel:
			m.sections = slices.DeleteFunc(m.sections, func(s mirrorSection) bool { return s.stream == in.Value })
		case qspec.InsertCountIncrement:
			m.known += in.Value
		}
		p = next
	}
	return nil
}

// agrees returns an error if the encoder's Known Received Count or its
// unacknowledged sections differ from the mirror's.
func (m *mirror) agrees(e *Encoder) error {
	if e.known != m.known || len(e.sections) != len(m.sections) {
		return fmt.Errorf("encoder: Known Received Count %d, %d sections outstanding; mirror: %d, %d", e.known, len(e.sections), m.known, len(m.sections))
	}
	for i, s := range m.sections {
		if got := e.sections[i]; len(s.refs) == 0 || got.streamID != s.stream || got.required != s.required || got.minRef != slices.Min(s.refs) {
			return fmt.Errorf("outstanding section %d: encoder %+v, mirror stream %d required %d refs %v", i, got, s.stream, s.required, s.refs)
		}
	}
	return nil
}
