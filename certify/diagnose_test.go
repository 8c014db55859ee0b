package certify

import (
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestDiagnoseModels checks each model's one departure from RFC 7541 on a
// table of maximum size 100: entries of 34 octets under the RFC's count
// ("a" and "b", 1 + 1 + 32), three of which fit.
func TestDiagnoseModels(t *testing.T) {
	models := map[string]*model{}
	for _, m := range newModels() {
		models[m.what] = m
	}
	field := func(v string) spec.Field { return spec.Field{Name: "a", Value: v} }
	tests := []struct {
		what string
		// apply runs on the model after the table is set to 100.
		apply func(m *model)
		want  []string // the values left, oldest first
	}{
		{"entries counted with 31 octets of overhead, not 32", func(m *model) {
			for _, v := range []string{"1", "2", "3"} {
				m.add(field(v))
			}
		}, []string{"1", "2", "3"}}, // 3 x 33 = 99 fits where the RFC's 102 does not
		{"entries counted with 33 octets of overhead, not 32", func(m *model) {
			for _, v := range []string{"1", "2", "3"} {
				m.add(field(v))
			}
		}, []string{"2", "3"}},
		{"a new entry evicts one entry fewer than it needs", func(m *model) {
			for _, v := range []string{"1", "2", "3", "4"} {
				m.add(field(v))
			}
		}, []string{"2", "3", "4"}}, // "3" needed one eviction and made none; "4" needed two and made one
		{"a new entry evicts one entry more than it needs", func(m *model) {
			for _, v := range []string{"1", "2", "3", "4"} {
				m.add(field(v))
			}
		}, []string{"3", "4"}}, // "3" needed one eviction and made two; "4" needed none
		{"a new entry evicts nothing", func(m *model) {
			for _, v := range []string{"1", "2", "3", "4"} {
				m.add(field(v))
			}
		}, []string{"1", "2", "3", "4"}},
		{"a smaller maximum size evicts nothing", func(m *model) {
			m.add(field("1"))
			m.add(field("2"))
			m.maxSize = 40 // a size update, as decode applies it
		}, []string{"1", "2"}},
		{"an entry larger than the table leaves the table as it was", func(m *model) {
			m.add(field("1"))
			m.add(spec.Field{Name: "a", Value: string(make([]byte, 100))})
		}, []string{"1"}},
	}
	for _, tt := range tests {
		m := models[tt.what]
		if m == nil {
			t.Fatalf("no model %q", tt.what)
		}
		m.maxSize = 100
		tt.apply(m)
		var got []string
		for _, e := range m.table {
			got = append(got, e.Value)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: table %q; want %q", tt.what, got, tt.want)
		}
	}
}

// TestUTF16Len checks the length a JavaScript string gives UTF-8 text: one
// unit per character of the Basic Multilingual Plane, two beyond it, one
// per invalid octet.
func TestUTF16Len(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want uint64
	}{{"abc", 3}, {"é", 1}, {"日本", 2}, {"😀", 2}, {"\xff\xfe", 2}, {"", 0}} {
		if got := utf16Len(tt.s); got != tt.want {
			t.Errorf("utf16Len(%q) = %d; want %d", tt.s, got, tt.want)
		}
	}
}

// TestDiagnoseModelsBounded checks that a model that never evicts, fed
// more than maxModelOctets of entries, goes out and lets its table go,
// whatever the table's maximum size: memory is bounded whatever the
// encoder sends.
func TestDiagnoseModelsBounded(t *testing.T) {
	var m *model
	for _, mm := range newModels() {
		if mm.noInsertEviction {
			m = mm
		}
	}
	m.maxSize = 1 << 40
	value := string(make([]byte, 1<<20))
	for i := 0; i < maxModelOctets>>20+1 && m.alive; i++ {
		m.add(spec.Field{Name: "a", Value: value})
	}
	if m.alive || m.table != nil || m.octets != 0 {
		t.Errorf("after %d MiB of entries: alive %v, %d entries, %d octets held; want out, nothing held", maxModelOctets>>20+1, m.alive, len(m.table), m.octets)
	}
}
