package broken

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// decoderTable is the broken decoder's dynamic table (RFC 7541 §2.3.2),
// with the table bugs of its decoder.
type decoderTable struct {
	// entries holds the oldest entry first: inserting appends.
	entries []certify.Field
	size    uint64 // sum of the entry sizes (§4.1)
	maxSize uint32
	bugs    DecoderBugs
}

// entry returns the entry i positions from the newest (0 is the newest).
func (t *decoderTable) entry(i int) certify.Field {
	return t.entries[len(t.entries)-1-i]
}

// entrySize is name + value + 32 (§4.1), or 31 with EntryOverhead31.
func (t *decoderTable) entrySize(f certify.Field) uint64 {
	overhead := uint64(spec.EntryOverhead)
	if t.bugs&EntryOverhead31 != 0 {
		overhead--
	}
	return uint64(len(f.Name)) + uint64(len(f.Value)) + overhead
}

// setMaxSize applies a dynamic table size update (§4.3), evicting down to
// the new size unless NoEvictOnResize.
func (t *decoderTable) setMaxSize(n uint32) {
	t.maxSize = n
	if t.bugs&NoEvictOnResize == 0 {
		t.evictTo(uint64(n), false)
	}
}

// makeRoom evicts for an entry of size octets (§4.4): until it fits, or
// every entry when it is larger than the table.
func (t *decoderTable) makeRoom(size uint64) {
	newest := t.bugs&EvictNewest != 0
	if size > uint64(t.maxSize) {
		t.evictTo(0, newest)
		return
	}
	t.evictTo(uint64(t.maxSize)-size, newest)
}

// add inserts f, of size octets, as the newest entry, after makeRoom; an
// entry larger than the table is not inserted (§4.4).
func (t *decoderTable) add(f certify.Field, size uint64) {
	if size > uint64(t.maxSize) {
		return
	}
	f.Sensitive = false
	t.entries = append(t.entries, f)
	t.size += size
}

// evictTo evicts entries until the table's size is at most n: the oldest
// first, or the newest first when newest is set.
func (t *decoderTable) evictTo(n uint64, newest bool) {
	for t.size > n && len(t.entries) > 0 {
		victim := 0
		if newest {
			victim = len(t.entries) - 1
		}
		t.size -= t.entrySize(t.entries[victim])
		t.entries = append(t.entries[:victim], t.entries[victim+1:]...)
	}
}
