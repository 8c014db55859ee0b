package qencoder

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/qspec"
)

// TestStaticLookup checks the generated staticLookup against a scan of
// qspec.StaticTable for every static name with every static value, and
// for names and values near them: the first entry of the name, the entry
// of the name and value.
func TestStaticLookup(t *testing.T) {
	var names, values []string
	for _, f := range qspec.StaticTable {
		names = append(names, f.Name, f.Name+"x", f.Name[:len(f.Name)-1])
		values = append(values, f.Value, f.Value+" ")
	}
	names = append(names, "", "X-Custom")
	for _, name := range names {
		for _, value := range values {
			var wantName, wantField uint8
			hasName, hasField := false, false
			for i, f := range qspec.StaticTable {
				if f.Name == name && !hasName {
					wantName, hasName = uint8(i), true
				}
				if f.Name == name && f.Value == value && !hasField {
					wantField, hasField = uint8(i), true
				}
			}
			gotName, gotHasName, gotField, gotHasField := staticLookup(name, value)
			if gotName != wantName || gotHasName != hasName || gotField != wantField || gotHasField != hasField {
				t.Fatalf("staticLookup(%q, %q) = %d, %v, %d, %v; want %d, %v, %d, %v", name, value, gotName, gotHasName, gotField, gotHasField, wantName, hasName, wantField, hasField)
			}
		}
	}
}
