package strict

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
)

func TestDynamicTableEviction(t *testing.T) {
	// Entries of 32+1+1 = 34 octets; a 100-octet table holds two.
	table := dynamicTable{maxSize: 100}
	for _, name := range []string{"a", "b", "c"} {
		table.add(spec.Field{Name: name, Value: "v"})
	}
	got := []string{table.entry(0).Name, table.entry(1).Name}
	if want := []string{"c", "b"}; table.len() != 2 || !slices.Equal(got, want) {
		t.Fatalf("got %d entries, newest %v; want 2, %v (the oldest evicted first, §4.4)", table.len(), got, want)
	}
	if table.size != 68 {
		t.Errorf("got size %d; want 68", table.size)
	}
	table.setMaxSize(40)
	if table.len() != 1 || table.entry(0).Name != "c" || table.size != 34 {
		t.Errorf("after setMaxSize(40): %d entries, size %d; want only c, 34 (§4.3)", table.len(), table.size)
	}
	table.setMaxSize(0)
	if table.len() != 0 || table.size != 0 {
		t.Errorf("after setMaxSize(0): %d entries, size %d; want empty", table.len(), table.size)
	}
}

func TestDynamicTableEntryLargerThanMax(t *testing.T) {
	table := dynamicTable{maxSize: 100}
	table.add(spec.Field{Name: "a", Value: "v"})
	table.add(spec.Field{Name: "big", Value: strings.Repeat("x", 100)})
	if table.len() != 0 || table.size != 0 {
		t.Errorf("got %d entries, size %d; want an empty table: an entry larger than the maximum empties it and is not added (§4.4)", table.len(), table.size)
	}
}

func TestDynamicTableExactFit(t *testing.T) {
	table := dynamicTable{maxSize: 34}
	table.add(spec.Field{Name: "a", Value: "v"})
	if table.len() != 1 || table.size != 34 {
		t.Errorf("got %d entries, size %d; want the 34-octet entry kept in a 34-octet table", table.len(), table.size)
	}
}
