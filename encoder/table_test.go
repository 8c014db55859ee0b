package encoder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// modelTable is the dynamic table of RFC 7541 §2.3.2 and §4 written as
// plainly as possible: a slice, newest first.
type modelTable struct {
	entries []spec.Field
	maxSize uint32
}

func (m *modelTable) size() uint32 {
	var size uint32
	for _, f := range m.entries {
		size += f.Size()
	}
	return size
}

func (m *modelTable) evictTo(limit uint32) {
	for m.size() > limit {
		m.entries = m.entries[:len(m.entries)-1]
	}
}

func (m *modelTable) setMaxSize(n uint32) {
	m.maxSize = n
	m.evictTo(n)
}

// encode applies IndexAllPolicy to a non-sensitive field and reports the
// bytes it added to the table: a field the static or the dynamic table
// holds is referenced, one that does not fit is not indexed, any other
// is added after evicting what §4.4 says.
func (m *modelTable) encode(f spec.Field) (inserted int) {
	for _, s := range spec.StaticTable {
		if s == f {
			return 0
		}
	}
	for _, e := range m.entries {
		if e == f {
			return 0
		}
	}
	if f.Size() > m.maxSize {
		return 0
	}
	m.evictTo(m.maxSize - f.Size())
	m.entries = append([]spec.Field{f}, m.entries...)
	return len(f.Name) + len(f.Value)
}

// checkModel fails unless enc's table has the model's entries, bytes and
// order.
func checkModel(t *testing.T, where string, enc *Encoder, m *modelTable) {
	t.Helper()
	if enc.TableLen() != len(m.entries) || enc.TableSize() != m.size() || enc.MaxTableSize() != m.maxSize {
		t.Fatalf("%s: encoder has %d entries, size %d, max %d; model has %d, %d, %d", where,
			enc.TableLen(), enc.TableSize(), enc.MaxTableSize(), len(m.entries), m.size(), m.maxSize)
	}
	for i, f := range m.entries {
		name, value := enc.TableEntry(i)
		if string(name) != f.Name || string(value) != f.Value {
			t.Fatalf("%s: entry %d is %q: %q; model has %q: %q", where, i, name, value, f.Name, f.Value)
		}
	}
}

// TestChurnMatchesModel runs long random sequences of fields and size
// changes and compares the table with the model after every step. It also
// checks that compaction happens, and at most once per half of the table's
// memory size of bytes inserted, and that the encoder copied the caller's
// bytes. At Capacity 10000 the size changes grow the memory from 4096.
func TestChurnMatchesModel(t *testing.T) {
	steps := 20000
	if testing.Short() {
		steps = 2000
	}
	for _, capacity := range []uint32{64, 256, 700, 4096, 10000} {
		t.Run(fmt.Sprint(capacity), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(capacity), 7))
			enc := New(Config{Capacity: capacity, Policy: IndexAllPolicy()})
			m := &modelTable{maxSize: min(capacity, spec.DefaultTableSize)}
			names := []string{"user-agent", "cookie", "x-a", "x-bb", "x-request-identifier", ":status", "accept", "via", ""}
			values := make([]string, 40)
			for i := range values {
				values[i] = randomString(rng, rng.IntN(int(capacity)/2+2))
			}
			values[0], values[1] = "", "200"
			var nameBuf, valueBuf []byte
			inserted := 0
			for step := range steps {
				where := fmt.Sprintf("step %d", step)
				if rng.IntN(50) == 0 {
					n := rng.Uint32N(capacity + capacity/2 + 1)
					enc.SetMaxDynamicTableSize(n)
					m.setMaxSize(min(n, capacity))
					checkModel(t, where+" (size change)", enc, m)
					continue
				}
				f := spec.Field{Name: names[rng.IntN(len(names))], Value: values[rng.IntN(len(values))]}
				nameBuf = append(nameBuf[:0], f.Name...)
				valueBuf = append(valueBuf[:0], f.Value...)
				enc.AppendField(nil, nameBuf, valueBuf, false)
				for i := range nameBuf {
					nameBuf[i] = '#'
				}
				for i := range valueBuf {
					valueBuf[i] = '#'
				}
				inserted += m.encode(f)
				checkModel(t, where, enc, m)
			}
			compactions := enc.table.compactions
			// A 64-byte table holds one entry at a time and empties
			// before each insertion, so it never compacts.
			if compactions == 0 && capacity > 64 {
				t.Errorf("no compaction in %d steps", steps)
			}
			if limit := 2*inserted/int(min(capacity, spec.DefaultTableSize)) + 1; compactions > limit {
				t.Errorf("%d compactions for %d bytes inserted; want at most %d", compactions, inserted, limit)
			}
		})
	}
}

