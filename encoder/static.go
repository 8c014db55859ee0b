package encoder

import (
	"encoding/binary"

	"github.com/hpackcert/hpackcert/internal/spec"
)

//go:generate go run gen.go -output tables.go

// RFC 7541 Appendix A indices of the static names the indexing policy
// looks at. TestStaticIndexConstants checks them against spec.StaticTable.
const (
	staticPath               = 4
	staticAge                = 21
	staticAuthorization      = 23
	staticContentLength      = 28
	staticCookie             = 32
	staticETag               = 34
	staticIfModifiedSince    = 40
	staticIfNoneMatch        = 41
	staticLocation           = 46
	staticProxyAuthorization = 49
	staticSetCookie          = 55
)

// staticSlot is one slot of the generated staticNames table.
type staticSlot struct {
	index uint8 // RFC index of the first entry with the name; 0 if empty
	count uint8 // number of consecutive entries with the name
}

// staticNameHash hashes a name of at least minStaticNameLen bytes into
// staticNames. gen.go holds the same function; the multiplier it found
// makes the hash collision-free over the static names.
func staticNameHash(name []byte) uint32 {
	n := len(name)
	key := uint32(n) | uint32(name[0])<<8 | uint32(name[n-2])<<16 | uint32(name[n-1])<<24
	return (key * staticHashMul) >> (32 - staticHashBits)
}

// staticLookup returns the RFC 7541 index of the first static entry named
// name (0 if none) and the index of the static entry equal to name and value
// (0 if none). It costs one hash and a few word compares (see wordsOf),
// plus a byte compare of the middle of names over 16 bytes.
func staticLookup(name, value []byte) (nameIndex, fieldIndex int) {
	n := len(name)
	if n < minStaticNameLen || n > maxStaticNameLen {
		return 0, 0
	}
	s := staticNames[staticNameHash(name)]
	w := &staticNameWords[s.index] // an empty slot gives index 0, length 0
	if int(w.len) != n {
		return 0, 0
	}
	if head, tail := wordsOf(name); head != w.head || tail != w.tail {
		return 0, 0
	}
	if n > 16 && spec.StaticTable[s.index-1].Name[8:n-8] != string(name[8:n-8]) {
		return 0, 0
	}
	first := int(s.index)
	if len(value) > 16 {
		return first, 0 // no static value is that long
	}
	head, tail := wordsOf(value)
	for i := first; i < first+int(s.count); i++ {
		if v := &staticValueWords[i]; int(v.len) == len(value) && v.head == head && v.tail == tail {
			return first, i
		}
	}
	return first, 0
}

// words holds a string's length and wordsOf.
type words struct {
	len        int
	head, tail uint64
}

// staticNameWords and staticValueWords hold the words of the name and of
// the value of each static entry, by RFC index; index 0 is all zero. They
// are computed from spec.StaticTable at start-up (61 entries); unlike
// staticNames they need no search.
var staticNameWords, staticValueWords = func() (names, values [spec.StaticTableLen + 1]words) {
	for i, f := range spec.StaticTable {
		head, tail := wordsOf([]byte(f.Name))
		names[i+1] = words{len(f.Name), head, tail}
		head, tail = wordsOf([]byte(f.Value))
		values[i+1] = words{len(f.Value), head, tail}
	}
	return names, values
}()

// wordsOf returns the first and the last bytes of b as two words, so that
// strings of equal length up to 16 bytes are equal exactly when their
// words are; longer strings also need their middles compared.
func wordsOf(b []byte) (head, tail uint64) {
	n := len(b)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}
