package decoder

import "github.com/hpackcert/hpackcert/internal/spec"

// entry locates one dynamic table entry (RFC 7541 §2.3.2): its name is
// arena[off:off+nameLen] and its value the valueLen octets after it.
type entry struct {
	off, nameLen, valueLen uint32
}

// dynamicTable is the decoder's dynamic table (RFC 7541 §2.3.2), its
// memory allocated by newTable for entries of up to capacity octets in
// all (RFC 7541 §4.1 sizes). The maximum size may be larger, after a
// raised setting: when the entries need more, add doubles the capacity,
// up to the maximum size, so that memory follows what the peer inserted,
// never a setting alone.
//
// Entries sit in a ring, oldest at ring[(head-count)&ringMask], newest at
// ring[(head-1)&ringMask]; entries of capacity octets in all number at
// most capacity/32, so the ring never overflows. Their octets sit in
// arena in insertion order between the oldest entry's offset (the tail)
// and arenaHead: eviction only moves the tail. An insertion that does not
// fit before the arena's end first moves the live octets to the front.
// The arena is 1.5 times the capacity and the live octets with the
// inserted ones never exceed the capacity, so a compaction leaves at least
// capacity/2 octets free: at most two octets moved per octet inserted,
// amortized, as in the encoder.
type dynamicTable struct {
	size    uint32 // RFC 7541 §4.1 size of the live entries
	maxSize uint32 // current maximum size
	// limit is maxSize, or maxTableSize if less: the size the entries
	// are evicted down to, so that arena offsets fit in 32 bits.
	limit    uint32
	capacity uint32 // the size of the entries the memory holds

	ring     []entry
	ringMask uint32
	head     uint32
	count    uint32

	arena     []byte
	arenaHead uint32
}

// newTable returns an empty table whose maximum size is capacity, with the
// memory that size needs.
func newTable(capacity uint32) dynamicTable {
	ringLen := uint32(1)
	for ringLen < max(capacity/spec.EntryOverhead, 1) {
		ringLen <<= 1
	}
	return dynamicTable{
		maxSize:  capacity,
		limit:    capacity,
		capacity: capacity,
		ring:     make([]entry, ringLen),
		ringMask: ringLen - 1,
		arena:    make([]byte, int(capacity)+int(capacity/2)),
	}
}

// grow gives the table memory for entries of capacity octets, more than
// it has, keeping its entries and its maximum size.
func (t *dynamicTable) grow(capacity uint32) {
	old := *t
	*t = newTable(capacity)
	t.maxSize, t.limit = old.maxSize, old.limit
	for i := old.count; i > 0; i-- {
		t.add(old.field(i - 1))
	}
}

// clear empties the table and sets its maximum size to n.
func (t *dynamicTable) clear(n uint32) {
	t.size, t.count, t.head, t.arenaHead = 0, 0, 0, 0
	t.maxSize, t.limit = n, min(n, maxTableSize)
}

// len returns the number of entries.
func (t *dynamicTable) len() uint32 { return t.count }

// field returns the name and value of the entry at 0-based dynamic
// position i (0 is the newest, RFC index 62), which the caller has checked
// is below len(). The views are valid until the next insertion.
func (t *dynamicTable) field(i uint32) (name, value []byte) {
	e := &t.ring[(t.head-1-i)&t.ringMask]
	v := e.off + e.nameLen
	return t.arena[e.off:v:v], t.arena[v : v+e.valueLen : v+e.valueLen]
}

// setMaxSize applies a dynamic table size update (RFC 7541 §4.3),
// evicting down to the new size. A size above the acknowledged setting is
// the caller's error to report.
func (t *dynamicTable) setMaxSize(n uint32) {
	t.maxSize, t.limit = n, min(n, maxTableSize)
	for t.size > t.limit {
		t.evictOldest()
	}
}

// add inserts name and value as the newest entry after evicting what RFC
// 7541 §4.4 says must go. An entry larger than the maximum size empties
// the table and is not added. Neither name nor value may be a view into
// the table: eviction and compaction may overwrite it.
func (t *dynamicTable) add(name, value []byte) {
	size := uint64(len(name)) + uint64(len(value)) + spec.EntryOverhead
	if size > uint64(t.limit) {
		for t.count > 0 {
			t.evictOldest()
		}
		return
	}
	for uint64(t.size)+size > uint64(t.limit) {
		t.evictOldest()
	}
	if need := t.size + uint32(size); need > t.capacity {
		t.grow(uint32(min(uint64(t.limit), max(uint64(need), 2*uint64(t.capacity)))))
	}
	n := uint32(len(name) + len(value))
	if int(t.arenaHead)+int(n) > len(t.arena) {
		t.compact()
	}
	off := t.arenaHead
	copy(t.arena[off:], name)
	copy(t.arena[off+uint32(len(name)):], value)
	t.arenaHead = off + n
	t.ring[t.head&t.ringMask] = entry{off: off, nameLen: uint32(len(name)), valueLen: uint32(len(value))}
	t.head++
	t.count++
	t.size += uint32(size)
}

// evictOldest drops the oldest entry (RFC 7541 §4.4).
func (t *dynamicTable) evictOldest() {
	e := &t.ring[(t.head-t.count)&t.ringMask]
	t.size -= e.nameLen + e.valueLen + spec.EntryOverhead
	t.count--
	if t.count == 0 {
		t.arenaHead = 0
	}
}

// compact moves the live entry octets to the start of the arena.
func (t *dynamicTable) compact() {
	if t.count == 0 {
		t.arenaHead = 0
		return
	}
	tail := t.ring[(t.head-t.count)&t.ringMask].off
	copy(t.arena, t.arena[tail:t.arenaHead])
	t.arenaHead -= tail
	for i := uint32(0); i < t.count; i++ {
		t.ring[(t.head-1-i)&t.ringMask].off -= tail
	}
}
