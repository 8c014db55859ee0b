package qencoder

import (
	"math"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// prefixRoom is the room AppendSection leaves for the prefix, whose
// Required Insert Count is known only once the lines are written: the two
// octets a prefix takes unless an integer of it passes its 8- or 7-bit
// prefix, when the lines move to make room.
const prefixRoom = 2

// sectionState is what AppendSection knows of the section being written.
type sectionState struct {
	canRef bool // a slot is free to wait for its acknowledgement
	// refLimit bounds the absolute indices the section references: the
	// Known Received Count, or none when the section may block.
	refLimit uint64
	base     uint64
	hasRef   bool   // it references the dynamic table
	minRef   uint64 // its lowest absolute index referenced
	maxRef   uint64 // its highest
	// dst and enc are the section and the encoder stream being
	// appended to, kept here rather than passed to and returned from
	// the call of every field.
	dst, enc []byte
}

// ref records a reference to the entry abs and returns its index in a
// field line: relative to the Base (§3.2.5), or post-base (§3.2.6) for
// an entry inserted while the section is written.
func (w *sectionState) ref(abs uint64) (index uint64, postBase bool) {
	w.minRef = min(w.minRef, abs)
	w.maxRef = max(w.maxRef, abs)
	w.hasRef = true
	if abs >= w.base {
		return abs - w.base, true
	}
	return w.base - 1 - abs, false
}

// AppendSection appends the field section (§4.5) carrying fields, in
// order, for the request or push stream streamID to section, and the
// encoder-stream instructions (§4.3) it needs to encStream, and returns
// both extended buffers. The encoder-stream octets must reach the decoder
// in order, and should be sent before the section's: a section that
// references entries not yet acknowledged blocks its stream until they
// arrive, which the package doc's budget bounds. Each line is as the
// package doc's policy decides.
func (e *Encoder) AppendSection(section, encStream []byte, streamID uint64, fields []spec.Field) ([]byte, []byte) {
	w := sectionState{minRef: math.MaxUint64}
	if e.table.capacity > 0 && len(e.sections) < cap(e.sections) {
		w.canRef = true
		w.base, w.refLimit = e.known, e.known
		if e.mayBlock(streamID) {
			w.base, w.refLimit = e.table.inserted, math.MaxUint64
		}
	}
	start := len(section)
	section = append(section, make([]byte, prefixRoom)...)
	w.dst, w.enc = section, encStream
	for i := range fields {
		e.appendLine(&w, &fields[i])
	}
	section, encStream = w.dst, w.enc
	var required, base uint64
	if w.hasRef {
		required, base = w.maxRef+1, w.base
		e.sections = append(e.sections, outstanding{streamID: streamID, required: required, minRef: w.minRef})
		e.pinned = min(e.pinned, w.minRef)
	}
	var room [2 * maxIndexLen]byte
	prefix := qspec.AppendPrefix(room[:0], required, base, e.maxEntries)
	if extra := len(prefix) - prefixRoom; extra > 0 {
		end := len(section)
		section = append(section, room[:extra]...)
		copy(section[start+len(prefix):], section[start+prefixRoom:end])
	}
	copy(section[start:], prefix)
	return section, encStream
}

// appendLine appends the line of f to w.dst, and the instructions it
// needs to w.enc. f is passed by pointer, and the field found in the
// dynamic table by one walk of its chain, for this is the loop of every
// field.
func (e *Encoder) appendLine(w *sectionState, f *spec.Field) {
	nameIndex, hasName, fieldIndex, hasField := staticLookup(f.Name, f.Value)
	if hasField && !f.Sensitive {
		w.dst = appendIndex(w.dst, indexedStatic, indexedPrefixBits, uint64(fieldIndex))
		return
	}
	nameHash := uint64(nameIndex+1) * hashMul1 // a static name's, unhashed
	staticName := uint8(0)
	if hasName {
		staticName = nameIndex + 1
	}
	if hasField {
		// A sensitive static field names its own entry.
		nameIndex = fieldIndex
	}
	// A field equal to a static entry went above unless sensitive.
	never := f.Sensitive || e.neverIndexed(f.Name, f.Value)
	t := &e.table
	if t.capacity == 0 {
		w.dst = e.appendLiteral(w, w.dst, f, never, nameIndex, hasName, 0)
		return
	}
	if !hasName {
		nameHash = hashString(f.Name)
	}
	if !never {
		fieldHash := nameHash*hashMul0 ^ hashString(f.Value)
		newest, found, ref, canRef := t.findField(fieldHash, staticName, f.Name, f.Value, w.refLimit)
		if canRef && w.canRef {
			w.dst = appendIndexed(w.dst, w, ref)
			return
		}
		// No entry the section may reference: insert the field if
		// it was seen lately, or duplicate its newest entry if that
		// one is draining.
		inserted := false
		switch {
		case !found && t.seenBefore(fieldHash):
			w.enc, inserted = e.insert(w.enc, w, f, nameIndex, hasName, nameHash, fieldHash)
		case found && newest < t.drain:
			w.enc, inserted = e.duplicate(w.enc, w, f, newest, nameHash, fieldHash, staticName)
		}
		if inserted && w.canRef && t.inserted-1 < w.refLimit {
			w.dst = appendIndexed(w.dst, w, t.inserted-1)
			return
		}
	}
	w.dst = e.appendLiteral(w, w.dst, f, never, nameIndex, hasName, nameHash)
}

// appendIndex is encoder.AppendInteger for the indices of field lines,
// with the one-octet case, most of them, inlined.
func appendIndex(dst []byte, pattern byte, prefixBits uint8, index uint64) []byte {
	if index < 1<<prefixBits-1 {
		return append(dst, pattern|byte(index))
	}
	return encoder.AppendInteger(dst, pattern, prefixBits, index)
}

// appendIndexed appends the "Indexed Field Line" of the dynamic entry abs
// (§4.5.2), or its post-base form (§4.5.3).
func appendIndexed(dst []byte, w *sectionState, abs uint64) []byte {
	index, postBase := w.ref(abs)
	if postBase {
		return appendIndex(dst, indexedPostBase, postBaseIndexBits, index)
	}
	return appendIndex(dst, indexedDynamic, indexedPrefixBits, index)
}

// appendLiteral appends a literal line of f, with the N bit if never:
// with a reference to the static name nameIndex if hasName (§4.5.4), or
// else to the name of a dynamic entry the section may reference, found by
// its name hash nameHash (§4.5.4, §4.5.5), or else with a literal name
// (§4.5.6).
func (e *Encoder) appendLiteral(w *sectionState, dst []byte, f *spec.Field, never bool, nameIndex uint8, hasName bool, nameHash uint64) []byte {
	var dynName uint64
	hasDyn := false
	if !hasName && w.canRef {
		dynName, hasDyn = e.table.findName(nameHash, f.Name, e.table.drain, w.refLimit)
	}
	var pattern, prefixBits byte
	var index uint64
	switch {
	case hasName:
		pattern, prefixBits, index = nameRefStatic, nameRefPrefixBits, uint64(nameIndex)
		if never {
			pattern |= nameRefNever
		}
	case hasDyn:
		var postBase bool
		index, postBase = w.ref(dynName)
		pattern, prefixBits = nameRefDynamic, nameRefPrefixBits
		if never {
			pattern |= nameRefNever
		}
		if postBase {
			pattern, prefixBits = postBaseNameRef, postBaseNameBits
			if never {
				pattern |= postBaseNameNever
			}
		}
	default:
		pattern = literalName
		if never {
			pattern |= literalNameNever
		}
		dst = encoder.AppendStringLiteral(dst, pattern, nameLenPrefixBits, f.Name)
		return encoder.AppendStringLiteral(dst, 0, valueLenPrefixBits, f.Value)
	}
	dst = appendIndex(dst, pattern, uint8(prefixBits), index)
	return encoder.AppendStringLiteral(dst, 0, valueLenPrefixBits, f.Value)
}

// insert inserts f on the encoder stream, by the name of static entry
// staticName when hasStatic, or else of the newest dynamic entry of its
// name if there is one, and reports whether it did: only if its entry
// takes at most 3/4 of the capacity and fits once only evictable entries
// are evicted.
func (e *Encoder) insert(enc []byte, w *sectionState, f *spec.Field, staticName uint8, hasStatic bool, nameHash, fieldHash uint64) ([]byte, bool) {
	t := &e.table
	size := entrySize(f.Name, f.Value)
	if size*4 > t.capacity*3 || !t.canInsert(size, e.evictable(w.minRef)) {
		return enc, false
	}
	enc = e.appendCapacity(enc)
	if hasStatic {
		enc = encoder.AppendInteger(enc, insertStatic, indexedPrefixBits, uint64(staticName))
	} else if dynName, hasDyn := t.findName(nameHash, f.Name, 0, math.MaxUint64); hasDyn {
		// Relative to the Insert Count before this insertion (§3.2.5);
		// the entry may be evicted by it, the name is taken from f.
		enc = encoder.AppendInteger(enc, insertDynamic, indexedPrefixBits, t.inserted-1-dynName)
	} else {
		enc = encoder.AppendStringLiteral(enc, insertLiteral, insertNameBits, f.Name)
	}
	key := uint8(0)
	if hasStatic {
		key = staticName + 1
	}
	t.insert(f.Name, f.Value, nameHash, fieldHash, key)
	return encoder.AppendStringLiteral(enc, 0, valueLenPrefixBits, f.Value), true
}

// duplicate inserts a copy of the draining entry abs, equal to f, whose
// name's static index plus one is staticName (0 if none), with a
// Duplicate instruction (§4.3.4, §2.1.1.1) if it fits once only evictable
// entries are evicted, and reports whether it did.
func (e *Encoder) duplicate(enc []byte, w *sectionState, f *spec.Field, abs, nameHash, fieldHash uint64, staticName uint8) ([]byte, bool) {
	t := &e.table
	if !t.canInsert(entrySize(f.Name, f.Value), e.evictable(w.minRef)) {
		return enc, false
	}
	enc = e.appendCapacity(enc)
	enc = encoder.AppendInteger(enc, duplicateEntry, duplicateIndexBits, t.inserted-1-abs)
	t.insert(f.Name, f.Value, nameHash, fieldHash, staticName)
	return enc, true
}

// appendCapacity appends Set Dynamic Table Capacity (§4.3.1) before the
// first insertion.
func (e *Encoder) appendCapacity(enc []byte) []byte {
	if e.capacitySent {
		return enc
	}
	e.capacitySent = true
	return encoder.AppendInteger(enc, setCapacity, capacityPrefixBits, e.table.capacity)
}
