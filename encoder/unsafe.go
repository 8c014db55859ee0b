//go:build !purego

package encoder

import "unsafe"

// This file holds every use of package unsafe in the encoder: views of
// memory without a copy, and reads and writes without bounds checks on the
// hot paths, each valid because of what its callers guarantee (stated on
// each function). Built with the purego tag, safe.go replaces it with plain
// slice and string operations: the same results, with bounds checks, and
// with AppendField and AppendHuffman copying their []byte arguments (see
// the package doc).

// readOnlyString views b as a string without copying. AppendField's
// arguments are passed on this way: the encoder works on strings
// internally (two words an argument instead of three, which keeps
// appendField's arguments in registers), reads them only during the call,
// and copies what it keeps.
func readOnlyString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// newTableMemory returns the two hash indexes of a dynamic table, buckets
// chain heads each, and its arena of arenaBytes, all in one allocation:
// the Encoder, its ring and this block are all a new encoder allocates.
// None of it holds a pointer, so the garbage collector never scans it.
func newTableMemory(buckets uint32, arenaBytes int) (fields, names []uint32, arena []byte) {
	indexBytes := int(buckets) * 4
	// uint32 words keep the buckets aligned.
	words := make([]uint32, (2*indexBytes+arenaBytes+3)/4)
	arena = unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(words)), 2*indexBytes)), arenaBytes)
	return words[:buckets:buckets], words[buckets : 2*buckets : 2*buckets], arena
}

// entryAt returns the entry of ref without a bounds check: every ref the
// table hands out or keeps in its indexes and links, stale or live, is a
// ring position plus one, 1 <= ref <= len(ring).
func (t *dynamicTable) entryAt(ref uint32) *entry {
	return (*entry)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.ring)), uintptr(ref-1)*unsafe.Sizeof(entry{})))
}

// bucket returns the chain head of hash in index (fields or names), whose
// length is bucketMask+1, without a bounds check.
func (t *dynamicTable) bucket(index []uint32, hash uint32) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(index)), uintptr(hash&t.bucketMask)*4))
}

// equalAt reports whether the len(s) arena bytes at off are s, without
// the bounds checks of slicing: callers pass the offset of a live entry's
// name or value and a string of that name's or value's length, which lie
// below arenaHead.
func (t *dynamicTable) equalAt(off uint32, s string) bool {
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), off)), len(s)) == s
}

// The accessors below compose and split words with shifts rather than
// call encoding/binary, which the compiler turns into the same single
// loads and stores: a nested inlined call leaves a no-op marker
// instruction in the caller for each call, several per step of the
// Huffman coder's loops.

// load64At returns s[i:i+8] as a little-endian word, and load32At
// s[i:i+4]. The caller guarantees i+8 <= len(s) (or i+4); they do not
// check it again, which saves hashString a bounds check a word.
func load64At(s string, i int) uint64 {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func load32At(s string, i int) uint64 {
	b := (*[4]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24
}

// load16At returns s[i:i+2] as a little-endian word, and octetAt s[i].
// The caller guarantees i+2 <= len(s) (or i+1); they do not check it
// again, which saves a bounds check on every read of the Huffman coder's
// loops (each loop tests i against len(s) already).
func load16At(s string, i int) uint16 {
	b := (*[2]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	return uint16(b[0]) | uint16(b[1])<<8
}

func octetAt(s string, i int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
}

// put64 stores v big-endian at out[n:n+8]. The caller guarantees
// n+8 <= len(out); put64 does not check it again, which saves the bounds
// check and the slice arithmetic of out[n:] on every step of the loops.
func put64(out []byte, n int, v uint64) {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), n))
	b[0], b[1], b[2], b[3] = byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32)
	b[4], b[5], b[6], b[7] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}

// copyIn copies s into the arena at off, without the runtime's memmove
// call for strings of 8 to 16 bytes (most header names and many values):
// two overlapping 8-byte loads and stores. The caller guarantees
// off+len(s) <= len(t.arena).
func (t *dynamicTable) copyIn(off uint32, s string) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), off)
	if n := len(s); n >= 8 && n <= 16 {
		q := unsafe.Pointer(unsafe.StringData(s))
		*(*[8]byte)(p) = *(*[8]byte)(q)
		*(*[8]byte)(unsafe.Add(p, n-8)) = *(*[8]byte)(unsafe.Add(q, n-8))
		return
	}
	copy(unsafe.Slice((*byte)(p), len(s)), s)
}
