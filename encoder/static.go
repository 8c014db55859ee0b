package encoder

import "github.com/hpackcert/hpackcert/internal/spec"

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
// (0 if none). It costs one hash and at most one name comparison plus one
// value comparison per entry sharing the name (seven for ":status").
func staticLookup(name, value []byte) (nameIndex, fieldIndex int) {
	if len(name) < minStaticNameLen || len(name) > maxStaticNameLen {
		return 0, 0
	}
	s := staticNames[staticNameHash(name)]
	if s.index == 0 || spec.StaticTable[s.index-1].Name != string(name) {
		return 0, 0
	}
	first := int(s.index)
	for i := first; i < first+int(s.count); i++ {
		if spec.StaticTable[i-1].Value == string(value) {
			return first, i
		}
	}
	return first, 0
}
