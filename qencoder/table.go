package qencoder

import "github.com/hpackcert/hpackcert/internal/qspec"

// dynEntry is one entry of the dynamic table: its name and value, stored
// one after the other at off in the table's arena.
type dynEntry struct {
	off, nameLen, valueLen uint32
}

// dynamicTable is the encoder's copy of the dynamic table (RFC 9204 §3.2):
// the entries of absolute index first to inserted-1, oldest first. All its
// memory is allocated by newDynamicTable.
type dynamicTable struct {
	// arena holds the live entries' strings contiguously from the oldest
	// entry's off up to tail; an insertion that does not fit after tail
	// first moves them to the start. Sizes count 32 octets per entry
	// (§3.2.1) that the arena does not hold, so the strings of a table
	// within capacity always fit.
	arena []byte
	tail  uint32
	// ring holds entry abs at ring[abs % len(ring)]: no table of
	// capacity octets holds more than capacity/32 entries.
	ring     []dynEntry
	first    uint64 // absolute index of the oldest entry
	inserted uint64 // the Insert Count: entries ever inserted
	size     uint64 // sum of the entries' sizes (§3.2.1)
	capacity uint64
}

func newDynamicTable(capacity uint64) dynamicTable {
	return dynamicTable{
		arena:    make([]byte, capacity),
		ring:     make([]dynEntry, max(capacity/qspec.EntryOverhead, 1)),
		capacity: capacity,
	}
}

// size is the entry's size (§3.2.1).
func (en dynEntry) size() uint64 {
	return uint64(en.nameLen) + uint64(en.valueLen) + qspec.EntryOverhead
}

func (t *dynamicTable) entry(abs uint64) dynEntry {
	return t.ring[abs%uint64(len(t.ring))]
}

func (t *dynamicTable) name(en dynEntry) []byte {
	return t.arena[en.off : en.off+en.nameLen]
}

func (t *dynamicTable) value(en dynEntry) []byte {
	return t.arena[en.off+en.nameLen : en.off+en.nameLen+en.valueLen]
}

func entrySize(name, value string) uint64 {
	return uint64(len(name)) + uint64(len(value)) + qspec.EntryOverhead
}

// find returns the absolute index of the newest entry of name: value
// among those below limit, and of the newest entry of the name alone,
// each with whether there is one.
func (t *dynamicTable) find(name, value string, limit uint64) (field uint64, hasField bool, nameAbs uint64, hasName bool) {
	for abs := min(limit, t.inserted); abs > t.first; {
		abs--
		en := t.entry(abs)
		if string(t.name(en)) != name {
			continue
		}
		if !hasName {
			nameAbs, hasName = abs, true
		}
		if string(t.value(en)) == value {
			return abs, true, nameAbs, true
		}
	}
	return 0, false, nameAbs, hasName
}

// canInsert reports whether an entry of size octets fits once the entries
// below evictable, and only those, are evicted (§3.2.2, §2.1.1).
func (t *dynamicTable) canInsert(size, evictable uint64) bool {
	if size > t.capacity {
		return false
	}
	free := t.capacity - t.size
	for abs := t.first; free < size && abs < min(evictable, t.inserted); abs++ {
		free += t.entry(abs).size()
	}
	return free >= size
}

// insert adds name: value, evicting the oldest entries it needs room from;
// the caller has checked canInsert.
func (t *dynamicTable) insert(name, value string) {
	size := entrySize(name, value)
	for t.size+size > t.capacity {
		t.size -= t.entry(t.first).size()
		t.first++
	}
	need := uint32(len(name) + len(value))
	if int(t.tail)+int(need) > len(t.arena) {
		t.compact()
	}
	off := t.tail
	copy(t.arena[off:], name)
	copy(t.arena[off+uint32(len(name)):], value)
	t.tail += need
	t.ring[t.inserted%uint64(len(t.ring))] = dynEntry{off, uint32(len(name)), uint32(len(value))}
	t.inserted++
	t.size += size
}

// compact moves the live entries' strings to the start of the arena.
func (t *dynamicTable) compact() {
	if t.first == t.inserted {
		t.tail = 0
		return
	}
	start := t.entry(t.first).off
	copy(t.arena, t.arena[start:t.tail])
	t.tail -= start
	for abs := t.first; abs < t.inserted; abs++ {
		t.ring[abs%uint64(len(t.ring))].off -= start
	}
}
