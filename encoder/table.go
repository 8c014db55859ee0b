package encoder

import "github.com/hpackcert/hpackcert/internal/spec"

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
	// nextField and nextName are the refs of the entries that headed the
	// entry's buckets of fields and names when it was inserted: the next
	// older entries of those buckets while they live (see next).
	nextField uint32
	nextName  uint32
	// staticName is the RFC index of the first static entry with the
	// entry's name, 0 if the static table lacks the name. Only names the
	// static table lacks go into dynamicTable.names: the others are
	// always referenced by their static index.
	staticName uint8
}

// size returns the entry's size as RFC 7541 §4.1 defines it.
func (e *entry) size() uint32 { return e.nameLen + e.valueLen + spec.EntryOverhead }

// dynamicTable is the encoder's copy of the dynamic table (RFC 7541 §2.3.2)
// with two indexes over it. Its memory, sized for a maximum size of
// capacity, is allocated by newTable, and again by grow only.
//
// Entries sit in a ring, oldest at ring[(head-count)&ringMask], newest at
// ring[(head-1)&ringMask]. A table of maximum size capacity holds at most
// capacity/32 entries, so the ring never overflows.
//
// Entry bytes sit in arena in insertion order between the oldest entry's
// offset (the tail) and arenaHead. Eviction only moves the tail forward. An
// insertion that does not fit before the end of the arena first moves the
// live bytes to the front (compaction). The arena is 1.5 times the
// capacity, and the live bytes of the entries and the one inserted never
// exceed the capacity (their sizes count 32 more each), so after a
// compaction at least capacity/2 bytes are free: at most one compaction,
// moving at most capacity bytes, per capacity/2 bytes inserted, two bytes
// moved per byte inserted at worst, amortized.
//
// fields indexes entries by name and value, names by name alone (only
// names the static table lacks): hash tables of twice as many buckets as
// the ring has entries, each bucket a chain of the entries whose key hash
// falls in it, newest first. An insertion puts the entry at the head of
// its chains, so the first match of a lookup is the newest entry with the
// key, as RFC 7541 encoders expect. Eviction touches neither index: it
// takes the oldest entry, always the last live one of its chains, and a
// chain ends at its first link to an entry no longer live, which the ring
// positions tell (next). newestStatic holds the newest entry of each
// name the static table has, by static index.
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

	fields       []uint32 // chain heads by fieldHash
	names        []uint32 // chain heads by nameHash
	bucketMask   uint32
	newestStatic [spec.StaticTableLen + 1]uint32

	compactions int // number of compactions so far, for tests
}

// newTable returns an empty table of maximum size capacity, with memory
// for that size.
//
// Both indexes and the arena share one allocation (newTableMemory), so a new
// encoder costs three (the Encoder, the ring and this); none of the
// table's memory holds a pointer, so the garbage collector never scans it.
// At the default capacity the three fill Go's size classes exactly (512,
// 4,096 and 8,192 bytes).
func newTable(capacity uint32) dynamicTable {
	ringLen := nextPowerOfTwo(max(capacity/spec.EntryOverhead, 1))
	buckets := 2 * ringLen
	fields, names, arena := newTableMemory(buckets, arenaLen(capacity))
	return dynamicTable{
		maxSize:    capacity,
		capacity:   capacity,
		ring:       make([]entry, ringLen),
		ringMask:   ringLen - 1,
		fields:     fields,
		names:      names,
		arena:      arena,
		bucketMask: buckets - 1,
	}
}

// arenaLen returns the length of the arena of a table of maximum size
// capacity: 1.5 times the capacity (see dynamicTable).
func arenaLen(capacity uint32) int {
	return int(capacity) + int(capacity/2)
}

