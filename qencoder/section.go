package qencoder

import (
	"math"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// prefixRoom is the room AppendSection leaves for the prefix, whose
// Required Insert Count is known only once the lines are written.
var prefixRoom [2 * maxIndexLen]byte

// sectionState is what AppendSection knows of the section being written.
type sectionState struct {
	canRef bool   // a slot is free to wait for its acknowledgement
	hasRef bool   // it references the dynamic table
	minRef uint64 // its lowest absolute index referenced
	maxRef uint64 // its highest
	base   uint64
}

func (w *sectionState) ref(abs uint64) uint64 {
	w.minRef = min(w.minRef, abs)
	w.maxRef = max(w.maxRef, abs)
	w.hasRef = true
	return w.base - 1 - abs
}

// AppendSection appends the field section (§4.5) carrying fields, in
// order, for the request or push stream streamID to section, and the
// encoder-stream instructions (§4.3) it needs to encStream, and returns
// both extended buffers. The encoder-stream octets must reach the decoder
// before the section's, in order; they do not block the section, which
// references only acknowledged entries. Each line is as the package doc's
// policy decides.
func (e *Encoder) AppendSection(section, encStream []byte, streamID uint64, fields []spec.Field) ([]byte, []byte) {
	w := sectionState{minRef: math.MaxUint64, base: e.known}
	w.canRef = e.known > 0 && e.freeSlot() >= 0
	start := len(section)
	section = append(section, prefixRoom[:]...)
	for _, f := range fields {
		section, encStream = e.appendLine(&w, section, encStream, f)
	}
	var required, base uint64
	if w.hasRef {
		required, base = w.maxRef+1, w.base
		e.unacked[e.freeSlot()] = unacked{used: true, streamID: streamID, seq: e.seq, required: required, minRef: w.minRef}
		e.seq++
	}
	var room [len(prefixRoom)]byte
	prefix := qspec.AppendPrefix(room[:0], required, base, e.maxEntries)
	copy(section[start:], prefix)
	n := copy(section[start+len(prefix):], section[start+len(prefixRoom):])
	return section[:start+len(prefix)+n], encStream
}

func (e *Encoder) appendLine(w *sectionState, dst, enc []byte, f spec.Field) ([]byte, []byte) {
	nameIndex, hasName, fieldIndex, hasField := staticLookup(f.Name, f.Value)
	if hasField && !f.Sensitive {
		return encoder.AppendInteger(dst, indexedStatic, indexedPrefixBits, uint64(fieldIndex)), enc
	}
	never := f.Sensitive || (!hasField && e.neverIndexed(f.Name, f.Value))
	// Sections reference acknowledged entries only; inserts look at all.
	refField, hasRefField, refName, hasRefName := e.table.find(f.Name, f.Value, e.known)
	if !never && hasRefField && w.canRef {
		return encoder.AppendInteger(dst, indexedDynamic, indexedPrefixBits, w.ref(refField)), enc
	}
	useDynName := !hasName && hasRefName && w.canRef
	var rel uint64
	if useDynName {
		// Recorded before any insert, so that the insert does not
		// evict it.
		rel = w.ref(refName)
	}
	if !never && !hasField {
		_, hasAnyField, anyName, hasAnyName := e.table.find(f.Name, f.Value, e.table.inserted)
		if !hasAnyField {
			enc = e.insert(enc, w, f, nameIndex, hasName, anyName, hasAnyName)
		}
	}
	var pattern byte
	switch {
	case hasName:
		if hasField {
			nameIndex = fieldIndex
		}
		pattern = nameRefStatic
		rel = uint64(nameIndex)
	case useDynName:
		pattern = nameRefDynamic
	default:
		pattern = literalName
		if never {
			pattern |= literalNameNever
		}
		dst = appendString(dst, pattern, nameLenPrefixBits, f.Name)
		return appendString(dst, 0, valueLenPrefixBits, f.Value), enc
	}
	if never {
		pattern |= nameRefNever
	}
	dst = encoder.AppendInteger(dst, pattern, nameRefPrefixBits, rel)
	return appendString(dst, 0, valueLenPrefixBits, f.Value), enc
}

// insert inserts f on the encoder stream, by the name of static entry
// staticName or of dynamic entry dynName when there is one, if its entry
// takes at most 3/4 of the capacity and fits once only evictable entries
// are evicted.
func (e *Encoder) insert(enc []byte, w *sectionState, f spec.Field, staticName uint8, hasStatic bool, dynName uint64, hasDyn bool) []byte {
	t := &e.table
	size := entrySize(f.Name, f.Value)
	if size*4 > t.capacity*3 || !t.canInsert(size, e.evictable(w.minRef)) {
		return enc
	}
	if !e.capacitySent {
		enc = encoder.AppendInteger(enc, setCapacity, capacityPrefixBits, t.capacity)
		e.capacitySent = true
	}
	switch {
	case hasStatic:
		enc = encoder.AppendInteger(enc, insertStatic, indexedPrefixBits, uint64(staticName))
	case hasDyn:
		// Relative to the Insert Count before this insertion (§3.2.5);
		// the entry may be evicted by it, the name is taken from f.
		enc = encoder.AppendInteger(enc, insertDynamic, indexedPrefixBits, t.inserted-1-dynName)
	default:
		enc = appendString(enc, insertLiteral, insertNameBits, f.Name)
	}
	t.insert(f.Name, f.Value)
	return appendString(enc, 0, valueLenPrefixBits, f.Value)
}
