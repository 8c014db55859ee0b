package encoder

import (
	"math/bits"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// First bytes of the representations of RFC 7541 §6, with the number of
// bits of the integer prefix that follows the pattern.
const (
	indexedPattern        = 0x80 // §6.1 Indexed Header Field, 7-bit index
	incrementalPattern    = 0x40 // §6.2.1 with Incremental Indexing, 6-bit index
	withoutIndexPattern   = 0x00 // §6.2.2 without Indexing, 4-bit index
	neverIndexedPattern   = 0x10 // §6.2.3 Never Indexed, 4-bit index
	sizeUpdatePattern     = 0x20 // §6.3 Dynamic Table Size Update, 5-bit size
	huffmanPattern        = 0x80 // §5.2 H bit of a string literal, 7-bit length
	indexedPrefixBits     = 7
	incrementalPrefixBits = 6
	literalPrefixBits     = 4
	sizeUpdatePrefixBits  = 5
	stringPrefixBits      = 7
)

// AppendField appends the representation of the header field name: value
// to dst and returns the extended buffer. Pending dynamic table size
// updates come first (RFC 7541 §4.2). A sensitive field is sent "Never
// Indexed" (§6.2.3); others as the indexing policy decides (see the package
// doc). The encoder copies any bytes it keeps.
func (e *Encoder) AppendField(dst []byte, name, value []byte, sensitive bool) []byte {
	return e.appendField(dst, readOnlyString(name), readOnlyString(value), sensitive)
}

// AppendFieldString is AppendField for string arguments; it does not
// convert them and does not allocate.
func (e *Encoder) AppendFieldString(dst []byte, name, value string, sensitive bool) []byte {
	return e.appendField(dst, name, value, sensitive)
}

func (e *Encoder) appendField(dst []byte, name, value string, sensitive bool) []byte {
	if e.pending {
		dst = e.appendSizeUpdates(dst)
	}
	staticName, staticField, rule := staticLookup(name, value)
	// A static entry holds no secret of the caller's: unless the field
	// is marked sensitive, no rule changes its being sent as that entry.
	if staticField != 0 && !sensitive {
		return appendInteger(dst, indexedPattern, indexedPrefixBits, uint64(staticField))
	}

	neverIndexed := sensitive
	if rule != ruleNone && !e.indexAll && !neverIndexed {
		switch rule {
		case ruleNeverIndexed:
			neverIndexed = true
		case ruleCookie:
			neverIndexed = len(value) < e.shortCookieLen
		}
	}
	if neverIndexed {
		// A field marked sensitive names the static entry it equals
		// (the only way here with a static entry, see above).
		nameIndex := staticField
		if nameIndex == 0 {
			nameIndex = e.nameIndex(staticName, name)
		}
		return e.appendLiteral(dst, neverIndexedPattern, literalPrefixBits, nameIndex, name, value)
	}

	// Most repeated fields equal the newest entry with their name: try
	// it before hashing the value.
	var newest uint32
	var nameHash uint64
	if staticName != 0 {
		newest = e.table.newestStatic[staticName]
	} else {
		nameHash = hashString(e.hashKey, name)
		newest = e.table.findName(fold(nameHash), name)
	}
	if newest != 0 && e.table.valueEqual(newest, value) {
		return e.appendIndexed(dst, newest)
	}
	if rule >= ruleRarelyRepeats && !e.indexAll && rarelyRepeats(rule, value) {
		// Such fields never enter the table, so there is nothing
		// more to look up.
		return e.appendLiteral(dst, withoutIndexPattern, literalPrefixBits, staticName, name, value)
	}
	fieldHash := e.fieldHash(staticName, nameHash, value)
	// Without an entry of its name, the table has no entry of the field.
	if newest != 0 {
		if ref := e.table.findField(fieldHash, name, value); ref != 0 {
			return e.appendIndexed(dst, ref)
		}
	}

	nameIndex := staticName
	if newest != 0 && staticName == 0 {
		nameIndex = e.dynamicIndex(newest)
	}
	if !e.indexes(name, value) {
		return e.appendLiteral(dst, withoutIndexPattern, literalPrefixBits, nameIndex, name, value)
	}
	// The name index refers to the table before the insertion, even if
	// the insertion evicts the entry it names (RFC 7541 §4.4).
	dst = e.appendLiteral(dst, incrementalPattern, incrementalPrefixBits, nameIndex, name, value)
	e.table.add(name, value, fieldHash, fold(nameHash), staticName)
	return dst
}

// dynamicIndex returns the RFC 7541 index (§2.3.3) of dynamic entry ref.
func (e *Encoder) dynamicIndex(ref uint32) int {
	return int(e.table.position(ref)) + spec.StaticTableLen + 1
}

// appendIndexed appends an "Indexed Header Field" (RFC 7541 §6.1) for
// dynamic entry ref.
func (e *Encoder) appendIndexed(dst []byte, ref uint32) []byte {
	return appendInteger(dst, indexedPattern, indexedPrefixBits, uint64(e.dynamicIndex(ref)))
}

// longPathLen is the longest ":path" value DefaultPolicy indexes: longer
// paths mostly carry resource ids that do not repeat (see the package doc).
const longPathLen = 28

// rarelyRepeats reports whether DefaultPolicy's name rules send a field
// whose static name has this rule "without Indexing" because its value
// rarely repeats.
func rarelyRepeats(rule nameRule, value string) bool {
	switch rule {
	case rulePath:
		return len(value) > longPathLen || strings.IndexByte(value, '?') >= 0
	case ruleRarelyRepeats:
		return true
	}
	return false
}

// indexes reports whether the size rules let the field into the dynamic
// table: the giant-field fallback and LargeEntryPercent.
func (e *Encoder) indexes(name, value string) bool {
	entrySize := uint64(len(name)) + uint64(len(value)) + spec.EntryOverhead
	maxSize := uint64(e.table.maxSize)
	if entrySize > maxSize {
		return false // the giant-field fallback: the table is left alone
	}
	return e.indexAll || entrySize*100 <= maxSize*e.largeEntryPercent
}

// nameIndex returns the RFC 7541 index of name, 0 if neither table has
// it, preferring the static table (shorter integers).
func (e *Encoder) nameIndex(staticName int, name string) int {
	if staticName != 0 {
		return staticName
	}
	if ref := e.table.findName(fold(hashString(e.hashKey, name)), name); ref != 0 {
		return e.dynamicIndex(ref)
	}
	return 0
}

// fieldHash returns the key of a name and value in the dynamic table's
// field index. A name from the static table is keyed by its static index
// rather than hashed.
func (e *Encoder) fieldHash(staticName int, nameHash uint64, value string) uint32 {
	if staticName != 0 {
		nameHash = uint64(staticName) * e.staticNameSalt
	}
	return fold(hashString(e.hashKey, value) ^ bits.RotateLeft64(nameHash, 31))
}

// fold reduces a 64-bit hash to the 32 bits the indexes keep.
func fold(h uint64) uint32 { return uint32(h ^ h>>32) }

// appendLiteral appends a literal header field representation (RFC 7541
// §6.2) with the given pattern: the name by index when nameIndex is not 0,
// else as a string literal, then the value as a string literal.
func (e *Encoder) appendLiteral(dst []byte, pattern byte, prefixBits uint8, nameIndex int, name, value string) []byte {
	dst = appendInteger(dst, pattern, prefixBits, uint64(nameIndex))
	if nameIndex == 0 {
		dst = e.appendString(dst, name)
	}
	return e.appendString(dst, value)
}

// appendString appends a string literal (RFC 7541 §5.2), Huffman coded or
// raw as the policy's HuffmanMode says. It is small enough to inline, so
// that a literal costs one call.
func (e *Encoder) appendString(dst []byte, s string) []byte {
	return appendStringLiteral(dst, 0, stringPrefixBits, s, len(s)-1+huffmanSlack[e.huffman&3])
}

// huffmanSlack is, under each HuffmanMode, how many octets past len(s)-1
// the Huffman code of s may take: under HuffmanNever, so far below that no
// code is tried.
var huffmanSlack = [4]int{HuffmanShorter: 0, HuffmanNotLonger: 1, HuffmanNever: -1 << 40}

// appendSizeUpdates appends the pending dynamic table size updates
// (RFC 7541 §6.3): the smallest size set since the last field, then the
// final size if different; none if both equal the size last signalled.
func (e *Encoder) appendSizeUpdates(dst []byte) []byte {
	final := e.table.maxSize
	if e.pendingMin != final || final != e.signalled {
		dst = appendInteger(dst, sizeUpdatePattern, sizeUpdatePrefixBits, uint64(e.pendingMin))
	}
	if e.pendingMin != final {
		dst = appendInteger(dst, sizeUpdatePattern, sizeUpdatePrefixBits, uint64(final))
	}
	e.signalled = final
	e.pending = false
	return dst
}

// appendInteger appends v as an integer with a prefixBits-bit prefix
// (RFC 7541 §5.1), 1 <= prefixBits <= 8, the first byte's high bits set to
// pattern, using the fewest bytes.
func appendInteger(dst []byte, pattern byte, prefixBits uint8, v uint64) []byte {
	limit := uint64(1)<<(prefixBits&15) - 1
	if v < limit {
		return append(dst, pattern|byte(v))
	}
	dst = append(dst, pattern|byte(limit))
	v -= limit
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// integerLen returns the number of bytes appendInteger writes for v.
func integerLen(prefixBits uint8, v uint64) int {
	limit := uint64(1)<<(prefixBits&15) - 1
	if v < limit {
		return 1
	}
	n := 2
	for rest := (v - limit) >> 7; rest > 0; rest >>= 7 {
		n++
	}
	return n
}