// grow gives the table memory for a maximum size of capacity, more than it
// has, keeping its entries and its maximum size: the one allocation after
// newTable, made by Encoder.SetMaxDynamicTableSize.
func (t *dynamicTable) grow(capacity uint32) {
	old := *t
	*t = newTable(capacity)
	t.maxSize = old.maxSize
	if old.count == 0 {
		return
	}
	tail := old.at(old.count - 1).off
	t.arenaHead = uint32(copy(t.arena, old.arena[tail:old.arenaHead]))
	for i := old.count; i > 0; i-- {
		e := *old.at(i - 1)
		e.off -= tail
		t.link(e)
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

// reset empties the table; the caller sets its maximum size. The indexes
// keep their chain heads: with no entry live, every one of them is a link
// to an entry no longer live.
func (t *dynamicTable) reset() {
	t.size = 0
	t.head, t.count, t.arenaHead = 0, 0, 0
	t.compactions = 0
	clear(t.newestStatic[:])
}

// memory returns the bytes the table's slices hold.
func (t *dynamicTable) memory() int {
	const entryBytes = 32 // unsafe.Sizeof(entry{})
	return len(t.ring)*entryBytes + len(t.arena) + (len(t.fields)+len(t.names))*4
}

// at returns the entry at 0-based dynamic position i (0 = newest).
func (t *dynamicTable) at(i uint32) *entry {
	return &t.ring[(t.head-1-i)&t.ringMask]
}

// position converts a ring reference into the entry's 0-based position in
// the table, 0 being the newest; a position of count or more is no live
// entry.
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

// next returns link, the next older entry of a chain after entry ref, if
// it is still live, else 0: the end of the chain. Eviction goes oldest
// first, so the entries a link refers to go before the entry holding it;
// the ring slot of an evicted entry is either unused, at a position past
// the live entries, or reused by an entry newer than ref.
func (t *dynamicTable) next(ref, link uint32) uint32 {
	if link == 0 {
		return 0
	}
	if p := t.position(link); p >= t.count || p <= t.position(ref) {
		return 0
	}
	return link
}

// findField returns the ref of the newest entry equal to name and value,
// 0 if none.
func (t *dynamicTable) findField(hash uint32, name, value string) uint32 {
	ref := *t.bucket(t.fields, hash)
	// A head whose ring slot was taken by an entry of another bucket
	// means the bucket is empty. (Walking on would find nothing either:
	// every match is by hash and bytes.)
	if ref == 0 || t.position(ref) >= t.count || (t.entryAt(ref).fieldHash^hash)&t.bucketMask != 0 {
		return 0
	}
	for ref != 0 {
		e := t.entryAt(ref)
		if e.fieldHash == hash && t.equal(e, name, value) {
			return ref
		}
		ref = t.next(ref, e.nextField)
	}
	return 0
}

// findName returns the ref of the newest entry named name, 0 if none, for
// names the static table lacks.
func (t *dynamicTable) findName(hash uint32, name string) uint32 {
	ref := *t.bucket(t.names, hash)
	if ref == 0 || t.position(ref) >= t.count {
		return 0
	}
	if e := t.entryAt(ref); e.staticName != 0 || (e.nameHash^hash)&t.bucketMask != 0 {
		return 0
	}
	for ref != 0 {
		e := t.entryAt(ref)
		if e.nameHash == hash && int(e.nameLen) == len(name) && t.equalAt(e.off, name) {
			return ref
		}
		ref = t.next(ref, e.nextName)
	}
	return 0
}

// equal reports whether entry e is name: value.
func (t *dynamicTable) equal(e *entry, name, value string) bool {
	return int(e.nameLen) == len(name) && int(e.valueLen) == len(value) &&
		t.equalAt(e.off+e.nameLen, value) && t.equalAt(e.off, name)
}

// valueEqual reports whether entry ref has value.
func (t *dynamicTable) valueEqual(ref uint32, value string) bool {
	e := t.entryAt(ref)
	return int(e.valueLen) == len(value) && t.equalAt(e.off+e.nameLen, value)
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
	t.copyIn(off, name)
	t.copyIn(off+uint32(len(name)), value)
	t.arenaHead = off + n
	t.link(entry{off: off, nameLen: uint32(len(name)), valueLen: uint32(len(value)),
		fieldHash: fieldHash, nameHash: nameHash, staticName: uint8(staticName)})
}

// link makes e, whose bytes are in the arena at e.off, the newest entry:
// it takes the next ring slot, counts its size and heads its chains. Of e
// it reads the fields up to staticName, not the links.
func (t *dynamicTable) link(e entry) {
	ref := t.head&t.ringMask + 1
	slot := t.entryAt(ref)
	t.head++
	t.count++
	t.size += e.size()
	fb := t.bucket(t.fields, e.fieldHash)
	e.nextField, *fb = *fb, ref
	if e.staticName != 0 {
		t.newestStatic[e.staticName] = ref
	} else {
		nb := t.bucket(t.names, e.nameHash)
		e.nextName, *nb = *nb, ref
	}
	*slot = e
}

// evictOldest drops the oldest entry (RFC 7541 §4.4). The indexes need no
// change (see dynamicTable); newestStatic forgets the entry if it was the
// newest of its static name.
func (t *dynamicTable) evictOldest() {
	ref := (t.head-t.count)&t.ringMask + 1
	e := t.entryAt(ref)
	if e.staticName != 0 && t.newestStatic[e.staticName] == ref {
		t.newestStatic[e.staticName] = 0
	}
	t.size -= e.size()
	t.count--
	if t.count == 0 {
		t.arenaHead = 0
	}
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
