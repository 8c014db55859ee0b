package qencoder

import "github.com/hpackcert/hpackcert/internal/qspec"

// staticName is one name of the QPACK static table (RFC 9204 Appendix A):
// the index of its first entry, for a name reference, and every entry
// with that name, for an exact match.
type staticName struct {
	index  uint8
	values []staticValue
}

// staticValue is one static entry of a name: its value and its index.
type staticValue struct {
	value string
	index uint8
}

// staticNames maps each static name to its entries. It is built once from
// qspec.StaticTable and only read after, so lookups by a string key
// allocate nothing. No name has more than 11 entries (content-type), so a
// scan of its values is cheaper than a second map.
var staticNames = buildStaticNames()

func buildStaticNames() map[string]*staticName {
	m := make(map[string]*staticName)
	for i, f := range qspec.StaticTable {
		n := m[f.Name]
		if n == nil {
			n = &staticName{index: uint8(i)}
			m[f.Name] = n
		}
		n.values = append(n.values, staticValue{f.Value, uint8(i)})
	}
	return m
}

// staticLookup returns the static index of the first entry named name and
// whether there is one, and the index of the entry equal to name: value
// and whether there is one.
func staticLookup(name, value string) (nameIndex uint8, hasName bool, fieldIndex uint8, hasField bool) {
	n := staticNames[name]
	if n == nil {
		return 0, false, 0, false
	}
	for _, v := range n.values {
		if v.value == value {
			return n.index, true, v.index, true
		}
	}
	return n.index, true, 0, false
}