// TestGrowKeepsOutput encodes the raw-data stories on two encoders of
// Capacity 65536 whose peer raises the table size from 4096 to 65536
// after the first block of each story: one grows its memory then, the
// other had it already. Their output must be the same.
func TestGrowKeepsOutput(t *testing.T) {
	grown := New(Config{Capacity: 65536})
	grown.SetMaxDynamicTableSize(65536)
	for _, s := range readRawStories(t) {
		growing := New(Config{Capacity: 65536})
		grown.Reset()
		for i, block := range s.blocks {
			if i == 1 {
				growing.SetMaxDynamicTableSize(65536)
				grown.SetMaxDynamicTableSize(65536)
				if growing.table.capacity != 65536 {
					t.Fatalf("%s: memory for a table of %d after SetMaxDynamicTableSize(65536); want 65536", s.name, growing.table.capacity)
				}
			}
			var want, got []byte
			for _, f := range block {
				want = grown.AppendFieldString(want, f.Name, f.Value, false)
				got = growing.AppendFieldString(got, f.Name, f.Value, false)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, block %d: %x after growing; want %x", s.name, i, got, want)
			}
		}
	}
}

// TestIndexCollisions drives the dynamic table's indexes with a hash that
// puts every key into one of four buckets, so chains are long and run
// through evicted entries and reused ring slots, and checks every lookup
// against a scan of the live entries.
func TestIndexCollisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	table := newTable(1024)
	weakHash := func(s string) uint32 { return uint32(len(s) % 4) }
	var live []spec.Field // newest first
	keys := make([]spec.Field, 60)
	for i := range keys {
		keys[i] = spec.Field{Name: fmt.Sprintf("n%d", i%7), Value: fmt.Sprintf("v%0*d", i%5, i)}
	}
	for step := range 5000 {
		f := keys[rng.IntN(len(keys))]
		fieldHash, nameHash := weakHash(f.Name+f.Value), weakHash(f.Name)
		if table.findField(fieldHash, f.Name, f.Value) == 0 {
			table.add(f.Name, f.Value, fieldHash, nameHash, 0)
			live = append([]spec.Field{f}, live...)
			var size uint32
			for i, e := range live {
				size += e.Size()
				if size > table.maxSize {
					live = live[:i]
					break
				}
			}
		}
		for _, k := range keys {
			wantField, wantName := -1, -1
			for i, e := range live {
				if wantName < 0 && e.Name == k.Name {
					wantName = i
				}
				if wantField < 0 && e == k {
					wantField = i
				}
			}
			ref := table.findField(weakHash(k.Name+k.Value), k.Name, k.Value)
			if got := position(&table, ref); got != wantField {
				t.Fatalf("step %d: findField(%v) = %d; want %d", step, k, got, wantField)
			}
			ref = table.findName(weakHash(k.Name), k.Name)
			if got := position(&table, ref); got != wantName {
				t.Fatalf("step %d: findName(%q) = %d; want %d", step, k.Name, got, wantName)
			}
		}
	}
}

// position returns the 0-based position of entry ref, -1 for ref 0.
func position(t *dynamicTable, ref uint32) int {
	if ref == 0 {
		return -1
	}
	return int(t.position(ref))
}

// TestChainStaleLinks builds the case where an entry lands in the ring
// slot of its own bucket's evicted head, so that its chain link points at
// itself, and checks that lookups end and find the right entries. A 128-byte
// table holds three 34-byte entries in a ring of four slots.
func TestChainStaleLinks(t *testing.T) {
	table := newTable(128)
	hash := func(name string) uint32 { // two buckets: "x" and "y"
		if name == "x" {
			return 0
		}
		return 1
	}
	add := func(name, value string) {
		table.add(name, value, hash(name), hash(name), 0)
	}
	add("x", "1") // slot 0
	add("y", "1") // slot 1
	add("y", "2") // slot 2
	add("y", "3") // slot 3, evicts x1: bucket "x" now heads a dead entry
	add("x", "2") // slot 0 again, evicts y1: linked to its own slot
	if table.count != 3 || table.ring[0].nextField != 1 {
		t.Fatalf("setup: %d entries, slot 0 links to %d; want 3 entries and a link to ref 1", table.count, table.ring[0].nextField)
	}
	// A chain link that loops would make a lookup run for ever: the test
	// binary's -timeout ends it then, with the lookup's stack.
	got := [4]int{
		position(&table, table.findField(0, "x", "1")),
		position(&table, table.findField(0, "x", "2")),
		position(&table, table.findName(0, "x")),
		position(&table, table.findField(1, "y", "1")),
	}
	if want := [4]int{-1, 0, 0, -1}; got != want {
		t.Errorf("positions of x1, x2, name x, y1 = %v; want %v", got, want)
	}
}
