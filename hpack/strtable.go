package hpack

import "github.com/hpackcert/hpackcert/internal/spec"

// stringTable holds, as strings, the names and values of the entries of
// the dynamic table of package decoder (RFC 7541 §2.3.2), newest first,
// so that a field referencing an entry is emitted without copying or
// allocating, as x/net's table of strings allows. It learns insertions
// from the Decoder's callback and evictions from the decoder's TableLen:
// evictions always take the oldest entries, so the decoder's table is the
// newest TableLen entries of this one.
type stringTable struct {
	ring  []HeaderField // a ring of power-of-two length
	head  int           // where the next entry goes
	count int
}

// at returns the name and value of the entry at 0-based dynamic position
// i (RFC index i+62), which the decoder has checked exists.
func (t *stringTable) at(i uint32) (name, value string) {
	e := &t.ring[(t.head-1-int(i))&(len(t.ring)-1)]
	return e.Name, e.Value
}

// add records the insertion of name and value, after which the decoder's
// table has live entries: 0 when the entry was larger than the table,
// which emptied it (§4.4).
func (t *stringTable) add(name, value string, live int) {
	t.keep(live - 1)
	if live == 0 {
		return
	}
	if t.count == len(t.ring) {
		t.grow()
	}
	t.ring[t.head&(len(t.ring)-1)] = HeaderField{Name: name, Value: value}
	t.head++
	t.count++
}

// keep drops all but the n newest entries, clearing the strings dropped so
// that they can be collected.
func (t *stringTable) keep(n int) {
	for ; t.count > max(n, 0); t.count-- {
		t.ring[(t.head-t.count)&(len(t.ring)-1)] = HeaderField{}
	}
}

// grow doubles the ring, keeping the entries in order.
func (t *stringTable) grow() {
	ring := make([]HeaderField, max(2*len(t.ring), 16))
	for i := range t.count {
		ring[t.count-1-i] = t.ring[(t.head-1-i)&(len(t.ring)-1)]
	}
	t.ring, t.head = ring, t.count
}

// entry returns the name and value of RFC index idx (§2.3.3), from the
// static table or from t; the decoder has checked that it exists.
func (t *stringTable) entry(idx uint32) (name, value string) {
	if idx <= spec.StaticTableLen {
		f := &spec.StaticTable[idx-1]
		return f.Name, f.Value
	}
	return t.at(idx - spec.StaticTableLen - 1)
}
