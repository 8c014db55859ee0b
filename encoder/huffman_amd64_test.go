//go:build !purego

package encoder

import (
	"testing"
	"unsafe"
)

// TestHuffTablesLayout checks the offsets huffman_amd64.s reads
// huffTables' arrays at.
func TestHuffTablesLayout(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pairCodes", unsafe.Offsetof(huffTables.pairCodes), 0},
		{"pairLens", unsafe.Offsetof(huffTables.pairLens), offPairLens},
		{"octetCodes", unsafe.Offsetof(huffTables.octetCodes), offOctetCodes},
		{"octetLens", unsafe.Offsetof(huffTables.octetLens), offOctetLens},
	} {
		if c.got != c.want {
			t.Errorf("huffTables.%s at offset %d; huffman_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
}
