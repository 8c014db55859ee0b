package qbroken

import (
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// table is the encoder's copy of the dynamic table (§3.2).
type table struct {
	// capacity is what the encoder keeps the table to, used the sum of
	// its entries' sizes (§3.2.1).
	capacity, used uint64
	// oldest is the absolute index (§3.2.4) of entries[0]; the newest
	// entry is last.
	oldest  uint64
	entries []spec.Field
}

func entrySize(name, value string) uint64 {
	return uint64(len(name)) + uint64(len(value)) + qspec.EntryOverhead
}

// inserts is the number of insertions so far, the absolute index of the
// next entry.
func (t *table) inserts() uint64 { return t.oldest + uint64(len(t.entries)) }

// find returns the absolute index of the newest entry equal to name and
// value, or, with byName, of the newest entry named name.
func (t *table) find(name, value string, byName bool) (uint64, bool) {
	for i := len(t.entries) - 1; i >= 0; i-- {
		f := t.entries[i]
		if f.Name == name && (byName || f.Value == value) {
			return t.oldest + uint64(i), true
		}
	}
	return 0, false
}

// draining reports whether the entry of absolute index abs is close to
// eviction (§2.1.1.1): fewer than a quarter of the capacity's octets of
// new entries would evict it.
func (t *table) draining(abs uint64) bool {
	room := t.capacity - t.used
	for i := uint64(0); i < abs-t.oldest; i++ {
		room += entrySize(t.entries[i].Name, t.entries[i].Value)
	}
	return room < t.capacity/4
}

// insert evicts the oldest entries until name and value fit, then adds
// them (§3.2.2); the caller has checked that the eviction is allowed.
func (t *table) insert(name, value string) {
	n := entrySize(name, value)
	for t.used+n > t.capacity {
		t.used -= entrySize(t.entries[0].Name, t.entries[0].Value)
		t.entries = t.entries[1:]
		t.oldest++
	}
	t.entries = append(t.entries, spec.Field{Name: name, Value: value})
	t.used += n
}

// outstanding is a field section with dynamic references that the decoder
// has neither acknowledged nor cancelled.
type outstanding struct {
	stream uint64
	ric    uint64
	refs   []uint64 // the absolute indices it references
}

// evictable reports whether the entry of absolute index abs may be
// evicted (§2.1.1): its insertion acknowledged, and no outstanding section
// nor the section being encoded (refs) referencing it.
func (e *conn) evictable(abs uint64, refs []uint64) bool {
	if abs >= e.knownReceived && e.bug != EvictUnacknowledged {
		return false
	}
	for _, s := range e.sections {
		if contains(s.refs, abs) {
			return false
		}
	}
	return !contains(refs, abs)
}

func contains(list []uint64, x uint64) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// canInsert reports whether an entry of name and value fits the table by
// evicting only evictable entries, refs being the references of the
// section being encoded.
func (e *conn) canInsert(name, value string, refs []uint64) bool {
	n := entrySize(name, value)
	if n > e.table.capacity {
		return false
	}
	room := e.table.capacity - e.table.used
	for i := 0; room < n; i++ {
		if !e.evictable(e.table.oldest+uint64(i), refs) {
			return false
		}
		room += entrySize(e.table.entries[i].Name, e.table.entries[i].Value)
	}
	return true
}

// atRisk reports whether stream has an outstanding section that could
// become blocked: its Required Insert Count above the Known Received Count
// (§2.1.2).
func (e *conn) atRisk(stream uint64) bool {
	for _, s := range e.sections {
		if s.stream == stream && s.ric > e.knownReceived {
			return true
		}
	}
	return false
}

// streamsAtRisk counts the streams that could become blocked.
func (e *conn) streamsAtRisk() uint64 {
	var n uint64
	for i, s := range e.sections {
		if s.ric <= e.knownReceived {
			continue
		}
		counted := false
		for _, t := range e.sections[:i] {
			counted = counted || (t.stream == s.stream && t.ric > e.knownReceived)
		}
		if !counted {
			n++
		}
	}
	return n
}

// mayBlock reports whether a section on stream may reference entries not
// yet acknowledged: the stream could already be blocked, or fewer streams
// than SETTINGS_QPACK_BLOCKED_STREAMS could be.
func (e *conn) mayBlock(stream uint64) bool {
	limit := e.settings.BlockedStreams
	if e.bug == BlockedOneTooMany {
		limit++
	}
	return e.atRisk(stream) || e.streamsAtRisk() < limit
}
