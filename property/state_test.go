package property

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// connState is the model of one connection: what the encoder's table and
// every decoder's table must hold, derived from RFC 7541 and the indexing
// policy documented in package encoder, and nothing else.
type connState struct {
	// cfg is the encoder's configuration; capacity is its effective
	// Capacity (0 means 4096), indexAll its policy's IndexAll.
	cfg      encoder.Config
	capacity uint32
	indexAll bool

	// dec is every decoder's table after the last block; its maxSize is
	// the size last signalled to them.
	dec modelTable
	// pending holds min(n, capacity) for each size set since the last
	// field, in order. The encoder applies them at once; the decoders
	// learn of them from the next block.
	pending []uint32
	// acked holds each size set since the last block as the peer sent
	// it. A decoder may evict for them at once rather than at the next
	// block's size updates (nghttp2 does).
	acked []uint32

	// expect is what the last command must have produced, nil if it
	// encoded no block.
	expect *blockExpect
}

// blockExpect is what one encoded block must decode to.
type blockExpect struct {
	fields []oracle.Field
	kinds  []repKind // representation of each field
	// byName tells, for each literal field, whether its name goes by
	// index: the doc promises it whenever either table has the name.
	byName  []bool
	updates []uint32 // size updates at the start of the block (§4.2)
	// xnetRejects is set when the block starts with two size updates and
	// the first leaves entries in the table: x/net rejects that legal
	// sequence (see package oracle/xnet).
	xnetRejects bool
	// features names what the block exercised, for the coverage check
	// of the generators.
	features []string
}

// newConnState is the state of a new connection, as after New or Reset:
// an empty table of maximum size min(4096, capacity), the decoders at
// 4096, and a pending update when the capacity is smaller.
func newConnState(cfg encoder.Config) *connState {
	c := cfg.Capacity
	if c == 0 {
		c = spec.DefaultTableSize
	}
	st := &connState{cfg: cfg, capacity: c, indexAll: cfg.Policy.IndexAll}
	st.dec.maxSize = spec.DefaultTableSize
	if c < spec.DefaultTableSize {
		st.pending = []uint32{c}
	}
	return st
}

// clone returns a copy that shares no memory with st; gopter may keep
// states around, so commands never change one in place.
func (st *connState) clone() *connState {
	c := *st
	c.dec = st.dec.clone()
	c.pending = slices.Clone(st.pending)
	c.acked = slices.Clone(st.acked)
	c.expect = nil
	return &c
}

// encMax is the encoder's current maximum table size.
func (st *connState) encMax() uint32 {
	if len(st.pending) > 0 {
		return st.pending[len(st.pending)-1]
	}
	return st.dec.maxSize
}

// encTable is the encoder's table: the decoders' table with the evictions
// of the pending sizes already made.
func (st *connState) encTable() modelTable {
	t := st.dec.clone()
	if len(st.pending) > 0 {
		t.evictTo(slices.Min(st.pending))
		t.maxSize = st.encMax()
	}
	return t
}

// eagerDecTable is the decoders' table for a decoder that evicts as soon
// as a smaller size is acked.
func (st *connState) eagerDecTable() modelTable {
	t := st.dec.clone()
	if len(st.acked) > 0 {
		t.evictTo(slices.Min(st.acked))
	}
	return t
}

// setSizes is the model of SetMaxDynamicTableSize for each of sizes.
func (st *connState) setSizes(sizes []uint32) *connState {
	next := st.clone()
	for _, n := range sizes {
		next.pending = append(next.pending, min(n, next.capacity))
		next.acked = append(next.acked, n)
	}
	return next
}

// encodeBlock is the model of encoding one block of fields.
func (st *connState) encodeBlock(fields []genField) *connState {
	next := st.clone()
	exp := &blockExpect{}
	next.expect = exp
	if len(fields) == 0 {
		return next
	}
	if len(next.pending) > 0 {
		// §4.2: the smallest size since the last block, then the final
		// one if different; nothing when both are what the decoders
		// already have.
		least, final := slices.Min(next.pending), next.pending[len(next.pending)-1]
		if least != final || final != next.dec.maxSize {
			exp.updates = append(exp.updates, least)
		}
		next.dec.setMaxSize(least)
		if least != final {
			exp.updates = append(exp.updates, final)
			exp.xnetRejects = len(next.dec.entries) > 0
		}
		next.dec.setMaxSize(final)
		next.pending = nil
	}
	next.acked = nil
	if len(exp.updates) == 2 {
		exp.features = append(exp.features, "two size updates")
	}
	if exp.xnetRejects {
		exp.features = append(exp.features, "down then up with entries left")
	}
	for _, f := range fields {
		kind := next.representation(f)
		exp.kinds = append(exp.kinds, kind)
		exp.byName = append(exp.byName, next.dec.hasName(f.Name))
		exp.fields = append(exp.fields, oracle.Field{Name: f.Name, Value: f.Value, Sensitive: kind == repNever})
		switch {
		case f.Sensitive:
			exp.features = append(exp.features, "sensitive field")
		case kind == repNever:
			exp.features = append(exp.features, "never indexed by policy")
		case kind == repIndexed:
			exp.features = append(exp.features, "indexed field")
		case entrySize(f.Name, f.Value) > next.dec.maxSize:
			exp.features = append(exp.features, "giant field")
		}
		if kind == repIncremental {
			before := len(next.dec.entries)
			next.dec.add(f.Name, f.Value)
			if len(next.dec.entries) <= before {
				exp.features = append(exp.features, "eviction")
			}
		}
	}
	return next
}

// withoutIndexingNames are the names DefaultPolicy never indexes because
// their values rarely repeat (package encoder doc, "Indexing policy").
var withoutIndexingNames = []string{"age", "content-length", "etag", "if-modified-since", "if-none-match", "last-modified", "location", "set-cookie"}

// representation is the representation the encoder's documented policy
// picks for f in the current table.
func (st *connState) representation(f genField) repKind {
	credential := false
	if !st.indexAll {
		switch f.Name {
		case "authorization", "proxy-authorization":
			credential = true
		case "cookie":
			credential = len(f.Value) < 20
		}
	}
	switch {
	case f.Sensitive:
		return repNever
	case credential && !isStaticField(f.Name, f.Value):
		// A credential equal to a static entry (an empty value) reveals
		// nothing and is referenced.
		return repNever
	case st.dec.hasField(f.Name, f.Value):
		return repIndexed
	}
	size, maxSize := entrySize(f.Name, f.Value), st.dec.maxSize
	switch {
	case size > maxSize:
		return repWithout // the giant-field fallback
	case st.indexAll:
		return repIncremental
	case uint64(size)*100 > uint64(maxSize)*75:
		return repWithout
	case f.Name == ":path" && (strings.Contains(f.Value, "?") || len(f.Value) > 28):
		return repWithout
	case slices.Contains(withoutIndexingNames, f.Name):
		return repWithout
	}
	return repIncremental
}

// String describes the state in one line, for gopter's reports.
func (st *connState) String() string {
	return fmt.Sprintf("{%s; decoders' table: %d entries, size %d of %d; pending sizes %v}",
		configString(st.cfg), len(st.dec.entries), st.dec.size, st.dec.maxSize, st.pending)
}
