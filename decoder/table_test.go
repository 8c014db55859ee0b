package decoder

import (
	"fmt"
	"strings"
	"testing"
)

// tableFields returns the table's entries, newest first, as "name: value".
func tableFields(t *dynamicTable) []string {
	var out []string
	for i := range t.len() {
		name, value := t.field(i)
		out = append(out, string(name)+": "+string(value))
	}
	return out
}

func checkTable(t *testing.T, tab *dynamicTable, size uint32, want ...string) {
	t.Helper()
	checkArena(t, tab)
	got := tableFields(tab)
	if strings.Join(got, "|") != strings.Join(want, "|") || tab.size != size {
		t.Fatalf("table %q of size %d; want %q of size %d", got, tab.size, want, size)
	}
}

// checkArena checks the arena's layout: the live entries lie in insertion
// order with no gap, the newest ending at arenaHead. Reading the entries
// back cannot tell this: after a compaction that forgot to move an entry's
// offset, the octets it points at are often still there.
func checkArena(t *testing.T, tab *dynamicTable) {
	t.Helper()
	end := tab.arenaHead
	for i := range tab.len() {
		e := tab.ring[(tab.head-1-i)&tab.ringMask]
		if e.off+e.nameLen+e.valueLen != end {
			t.Fatalf("entry %d ends at %d, not at %d where the next newer one starts", i, e.off+e.nameLen+e.valueLen, end)
		}
		end = e.off
	}
}

// TestTableEvictionOrder adds entries to a table that holds three and
// checks the oldest goes first (RFC 7541 §4.4), with the size counting 32
// octets per entry (§4.1), empty ones included.
func TestTableEvictionOrder(t *testing.T) {
	tab := newTable(3 * (32 + 2))
	tab.add([]byte("a"), []byte("1"))
	tab.add([]byte("b"), []byte("2"))
	checkTable(t, &tab, 68, "b: 2", "a: 1")
	tab.add([]byte("c"), []byte("3"))
	checkTable(t, &tab, 102, "c: 3", "b: 2", "a: 1")
	tab.add([]byte("d"), []byte("4"))
	checkTable(t, &tab, 102, "d: 4", "c: 3", "b: 2")
	tab.add([]byte(""), []byte(""))
	checkTable(t, &tab, 32+34+34, ": ", "d: 4", "c: 3")
	// An entry of 2*34 octets evicts the two oldest, not the newest.
	tab.add([]byte("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"), nil)
	checkTable(t, &tab, 32+68, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee: ", ": ")
}

// TestTableEntryTooLarge checks that an entry larger than the maximum
// size empties the table and is not added (RFC 7541 §4.4), and that one of
// exactly the maximum size fits.
func TestTableEntryTooLarge(t *testing.T) {
	tab := newTable(100)
	tab.add([]byte("a"), []byte("1"))
	tab.add([]byte("n"), []byte(strings.Repeat("v", 68)))
	checkTable(t, &tab, 0)
	tab.add([]byte("a"), []byte("1"))
	tab.add([]byte("n"), []byte(strings.Repeat("v", 67)))
	checkTable(t, &tab, 100, "n: "+strings.Repeat("v", 67))
}

// TestTableSizeUpdate checks that a size update evicts down to the new
// size, that a lowered size bounds insertions, and that a size above what
// newTable allocated for grows the memory only once the entries need it,
// keeping them.
func TestTableSizeUpdate(t *testing.T) {
	tab := newTable(200)
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		tab.add([]byte(s), []byte(s))
	}
	checkTable(t, &tab, 170, "e: e", "d: d", "c: c", "b: b", "a: a")
	tab.setMaxSize(100)
	checkTable(t, &tab, 68, "e: e", "d: d")
	// The lowered size bounds insertions until raised again.
	tab.add([]byte("f"), []byte("f"))
	tab.add([]byte("g"), []byte("g"))
	checkTable(t, &tab, 68, "g: g", "f: f")
	tab.setMaxSize(0)
	checkTable(t, &tab, 0)
	tab.add([]byte("h"), []byte("h"))
	checkTable(t, &tab, 0)
	tab.setMaxSize(1000)
	if tab.capacity != 200 {
		t.Fatalf("a size update to 1000 gave memory for %d octets, want none yet (200)", tab.capacity)
	}
	for _, s := range []string{"i", "j", "k", "l", "m", "n", "o"} {
		tab.add([]byte(s), []byte(s))
	}
	checkTable(t, &tab, 238, "o: o", "n: n", "m: m", "l: l", "k: k", "j: j", "i: i")
	if tab.capacity != 400 {
		t.Fatalf("238 octets of entries in memory for 200: grew to %d, want 400 (doubled)", tab.capacity)
	}
	checkArena(t, &tab)
}

// TestTableCompaction inserts many entries of varied sizes and checks
// every entry against a model after each insertion, so that entries are
// read back right across compactions of the arena.
func TestTableCompaction(t *testing.T) {
	const capacity = 300
	tab := newTable(capacity)
	var model []string // newest first
	size, compactions := 0, 0
	for i := range 2000 {
		name := fmt.Sprintf("n%d", i%7)
		value := strings.Repeat(string(rune('a'+i%26)), (i*37)%120)
		before := tab.arenaHead
		tab.add([]byte(name), []byte(value))
		if tab.count >= 2 && tab.arenaHead < before { // an older entry lived through it
			compactions++
		}
		es := len(name) + len(value) + 32
		for size+es > capacity && len(model) > 0 {
			last := model[len(model)-1]
			size -= len(last) - 2 + 32
			model = model[:len(model)-1]
		}
		if es <= capacity {
			model = append([]string{name + ": " + value}, model...)
			size += es
		}
		checkTable(t, &tab, uint32(size), model...)
	}
	if compactions == 0 {
		t.Fatal("the arena was never compacted: the test does not test it")
	}
}
