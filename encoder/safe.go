//go:build purego

package encoder

import "encoding/binary"

// This file is the purego twin of unsafe.go: the same functions with plain
// slice and string operations, bounds checked. The []byte arguments of
// AppendField and AppendHuffman are copied to strings here, which
// allocates for those longer than 32 bytes (see the package doc).

// readOnlyString returns b as a string: a copy in this build.
func readOnlyString(b []byte) string {
	return string(b)
}

// newTableMemory returns the two hash indexes of a dynamic table, buckets
// chain heads each, in one allocation, and its arena of arenaBytes in
// another.
func newTableMemory(buckets uint32, arenaBytes int) (fields, names []uint32, arena []byte) {
	words := make([]uint32, 2*buckets)
	return words[:buckets:buckets], words[buckets:], make([]byte, arenaBytes)
}

// entryAt returns the entry of ref, a ring position plus one.
func (t *dynamicTable) entryAt(ref uint32) *entry {
	return &t.ring[ref-1]
}

// bucket returns the chain head of hash in index (fields or names), whose
// length is bucketMask+1.
func (t *dynamicTable) bucket(index []uint32, hash uint32) *uint32 {
	return &index[hash&t.bucketMask]
}

// equalAt reports whether the len(s) arena bytes at off are s. (The
// compiler compares the converted slice without copying it.)
func (t *dynamicTable) equalAt(off uint32, s string) bool {
	return string(t.arena[off:int(off)+len(s)]) == s
}

// load64At returns s[i:i+8] as a little-endian word, and load32At
// s[i:i+4].
func load64At(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func load32At(s string, i int) uint64 {
	_ = s[i+3]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24
}

// load16At returns s[i:i+2] as a little-endian word, and octetAt s[i].
func load16At(s string, i int) uint16 {
	_ = s[i+1]
	return uint16(s[i]) | uint16(s[i+1])<<8
}

func octetAt(s string, i int) byte {
	return s[i]
}

// put64 stores v big-endian at out[n:n+8].
func put64(out []byte, n int, v uint64) {
	binary.BigEndian.PutUint64(out[n:], v)
}

// copyIn copies s into the arena at off.
func (t *dynamicTable) copyIn(off uint32, s string) { copy(t.arena[off:], s) }
