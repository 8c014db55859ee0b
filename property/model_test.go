package property

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// modelTable is the dynamic table of RFC 7541 §2.3.2 written as plainly as
// possible: a slice, newest entry first, with its size (§4.1) and maximum
// size. It shares nothing with the encoder but the RFC.
type modelTable struct {
	entries []oracle.Field
	size    uint32
	maxSize uint32
}

// entrySize is the size of an entry: name and value octets plus 32 (§4.1).
func entrySize(name, value string) uint32 {
	return uint32(len(name) + len(value) + spec.EntryOverhead)
}

// clone returns a copy that shares no memory with t.
func (t modelTable) clone() modelTable {
	t.entries = append([]oracle.Field(nil), t.entries...)
	return t
}

// setMaxSize changes the maximum size and evicts from the end until the
// table fits (§4.3).
func (t *modelTable) setMaxSize(n uint32) {
	t.maxSize = n
	t.evictTo(n)
}

func (t *modelTable) evictTo(n uint32) {
	for t.size > n {
		last := t.entries[len(t.entries)-1]
		t.entries = t.entries[:len(t.entries)-1]
		t.size -= entrySize(last.Name, last.Value)
	}
}

// add inserts a field as the newest entry, evicting the oldest entries
// until it fits; an entry larger than the maximum size empties the table
// and is not added (§4.4).
func (t *modelTable) add(name, value string) {
	es := entrySize(name, value)
	if es > t.maxSize {
		t.evictTo(0)
		return
	}
	t.evictTo(t.maxSize - es)
	t.entries = append([]oracle.Field{{Name: name, Value: value}}, t.entries...)
	t.size += es
}

// hasField reports whether name: value is in the static table or in t.
func (t *modelTable) hasField(name, value string) bool {
	if isStaticField(name, value) {
		return true
	}
	for _, f := range t.entries {
		if f.Name == name && f.Value == value {
			return true
		}
	}
	return false
}

// hasName reports whether the static table or t has an entry named name.
func (t *modelTable) hasName(name string) bool {
	for _, f := range spec.StaticTable {
		if f.Name == name {
			return true
		}
	}
	for _, f := range t.entries {
		if f.Name == name {
			return true
		}
	}
	return false
}

// diffTables describes the first difference between two tables, newest
// first, or returns "" when they are equal.
func diffTables(wantName string, want []oracle.Field, gotName string, got []oracle.Field) string {
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(want):
			return fmt.Sprintf("entry %d: %s has %s, %s has nothing (%d entries vs %d)", i, gotName, fieldString(got[i]), wantName, len(want), len(got))
		case i >= len(got):
			return fmt.Sprintf("entry %d: %s has %s, %s has nothing (%d entries vs %d)", i, wantName, fieldString(want[i]), gotName, len(want), len(got))
		case want[i].Name != got[i].Name || want[i].Value != got[i].Value:
			return fmt.Sprintf("entry %d: %s has %s, %s has %s", i, wantName, fieldString(want[i]), gotName, fieldString(got[i]))
		}
	}
	return ""
}

// fieldString shows a field compactly, cutting long values.
func fieldString(f oracle.Field) string {
	s := fmt.Sprintf("%s: %s", short(f.Name), short(f.Value))
	if f.Sensitive {
		s += " (never indexed)"
	}
	return s
}

// short quotes s, cutting it to 40 octets.
func short(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q...(%d octets)", s[:40], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// hexShort shows b in hex, cut to 48 octets.
func hexShort(b []byte) string {
	if len(b) > 48 {
		return fmt.Sprintf("%x...(%d octets)", b[:48], len(b))
	}
	return fmt.Sprintf("%x", b)
}

// fieldsString shows a list of fields on one line.
func fieldsString(fs []oracle.Field) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fieldString(f)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// isStaticField reports whether the static table holds name: value.
func isStaticField(name, value string) bool {
	for _, f := range spec.StaticTable {
		if f.Name == name && f.Value == value {
			return true
		}
	}
	return false
}
