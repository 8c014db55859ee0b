package strict

import "github.com/hpackcert/hpackcert/internal/spec"

// dynamicTable is the dynamic table of RFC 7541 §2.3.2: a FIFO of entries
// with a size bound, evicting the oldest entries first (§4.3, §4.4).
type dynamicTable struct {
	// entries holds the oldest entry first, so that inserting appends and
	// evicting drops a prefix.
	entries []spec.Field
	// size is the sum of the entry sizes (§4.1). It is a uint64 so that
	// adding an entry larger than 2^32 cannot wrap around.
	size    uint64
	maxSize uint32
	// events counts what the last block did to the table.
	events TableEvents
}

// TableEvents counts what one header block did to the dynamic table.
type TableEvents struct {
	// Inserted is the number of entries added (§4.4).
	Inserted int
	// EvictedBySizeUpdate is the number of entries a dynamic table size
	// update evicted (§4.3), EvictedByInsertion the number evicted to make
	// room for a new entry (§4.4).
	EvictedBySizeUpdate, EvictedByInsertion int
	// Oversized is the number of entries larger than the maximum size,
	// which emptied the table and were not added (§4.4).
	Oversized int
}

// entrySize is the size of an entry (RFC 7541 §4.1): name length plus
// value length plus 32.
func entrySize(f spec.Field) uint64 {
	return uint64(len(f.Name)) + uint64(len(f.Value)) + spec.EntryOverhead
}

func (t *dynamicTable) len() int { return len(t.entries) }

// entry returns the entry i positions from the newest (0 is the newest).
func (t *dynamicTable) entry(i int) spec.Field {
	return t.entries[len(t.entries)-1-i]
}

// setMaxSize applies a dynamic table size update (§4.3): entries are
// evicted until the table fits the new maximum.
func (t *dynamicTable) setMaxSize(n uint32) {
	t.maxSize = n
	t.events.EvictedBySizeUpdate += t.evictTo(uint64(n))
}

// add inserts f as the newest entry after evicting what it needs room for.
// An entry larger than the maximum size empties the table and is not
// inserted; that is not an error (§4.4).
func (t *dynamicTable) add(f spec.Field) {
	size := entrySize(f)
	if size > uint64(t.maxSize) {
		t.events.EvictedByInsertion += t.evictTo(0)
		t.events.Oversized++
		return
	}
	t.events.EvictedByInsertion += t.evictTo(uint64(t.maxSize) - size)
	t.events.Inserted++
	t.entries = append(t.entries, f)
	t.size += size
}

// evictTo evicts the oldest entries until the table's size is at most n,
// and returns how many it evicted.
func (t *dynamicTable) evictTo(n uint64) int {
	evicted := 0
	for t.size > n {
		t.size -= entrySize(t.entries[evicted])
		evicted++
	}
	if evicted == 0 {
		return 0
	}
	// Copy the survivors down so the backing array does not keep evicted
	// strings alive.
	t.entries = append(t.entries[:0], t.entries[evicted:]...)
	return evicted
}

// reset empties the table and sets its maximum size back to 4096, keeping
// the entries' array without the strings it held.
func (t *dynamicTable) reset() {
	clear(t.entries)
	*t = dynamicTable{entries: t.entries[:0], maxSize: spec.DefaultTableSize}
}
