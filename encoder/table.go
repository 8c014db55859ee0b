package encoder

import (
	"bytes"
	"unsafe"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// entry describes one dynamic table entry (RFC 7541 §2.3.2). Its name and
// value are arena[off:off+nameLen] and the valueLen bytes after them.
type entry struct {
	off      uint32
	nameLen  uint32
	valueLen uint32
	// fieldHash is the entry's key in dynamicTable.fields.
	fieldHash uint32
	// nameHash is the entry's key in dynamicTable.names; it is only
	// meaningful when staticName is 0.
	nameHash uint32
	// staticName is the RFC index of the first static entry with the
	// entry's name, 0 if the static table lacks the name. Only names the
	// static table lacks go into dynamicTable.names: the others are
	// always referenced by their static index.
	staticName uint8
}

// size returns the entry's size as RFC 7541 §4.1 defines it.
func (e *entry) size() uint32 { return e.nameLen + e.valueLen + spec.EntryOverhead }

// slot is one slot of an open-addressing index: the key's hash and the
// position of the entry in the ring plus one, 0 marking an empty slot.
type slot struct {
	hash uint32
	ref  uint32
}

// dynamicTable is the encoder's copy of the dynamic table (RFC 7541 §2.3.2)
// with two indexes over it. Every slice is allocated once, by newTable.
//
// Entries sit in a ring, oldest at ring[(head-count)&ringMask], newest at
// ring[(head-1)&ringMask]. A table of maximum size capacity holds at most
// capacity/32 entries, so the ring never overflows.
//
// Entry bytes sit in arena in insertion order between the oldest entry's
// offset (the tail) and arenaHead. Eviction only moves the tail forward. An
// insertion that does not fit before the end of the arena first moves the
// live bytes to the front (compaction). The arena is twice the capacity and
// live bytes never exceed the capacity, so after a compaction at least
// capacity bytes are free: at most one compaction per capacity bytes
// inserted, amortized O(1) per byte.
//
// fields indexes entries by name and value, names by name alone (only
// names the static table lacks). Both use linear probing with
// backward-shift deletion, at most half full. Each maps a key to the newest
// entry that has it: eviction is oldest-first, so an older duplicate is
// never needed while a newer one is live, and the newest match wins as
// RFC 7541 encoders expect. newestStatic does the same for names the
// static table has, indexed by their static index.
//
// Entries are referred to by ref, their ring position plus one; 0 means
// none.
type dynamicTable struct {
	size     uint32 // RFC 7541 §4.1 size of the live entries
	maxSize  uint32 // current maximum size, at most capacity
	capacity uint32

	ring     []entry
	ringMask uint32
	head     uint32 // ring position the next entry goes to
	count    uint32

	arena     []byte
	arenaHead uint32

	fields       []slot
	names        []slot
	slotMask     uint32
	newestStatic [spec.StaticTableLen + 1]uint32

	compactions int // number of compactions so far, for tests
}

// newTable returns an empty table of maximum size capacity, holding all the
// memory it will ever use.
//
// Both indexes and the arena share one allocation, so a new encoder costs
// three (the Encoder, the ring and this) instead of five; none of the
// table's memory holds a pointer, so the garbage collector never scans it.
// At the default capacity the three fill Go's size classes exactly (512,
// 3,072 and 12,288 bytes).
func newTable(capacity uint32) dynamicTable {
	ringLen := nextPowerOfTwo(max(capacity/spec.EntryOverhead, 1))
	slotLen := 2 * ringLen
	indexBytes := uintptr(slotLen) * unsafe.Sizeof(slot{})
	arenaBytes := 2 * uintptr(capacity)
	// uint64 words keep the slots aligned (they need 4 bytes).
	words := make([]uint64, (2*indexBytes+arenaBytes+7)/8)
	base := unsafe.Pointer(unsafe.SliceData(words))
	return dynamicTable{
		maxSize:  capacity,
		capacity: capacity,
		ring:     make([]entry, ringLen),
		ringMask: ringLen - 1,
		fields:   unsafe.Slice((*slot)(base), slotLen),
		names:    unsafe.Slice((*slot)(unsafe.Add(base, indexBytes)), slotLen),
		arena:    unsafe.Slice((*byte)(unsafe.Add(base, 2*indexBytes)), arenaBytes),
		slotMask: slotLen - 1,
	}
}

// nextPowerOfTwo returns the smallest power of two >= n (n <= 1<<31).
func nextPowerOfTwo(n uint32) uint32 {
	p := uint32(1)
	for p < n {
		p <<= 1
	}
	return p
}

// reset empties the table; the caller sets its maximum size.
func (t *dynamicTable) reset() {
	t.size = 0
	t.head, t.count, t.arenaHead = 0, 0, 0
	t.compactions = 0
	clear(t.fields)
	clear(t.names)
	clear(t.newestStatic[:])
}

// memory returns the bytes the table's slices hold.
func (t *dynamicTable) memory() int {
	const entryBytes = 24 // unsafe.Sizeof(entry{})
	const slotBytes = 8   // unsafe.Sizeof(slot{})
	return len(t.ring)*entryBytes + len(t.arena) + (len(t.fields)+len(t.names))*slotBytes
}

// at returns the entry at 0-based dynamic position i (0 = newest).
func (t *dynamicTable) at(i uint32) *entry {
	return &t.ring[(t.head-1-i)&t.ringMask]
}

// position converts a ring reference (as stored in a slot) into the
// entry's 0-based position in the table, 0 being the newest.
func (t *dynamicTable) position(ref uint32) uint32 {
	return (t.head - ref) & t.ringMask
}

// name returns e's name in the arena, capped so that appending to it
// cannot overwrite the arena.
func (t *dynamicTable) name(e *entry) []byte {
	return t.arena[e.off : e.off+e.nameLen : e.off+e.nameLen]
}

// value returns e's value in the arena, capped like name.
func (t *dynamicTable) value(e *entry) []byte {
	start := e.off + e.nameLen
	return t.arena[start : start+e.valueLen : start+e.valueLen]
}

// findField returns the ref of the newest entry equal to name and value,
// 0 if none.
func (t *dynamicTable) findField(hash uint32, name, value string) uint32 {
	for i := hash & t.slotMask; ; i = (i + 1) & t.slotMask {
		s := t.fields[i]
		if s.ref == 0 || s.hash == hash && t.equal(s.ref, name, value) {
			return s.ref
		}
	}
}

// findName returns the ref of the newest entry named name, 0 if none, for
// names the static table lacks.
func (t *dynamicTable) findName(hash uint32, name string) uint32 {
	for i := hash & t.slotMask; ; i = (i + 1) & t.slotMask {
		s := t.names[i]
		if s.ref == 0 {
			return 0
		}
		if s.hash == hash {
			if e := &t.ring[s.ref-1]; int(e.nameLen) == len(name) && string(t.name(e)) == name {
				return s.ref
			}
		}
	}
}

// equal reports whether entry ref is name: value.
func (t *dynamicTable) equal(ref uint32, name, value string) bool {
	e := &t.ring[ref-1]
	return int(e.nameLen) == len(name) && int(e.valueLen) == len(value) &&
		t.bytesAt(e.off+e.nameLen, len(value)) == value && t.bytesAt(e.off, len(name)) == name
}

// valueEqual reports whether entry ref has value.
func (t *dynamicTable) valueEqual(ref uint32, value string) bool {
	e := &t.ring[ref-1]
	return int(e.valueLen) == len(value) && t.bytesAt(e.off+e.nameLen, len(value)) == value
}

// bytesAt views the n arena bytes at off, for a comparison, without the
// bounds checks of slicing: callers pass the offset and the name or value
// length of a live entry, which always lie below arenaHead.
func (t *dynamicTable) bytesAt(off uint32, n int) string {
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), off)), n)
}

