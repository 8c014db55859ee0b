package qencoder

import (
	"slices"

	"github.com/hpackcert/hpackcert/internal/qspec"
)

// dynEntry is one entry of the dynamic table: its name and value, stored
// one after the other at off in the table's arena, the low 32 bits of its
// name and field hashes, and the links of the two hash chains it is on.
type dynEntry struct {
	off, nameLen, valueLen uint32
	nameHash, fieldHash    uint32
	// staticName is the static index plus one of the first entry of its
	// name (RFC 9204 Appendix A), 0 for a name not in the static table:
	// a field of a static name matches the entry's name by it.
	staticName uint8
	// nextName and nextField are the absolute index plus one of the
	// next older entry on the same name or field chain, 0 at the end.
	nextName, nextField uint64
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
	// ring holds entry abs at ring[abs & ringMask]: no table of capacity
	// octets holds more than capacity/32 entries.
	ring     []dynEntry
	ringMask uint64
	// names and fields are hash indexes: bucket h holds the absolute
	// index plus one of the newest entry whose name (field) hash falls
	// in it, and each entry links to the next older one. Links are never
	// removed: entries leave the table oldest first, so a chain is cut
	// where it reaches an evicted entry. Each has four buckets an entry
	// of the ring, so that a field not in the table seldom finds one
	// that only shares its bucket.
	names, fields []uint64
	bucketMask    uint64
	// seen holds tags of the field hashes of the latest fields sent
	// without an entry, seenNext the slot the next one takes: a field is
	// inserted when it comes back while its tag is there (see the
	// package doc). seenCounts counts the tags in seen by their low
	// bits, so that a field whose count is 0, as most are, is known
	// unseen without a scan of seen.
	seen       []uint32
	seenNext   int
	seenCounts []uint32

	first    uint64 // absolute index of the oldest entry
	inserted uint64 // the Insert Count: entries ever inserted
	size     uint64 // sum of the entries' sizes (§3.2.1)
	capacity uint64

	// The draining index (§2.1.1.1): entries below drain are too close
	// to eviction to be referenced, those whose eviction leaves less than
	// drainTarget octets insertable. drainRoom is the octets insertable
	// before the entry drain is evicted: capacity - size plus the sizes
	// of the entries below it. Insertions only lower it, evictions leave
	// it, so drain only moves up.
	drain       uint64
	drainRoom   uint64
	drainTarget uint64
}

// drainDivisor sets the draining index's target: an eighth of the
// capacity kept free of entries new references pin (see the package doc).
const drainDivisor = 8

func newDynamicTable(capacity uint64) dynamicTable {
	ringLen := nextPowerOfTwo(max(capacity/qspec.EntryOverhead, 1))
	// As many seen fields as half the entries the table holds, and at
	// least 16: more admit values that do not come back before they would
	// be evicted, fewer forget those that do. On the QIF traffic this did
	// best from 256 octets to 16 KiB of table.
	seenSlots := max(ringLen/2, 16)
	// Eight times as many counts as slots: a field unseen scans seen
	// one time in eight at most.
	t := dynamicTable{
		arena:       make([]byte, capacity),
		ring:        make([]dynEntry, ringLen),
		ringMask:    ringLen - 1,
		names:       make([]uint64, 4*ringLen),
		fields:      make([]uint64, 4*ringLen),
		bucketMask:  4*ringLen - 1,
		seen:        make([]uint32, seenSlots),
		seenCounts:  make([]uint32, 8*seenSlots),
		capacity:    capacity,
		drainTarget: capacity / drainDivisor,
	}
	t.reset()
	return t
}

// reset empties the table, keeping its memory. The ring's entries need no
// clearing: none is reached but through the indexes, which it clears, or
// between first and inserted.
func (t *dynamicTable) reset() {
	clear(t.names)
	clear(t.fields)
	clear(t.seen)
	clear(t.seenCounts)
	t.seenCounts[0] = uint32(len(t.seen)) // all the slots hold the tag 0
	t.seenNext = 0
	t.tail, t.first, t.inserted, t.size = 0, 0, 0, 0
	t.drain, t.drainRoom = 0, t.capacity
}

