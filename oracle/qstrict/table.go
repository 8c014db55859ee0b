package qstrict

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// table is the dynamic table of RFC 9204 §3.2: entries oldest first, each
// with the absolute index evicted+position (§3.2.4).
type table struct {
	entries  []spec.Field
	evicted  uint64
	size     uint64
	capacity uint64
}

func entrySize(f spec.Field) uint64 {
	return uint64(len(f.Name)) + uint64(len(f.Value)) + qspec.EntryOverhead
}

// inserts is the number of insertions so far, the absolute index the next
// entry gets.
func (t *table) inserts() uint64 { return t.evicted + uint64(len(t.entries)) }

// lookup returns the entry of absolute index abs, or a sentence saying why
// there is none.
func (t *table) lookup(abs uint64) (spec.Field, string) {
	switch {
	case abs >= t.inserts():
		return spec.Field{}, fmt.Sprintf("absolute index %d not inserted yet (%d inserts)", abs, t.inserts())
	case abs < t.evicted:
		return spec.Field{}, fmt.Sprintf("absolute index %d already evicted (%d entries evicted)", abs, t.evicted)
	}
	return t.entries[abs-t.evicted], ""
}

// evictTo drops the oldest entries until size+room fits the capacity.
func (t *table) evictTo(room uint64) {
	for len(t.entries) > 0 && t.size+room > t.capacity {
		t.size -= entrySize(t.entries[0])
		t.entries = t.entries[1:]
		t.evicted++
	}
}

// insert adds f after evicting what it needs (§3.2.2), or returns a
// sentence when f is larger than the capacity.
func (t *table) insert(f spec.Field) string {
	s := entrySize(f)
	if s > t.capacity {
		return fmt.Sprintf("entry of size %d is larger than the dynamic table capacity %d", s, t.capacity)
	}
	t.evictTo(s)
	t.entries = append(t.entries, f)
	t.size += s
	return ""
}

// Table returns the dynamic table, newest entry first.
func (d *Decoder) Table() []spec.Field {
	out := make([]spec.Field, len(d.table.entries))
	for i, f := range d.table.entries {
		out[len(out)-1-i] = f
	}
	return out
}