// setMaxSize changes the maximum size and evicts down to it (RFC 7541 §4.3).
func (t *dynamicTable) setMaxSize(n uint32) {
	t.maxSize = n
	for t.size > t.maxSize {
		t.evictOldest()
	}
}

// add inserts name and value as the newest entry, evicting what RFC 7541
// §4.4 says must go first. The caller has checked that the entry fits the
// maximum size. staticName is the static index of the name, 0 if none.
func (t *dynamicTable) add(name, value string, fieldHash, nameHash uint32, staticName int) {
	entrySize := uint32(len(name)) + uint32(len(value)) + spec.EntryOverhead
	for t.size+entrySize > t.maxSize {
		t.evictOldest()
	}
	n := uint32(len(name) + len(value))
	if int(t.arenaHead)+int(n) > len(t.arena) {
		t.compact()
	}
	off := t.arenaHead
	copy(t.arena[off:], name)
	copy(t.arena[off+uint32(len(name)):], value)
	t.arenaHead = off + n

	ref := t.head&t.ringMask + 1
	t.ring[ref-1] = entry{
		off:        off,
		nameLen:    uint32(len(name)),
		valueLen:   uint32(len(value)),
		fieldHash:  fieldHash,
		nameHash:   nameHash,
		staticName: uint8(staticName),
	}
	t.head++
	t.count++
	t.size += entrySize

	t.insert(t.fields, fieldHash, ref, true)
	if staticName != 0 {
		t.newestStatic[staticName] = ref
	} else {
		t.insert(t.names, nameHash, ref, false)
	}
}

