package qbroken

import (
	"errors"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// staticKey is a static table entry's name and value.
type staticKey struct{ name, value string }

// staticField and staticName index the static table (Appendix A) by field
// and by name; a name maps to its first index.
var staticField, staticName = indexStaticTable()

func indexStaticTable() (map[staticKey]uint64, map[string]uint64) {
	fields := make(map[staticKey]uint64, qspec.StaticTableLen)
	names := make(map[string]uint64, qspec.StaticTableLen)
	for i, f := range qspec.StaticTable {
		fields[staticKey{f.Name, f.Value}] = uint64(i)
		if _, ok := names[f.Name]; !ok {
			names[f.Name] = uint64(i)
		}
	}
	return fields, names
}

// errClosed is a breakdown: the caller used an encoder after it refused
// the decoder stream, which closes the connection.
var errClosed = errors.New("qbroken: encoder used after it refused the decoder stream")

// conn is the encoder of one connection.
type conn struct {
	bug      Bug
	settings qpack.Settings
	table    table
	// announced is set once the encoder stream carries the capacity (or,
	// for a bug, what stands for it).
	announced bool
	// knownReceived is the Known Received Count (§2.1.4).
	knownReceived uint64
	sections      []outstanding
	// seen holds the fields sent as literals that the table could take.
	seen map[staticKey]bool
	// pending is an incomplete decoder-stream instruction.
	pending []byte
	closed  bool
}

func newEncoder(bug Bug, s qpack.Settings) *conn {
	return &conn{bug: bug, settings: s, table: table{capacity: min(ownCapacity, s.MaxTableCapacity)}, seen: map[staticKey]bool{}}
}

// form is the representation a field line gets.
type form uint8

const (
	indexed     form = iota + 1 // Indexed Field Line, or with Post-Base Index
	nameRef                     // Literal Field Line with (Post-Base) Name Reference
	literalName                 // Literal Field Line with Literal Name
)

// line is one field line chosen: index is a static index (static set) or
// an absolute index.
type line struct {
	form   form
	static bool
	index  uint64
	name   string
	value  string
	never  bool
}

// draft is a field section being encoded.
type draft struct {
	stream uint64
	base   uint64 // the inserts before the section: newer entries are post-base
	// mayBlock says the section may reference unacknowledged entries.
	mayBlock bool
	refs     []uint64
	lines    []line
	es       []byte // encoder-stream octets written for it
}

// ref records a reference to the entry of absolute index abs.
func (d *draft) ref(abs uint64) {
	if !contains(d.refs, abs) {
		d.refs = append(d.refs, abs)
	}
}

// EncodeSection encodes fields as the field section of stream, writing the
// instructions its insertions need on the encoder stream.
func (e *conn) EncodeSection(stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
	if e.closed {
		return nil, nil, errClosed
	}
	d := &draft{stream: stream, base: e.table.inserts(), mayBlock: e.mayBlock(stream)}
	if e.bug == InstructionWithZeroMax && e.settings.MaxTableCapacity == 0 && !e.announced {
		d.es = appendSetCapacity(d.es, 0)
		e.announced = true
	}
	if e.bug == FieldsOutOfOrder && len(fields) >= 2 && fields[0] != fields[1] {
		fields = append([]qpack.Field{fields[1], fields[0]}, fields[2:]...)
	}
	for _, f := range fields {
		d.lines = append(d.lines, e.choose(d, f))
	}
	section := e.appendSection(nil, d)
	return section, d.es, nil
}

// choose picks the representation of f, inserting into the dynamic table
// as the indexing policy says (see the package documentation).
func (e *conn) choose(d *draft, f qpack.Field) line {
	if f.Sensitive {
		if _, ok := e.table.find(f.Name, f.Value, false); !ok && e.bug == SensitiveInserted && e.worthInserting(f) {
			e.tryInsert(d, f.Name, f.Value)
		}
		return e.literal(d, f.Name, f.Value, true)
	}
	if i, ok := staticField[staticKey{f.Name, f.Value}]; ok && e.bug != StaticMatchNotUsed {
		return line{form: indexed, static: true, index: i}
	}
	if abs, ok := e.table.find(f.Name, f.Value, false); ok {
		if abs, ok = e.useEntry(d, abs); ok {
			return line{form: indexed, index: abs}
		}
		return e.literal(d, f.Name, f.Value, false)
	}
	if e.worthInserting(f) {
		if abs, ok := e.tryInsert(d, f.Name, f.Value); ok && d.mayBlock {
			d.ref(abs)
			return line{form: indexed, index: abs}
		}
	}
	return e.literal(d, f.Name, f.Value, false)
}

// maxSeen bounds the fields remembered as seen once: past it the encoder
// forgets them all and starts again.
const maxSeen = 4096

// worthInserting reports whether the policy inserts f when the table has
// no entry equal to it: when f takes at most half the capacity and is
// seen for the second time at least. Inserting every field costs more
// encoder-stream octets than the references to the few that repeat save
// when blocking is not allowed.
func (e *conn) worthInserting(f qpack.Field) bool {
	if e.bug == NoDynamicTable || entrySize(f.Name, f.Value) > e.table.capacity/2 {
		return false
	}
	k := staticKey{f.Name, f.Value}
	if e.seen[k] {
		return true
	}
	if len(e.seen) == maxSeen {
		clear(e.seen)
	}
	e.seen[k] = true
	return false
}

// useEntry returns the entry to reference for a field equal to the entry
// of absolute index abs: a Duplicate of it when it is close to eviction
// and the duplicate may be referenced, else the entry itself when it may
// be referenced (a draining one is then duplicated for later sections when
// that evicts nothing the section needs).
func (e *conn) useEntry(d *draft, abs uint64) (uint64, bool) {
	f := e.table.entries[abs-e.table.oldest]
	draining := e.table.draining(abs)
	if draining && d.mayBlock && e.canInsert(f.Name, f.Value, d.refs) {
		dup := e.duplicate(d, abs)
		d.ref(dup)
		return dup, true
	}
	if abs >= e.knownReceived && !d.mayBlock {
		return 0, false
	}
	d.ref(abs)
	if draining && e.canInsert(f.Name, f.Value, d.refs) {
		e.duplicate(d, abs)
	}
	return abs, true
}

// literal returns the literal line of name and value: with a static name
// reference, else a dynamic one the section may use, else the name
// itself.
func (e *conn) literal(d *draft, name, value string, never bool) line {
	if i, ok := staticName[name]; ok {
		return line{form: nameRef, static: true, index: i, value: value, never: never}
	}
	if abs, ok := e.table.find(name, "", true); ok && (abs < e.knownReceived || d.mayBlock) {
		d.ref(abs)
		return line{form: nameRef, index: abs, value: value, never: never}
	}
	return line{form: literalName, name: name, value: value, never: never}
}

// tryInsert inserts name and value when they fit without evicting an
// entry that is not evictable, and returns the new entry's absolute index.
func (e *conn) tryInsert(d *draft, name, value string) (uint64, bool) {
	if !e.canInsert(name, value, d.refs) {
		return 0, false
	}
	e.announce(d)
	d.es = e.appendInsert(d.es, name, value)
	abs := e.table.inserts()
	e.table.insert(name, value)
	return abs, true
}

// duplicate duplicates the entry of absolute index abs (§4.3.4) and
// returns the new entry's absolute index.
func (e *conn) duplicate(d *draft, abs uint64) uint64 {
	e.announce(d)
	rel := e.table.inserts() - 1 - abs
	if e.bug == DuplicateNeverInserted {
		rel = e.table.inserts()
	}
	d.es = appendDuplicate(d.es, rel)
	f := e.table.entries[abs-e.table.oldest]
	dup := e.table.inserts()
	e.table.insert(f.Name, f.Value)
	return dup
}

// announce writes the Set Dynamic Table Capacity owed before the first
// insertion (§3.2.3).
func (e *conn) announce(d *draft) {
	if e.announced {
		return
	}
	e.announced = true
	switch e.bug {
	case NoSetCapacity:
	case CapacityAboveMax:
		d.es = appendSetCapacity(d.es, e.settings.MaxTableCapacity+1)
	default:
		d.es = appendSetCapacity(d.es, e.table.capacity)
	}
}
