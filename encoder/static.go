package encoder

import (
	"math/bits"

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
	staticLastModified       = 44
	staticLocation           = 46
	staticProxyAuthorization = 49
	staticSetCookie          = 55
)

// staticSlot is one slot of the generated staticNames table.
type staticSlot struct {
	index uint8 // RFC index of the first entry with the name; 0 if empty
	count uint8 // number of consecutive entries with the name
}

// staticNameHash hashes a name of at least minStaticNameLen bytes, given
// its wordsOf, into staticNames. gen.go holds the same function; the
// multiplier it found makes the hash collision-free over the static names.
func staticNameHash(n int, head, tail uint64) uint32 {
	key := head ^ bits.RotateLeft64(tail, 31) ^ uint64(n)
	return uint32((key * staticHashMul) >> (64 - staticHashBits))
}

// staticNameSlot is staticNames[h] with the words of the name it holds,
// so that a lookup loads one slot, the length of the longest static value
// with that name, so that most values need no comparing, and the name's
// rule under the indexing policy.
type staticNameSlot struct {
	words
	staticSlot
	maxValueLen uint8
	rule        nameRule
}

// nameRule is what the indexing policy's name rules (see Policy) do with
// fields of a static name, unless IndexAll is set.
type nameRule uint8

const (
	ruleNone          nameRule = iota
	ruleNeverIndexed           // authorization, proxy-authorization: "Never Indexed"
	ruleCookie                 // cookie: "Never Indexed" when short
	ruleRarelyRepeats          // values that rarely repeat: "without Indexing"
	rulePath                   // :path: "without Indexing" when long or with a query
)

// staticNameRule returns the rule of the static name with RFC index i.
func staticNameRule(i int) nameRule {
	switch i {
	case staticAuthorization, staticProxyAuthorization:
		return ruleNeverIndexed
	case staticCookie:
		return ruleCookie
	case staticPath:
		return rulePath
	case staticAge, staticContentLength, staticETag, staticIfModifiedSince,
		staticIfNoneMatch, staticLastModified, staticLocation, staticSetCookie:
		return ruleRarelyRepeats
	}
	return ruleNone
}

// staticNameSlots is staticNames with the words of each name, built at
// start-up from spec.StaticTable.
var staticNameSlots = func() (slots [len(staticNames)]staticNameSlot) {
	for h, s := range staticNames {
		slots[h].staticSlot = s
		if s.index != 0 {
			name := spec.StaticTable[s.index-1].Name
			head, tail := wordsOf(name)
			slots[h].words = words{len(name), head, tail}
			slots[h].rule = staticNameRule(int(s.index))
			for _, f := range spec.StaticTable[s.index-1 : s.index-1+s.count] {
				slots[h].maxValueLen = max(slots[h].maxValueLen, uint8(len(f.Value)))
			}
		}
	}
	return slots
}()

// staticLookup returns the RFC 7541 index of the first static entry named
// name (0 if none), the index of the static entry equal to name and value
// (0 if none) and the name's rule (ruleNone if not a static name). It costs one hash of the name's words (see wordsOf) and a few
// word compares, plus a byte compare of the middle of names over 16 bytes.
func staticLookup(name, value string) (nameIndex, fieldIndex int, rule nameRule) {
	n := len(name)
	if n < minStaticNameLen || n > maxStaticNameLen {
		return 0, 0, ruleNone
	}
	head, tail := wordsOf(name)
	s := &staticNameSlots[staticNameHash(n, head, tail)]
	// An empty slot has length 0.
	if s.len != n || s.head != head || s.tail != tail {
		return 0, 0, ruleNone
	}
	if n > 16 && spec.StaticTable[s.index-1].Name[8:n-8] != name[8:n-8] {
		return 0, 0, ruleNone
	}
	first := int(s.index)
	if len(value) > int(s.maxValueLen) {
		return first, 0, s.rule
	}
	head, tail = wordsOf(value)
	for i := first; i < first+int(s.count); i++ {
		if v := &staticValueWords[i]; v.len == len(value) && v.head == head && v.tail == tail {
			return first, i, s.rule
		}
	}
	return first, 0, s.rule
}

// words holds a string's length and its wordsOf: the first and the last
// 8 bytes (4 for strings of 4 to 7 bytes; the first, middle and last byte
// of shorter ones), so that strings of equal length up to 16 bytes are
// equal exactly when their words are; longer strings also need their
// middles compared.
type words struct {
	len        int
	head, tail uint64
}

// staticValueWords holds the words of the value of each static entry, by
// RFC index; index 0 is all zero. It is computed from spec.StaticTable at
// start-up (61 entries).
var staticValueWords = func() (values [spec.StaticTableLen + 1]words) {
	for i, f := range spec.StaticTable {
		head, tail := wordsOf(f.Value)
		values[i+1] = words{len(f.Value), head, tail}
	}
	return values
}()