func nextPowerOfTwo(n uint64) uint64 {
	p := uint64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// size is the entry's size (§3.2.1).
func (en *dynEntry) size() uint64 {
	return uint64(en.nameLen) + uint64(en.valueLen) + qspec.EntryOverhead
}

func (t *dynamicTable) entry(abs uint64) *dynEntry {
	return &t.ring[abs&t.ringMask]
}

func (t *dynamicTable) name(en *dynEntry) []byte {
	return t.arena[en.off : en.off+en.nameLen]
}

func (t *dynamicTable) value(en *dynEntry) []byte {
	return t.arena[en.off+en.nameLen : en.off+en.nameLen+en.valueLen]
}

func entrySize(name, value string) uint64 {
	return uint64(len(name)) + uint64(len(value)) + qspec.EntryOverhead
}

// seenBefore reports whether the field of hash h, which has no entry, was
// seen lately, and records that it was.
func (t *dynamicTable) seenBefore(h uint64) bool {
	tag := uint32(h >> 32)
	mask := uint32(len(t.seenCounts) - 1)
	if t.seenCounts[tag&mask] != 0 && slices.Contains(t.seen, tag) {
		return true
	}
	t.seenCounts[t.seen[t.seenNext]&mask]--
	t.seenCounts[tag&mask]++
	t.seen[t.seenNext] = tag
	t.seenNext = (t.seenNext + 1) % len(t.seen)
	return false
}

// findField returns the absolute index of the newest live entry equal to
// name: value, whose field hash is h and whose name's static index plus
// one is staticName (0 if none), and whether there is one; and the
// newest such entry a section may reference, not draining and below hi,
// and whether there is one. One walk of the chain finds both: it stops at
// the first entry in [drain, hi), or below drain, where no older one is.
func (t *dynamicTable) findField(h uint64, staticName uint8, name, value string, hi uint64) (newest uint64, found bool, ref uint64, canRef bool) {
	for next := t.fields[h&t.bucketMask]; next > t.first; {
		abs := next - 1
		en := t.entry(abs)
		if en.fieldHash == uint32(h) && en.staticName == staticName &&
			(staticName != 0 || string(t.name(en)) == name) && string(t.value(en)) == value {
			if !found {
				newest, found = abs, true
			}
			if abs < t.drain {
				return newest, true, 0, false
			}
			if abs < hi {
				return newest, true, abs, true
			}
		}
		next = en.nextField
	}
	return newest, found, 0, false
}

// findName returns the absolute index of the newest live entry named name
// in [lo, hi), whose name hash is h, and whether there is one.
func (t *dynamicTable) findName(h uint64, name string, lo, hi uint64) (uint64, bool) {
	lo = max(lo, t.first)
	for ref := t.names[h&t.bucketMask]; ref > lo; {
		abs := ref - 1
		en := t.entry(abs)
		if abs < hi && en.nameHash == uint32(h) && string(t.name(en)) == name {
			return abs, true
		}
		ref = en.nextName
	}
	return 0, false
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

// insert adds name: value, whose hashes are nameHash and fieldHash and
// whose name's static index plus one is staticName (0 if none), evicting the oldest entries it needs room from; the caller has checked
// canInsert.
func (t *dynamicTable) insert(name, value string, nameHash, fieldHash uint64, staticName uint8) {
	size := entrySize(name, value)
	for t.size+size > t.capacity {
		t.size -= t.entry(t.first).size()
		t.first++
	}
	if t.drain < t.first {
		t.drain, t.drainRoom = t.first, t.capacity-t.size
	}
	need := uint32(len(name) + len(value))
	if int(t.tail)+int(need) > len(t.arena) {
		t.compact()
	}
	off := t.tail
	copy(t.arena[off:], name)
	copy(t.arena[off+uint32(len(name)):], value)
	t.tail += need
	nb, fb := &t.names[nameHash&t.bucketMask], &t.fields[fieldHash&t.bucketMask]
	*t.entry(t.inserted) = dynEntry{
		off: off, nameLen: uint32(len(name)), valueLen: uint32(len(value)),
		nameHash: uint32(nameHash), fieldHash: uint32(fieldHash), staticName: staticName,
		nextName: *nb, nextField: *fb,
	}
	t.inserted++
	*nb, *fb = t.inserted, t.inserted
	t.size += size
	t.drainRoom -= size
	for t.drain < t.inserted && t.drainRoom < t.drainTarget {
		t.drainRoom += t.entry(t.drain).size()
		t.drain++
	}
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
		t.entry(abs).off -= start
	}
}
