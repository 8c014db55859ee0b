package qspec

import "fmt"

// Line is one field line representation of a field section (§4.5.2-
// §4.5.6), as it stood on the wire: indices are relative or post-base as
// sent, not resolved against any table.
type Line struct {
	// Kind is one of Indexed, IndexedPostBase, LiteralNameRef,
	// LiteralPostBaseRef and LiteralName.
	Kind Kind
	// Offset is the offset of the line's first octet in the section.
	Offset int
	// Static is the T bit of an indexed line or a literal with name
	// reference: Index is into the static table, not relative.
	Static bool
	// NeverIndexed is the N bit of a literal line (§4.5.4-§4.5.6): an
	// intermediary must not add the field to a dynamic table.
	NeverIndexed bool
	// Index is the field's index, or the name's index of a literal with a
	// name reference; 0 for a literal name.
	Index uint64
	// Name is the literal name of a LiteralName line.
	Name String
	// Value is the value of a literal line.
	Value String
}

// ReadLine reads the field line representation whose first octet is
// section[p] and returns it with the offset after it. A line cut by the
// end of section, an integer above 2^62-1 and a malformed Huffman code are
// *Error values naming the line's section of RFC 9204.
func ReadLine(section []byte, p int) (Line, int, error) {
	if p >= len(section) {
		return Line{}, p, &Error{Offset: p, Section: "§4.5", Reason: "no field line at the end of the field section"}
	}
	b := section[p]
	l := Line{Offset: p}
	var (
		sec         string
		indexPrefix uint8
		err         error
	)
	switch {
	case b&0x80 != 0:
		l.Kind, sec, indexPrefix, l.Static = Indexed, "§4.5.2", 6, b&0x40 != 0
	case b&0xc0 == 0x40:
		l.Kind, sec, indexPrefix = LiteralNameRef, "§4.5.4", 4
		l.NeverIndexed, l.Static = b&0x20 != 0, b&0x10 != 0
	case b&0xe0 == 0x20:
		l.Kind, sec, l.NeverIndexed = LiteralName, "§4.5.6", b&0x10 != 0
		if l.Name, p, err = readString(section, p, 3, sec); err != nil {
			return l, p, err
		}
	case b&0xf0 == 0x10:
		l.Kind, sec, indexPrefix = IndexedPostBase, "§4.5.3", 4
	default:
		l.Kind, sec, indexPrefix, l.NeverIndexed = LiteralPostBaseRef, "§4.5.5", 3, b&0x08 != 0
	}
	if indexPrefix != 0 {
		if l.Index, p, err = readInt(section, p, indexPrefix, sec); err != nil {
			return l, p, err
		}
	}
	if l.Kind == Indexed || l.Kind == IndexedPostBase {
		return l, p, nil
	}
	if l.Value, p, err = readString(section, p, 7, sec); err != nil {
		return l, p, err
	}
	return l, p, nil
}

// WalkSection splits a whole field section into its prefix and its field
// lines (§4.5). It checks the wire format only: a static index past the
// static table, a relative index, or a Required Insert Count and Base that
// the decoder's table cannot honour all walk. At most maxLines lines are
// read, bounding the memory a section of tiny lines can take; past them,
// or on a malformed line, it returns the lines read before and an *Error.
func WalkSection(section []byte, maxLines int) (Prefix, []Line, error) {
	pf, p, err := ReadPrefix(section)
	if err != nil {
		return pf, nil, err
	}
	var lines []Line
	for p < len(section) {
		if len(lines) == maxLines {
			return pf, lines, &Error{Offset: p, Section: "§4.5", Reason: fmt.Sprintf("more than %d field lines, the most the caller allows", maxLines)}
		}
		var l Line
		if l, p, err = ReadLine(section, p); err != nil {
			return pf, lines, err
		}
		lines = append(lines, l)
	}
	return pf, lines, nil
}