// insert points the slot of the key with this hash at the new entry ref,
// taking the slot over from an older entry with the same key. The key is
// the name and, when withValue is set, the value.
func (t *dynamicTable) insert(slots []slot, hash, ref uint32, withValue bool) {
	e := &t.ring[ref-1]
	for i := hash & t.slotMask; ; i = (i + 1) & t.slotMask {
		s := &slots[i]
		if s.ref == 0 {
			*s = slot{hash: hash, ref: ref}
			return
		}
		if s.hash != hash {
			continue
		}
		old := &t.ring[s.ref-1]
		if bytes.Equal(t.name(old), t.name(e)) && (!withValue || bytes.Equal(t.value(old), t.value(e))) {
			s.ref = ref
			return
		}
	}
}

// evictOldest drops the oldest entry (RFC 7541 §4.4).
func (t *dynamicTable) evictOldest() {
	ref := (t.head-t.count)&t.ringMask + 1
	e := &t.ring[ref-1]
	t.remove(t.fields, e.fieldHash, ref)
	if e.staticName != 0 {
		if t.newestStatic[e.staticName] == ref {
			t.newestStatic[e.staticName] = 0
		}
	} else {
		t.remove(t.names, e.nameHash, ref)
	}
	t.size -= e.size()
	t.count--
	if t.count == 0 {
		t.arenaHead = 0
	}
}

// remove deletes the slot pointing at ref, if any: a newer entry with the
// same key may have taken it over. Later slots of the probe run are shifted
// back so that lookups never meet a hole (backward-shift deletion).
func (t *dynamicTable) remove(slots []slot, hash, ref uint32) {
	i := hash & t.slotMask
	for slots[i].ref != ref {
		if slots[i].ref == 0 {
			return
		}
		i = (i + 1) & t.slotMask
	}
	for j := (i + 1) & t.slotMask; ; j = (j + 1) & t.slotMask {
		s := slots[j]
		if s.ref == 0 {
			break
		}
		// The slot at j may move to the hole at i unless its home
		// lies cyclically in (i, j].
		home := s.hash & t.slotMask
		if (j-home)&t.slotMask < (j-i)&t.slotMask {
			continue
		}
		slots[i] = s
		i = j
	}
	slots[i] = slot{}
}

// compact moves the live entry bytes to the start of the arena.
func (t *dynamicTable) compact() {
	if t.count == 0 {
		t.arenaHead = 0
		return
	}
	t.compactions++
	tail := t.at(t.count - 1).off
	copy(t.arena, t.arena[tail:t.arenaHead])
	t.arenaHead -= tail
	for i := uint32(0); i < t.count; i++ {
		t.at(i).off -= tail
	}
}
