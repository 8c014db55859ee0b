package broken

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

// DecoderBugs is a set of planted bugs of the broken decoder, one bit
// each; 0 is a correct decoder that decodes as oracle/strict does. Each
// bug breaks one rule of RFC 7541 (or the header-list limit of RFC 9113
// §6.5.2), as a real decoder has been seen to.
type DecoderBugs uint32

// The decoder's bugs, each named after what it gets wrong.
const (
	// AcceptIndexZero decodes the indexed field of index 0 (§6.1) as a
	// field with an empty name and an empty value.
	AcceptIndexZero DecoderBugs = 1 << iota
	// DynamicIndexOffByOne counts the dynamic table from 61: index 62 is
	// the second newest entry, and the oldest has no index (§2.3.3).
	DynamicIndexOffByOne
	// EvictNewest evicts the newest entries instead of the oldest to
	// make room for an insertion (§4.4); size updates evict right.
	EvictNewest
	// NoEvictOnResize keeps every entry on a dynamic table size update
	// (§4.3); only insertions evict.
	NoEvictOnResize
	// EntryOverhead31 counts 31 octets of entry overhead, not 32 (§4.1).
	EntryOverhead31
	// AcceptLateSizeUpdate applies a size update that follows a field
	// representation (§4.2).
	AcceptLateSizeUpdate
	// AcceptUpdateAboveSetting applies a size update above the
	// acknowledged SETTINGS_HEADER_TABLE_SIZE (§6.3).
	AcceptUpdateAboveSetting
	// AcceptMissingUpdate accepts a block without the size update a
	// lowered, acknowledged setting requires (§4.2), keeping its table's
	// maximum size.
	AcceptMissingUpdate
	// AcceptLongPadding accepts Huffman padding of 8 bits or more, when
	// they are all ones (§5.2).
	AcceptLongPadding
	// AcceptZeroPadding accepts Huffman padding that is not the most
	// significant bits of EOS (§5.2).
	AcceptZeroPadding
	// AcceptEOS skips an EOS symbol inside a Huffman string and decodes
	// on (§5.2).
	AcceptEOS
	// WrapIntegers keeps integers above 2^32-1 modulo 2^32 (§5.1).
	WrapIntegers
	// IgnoreListLimit expands every block in full, whatever the
	// SETTINGS_MAX_HEADER_LIST_SIZE (the HPACK bomb of §7.3).
	IgnoreListLimit
	// LoseNeverIndexed reports never-indexed literals as ordinary fields,
	// Sensitive false (§6.2.3, §7.1.3).
	LoseNeverIndexed
	// StripWhitespace strips leading and trailing SP and HTAB from the
	// values it emits (the table keeps them; §5.2 strings are octets).
	StripWhitespace
	// NameAfterEvict reads the name of a literal with incremental
	// indexing by its index after evicting for the insertion, so the name
	// of an entry the insertion evicts comes out empty (§4.4). An entry
	// larger than the table keeps its name: it is never inserted.
	NameAfterEvict
	// AcceptTruncated returns the fields decoded so far from a block that
	// ends inside an integer or before a string literal (§5.1, §5.2).
	AcceptTruncated
	// OversizedEntryError refuses an entry larger than the table instead
	// of emptying the table (§4.4).
	OversizedEntryError

	lastDecoderBug = OversizedEntryError
)

var decoderBugNames = [...]string{
	"accept-index-zero",
	"dynamic-index-off-by-one",
	"evict-newest",
	"no-evict-on-resize",
	"overhead-31",
	"accept-late-size-update",
	"accept-update-above-setting",
	"accept-missing-update",
	"accept-long-padding",
	"accept-zero-padding",
	"accept-eos",
	"wrap-integers",
	"ignore-list-limit",
	"lose-never-indexed",
	"strip-whitespace",
	"name-after-evict",
	"accept-truncated",
	"oversized-entry-error",
}

// EachDecoderBug returns every bug of the broken decoder, one per
// element, in the order of their bits.
func EachDecoderBug() []DecoderBugs {
	out := make([]DecoderBugs, len(decoderBugNames))
	for i := range out {
		out[i] = 1 << i
	}
	return out
}

// String returns the names of the bugs in the set, joined by "+", or
// "none".
func (b DecoderBugs) String() string {
	if b == 0 {
		return "none"
	}
	var names []string
	for i, name := range decoderBugNames {
		if b&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if rest := b &^ (lastDecoderBug<<1 - 1); rest != 0 {
		names = append(names, fmt.Sprintf("DecoderBugs(%#x)", uint32(rest)))
	}
	return strings.Join(names, "+")
}

// ParseDecoderBugs returns the set named by names joined by "+" (as
// String writes it), "none" being the empty set.
func ParseDecoderBugs(s string) (DecoderBugs, error) {
	if s == "none" {
		return 0, nil
	}
	var set DecoderBugs
	for _, name := range strings.Split(s, "+") {
		found := false
		for i, known := range decoderBugNames {
			if name == known {
				set |= 1 << i
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("broken: unknown decoder bug %q (have none, %s)", name, strings.Join(decoderBugNames[:], ", "))
		}
	}
	return set, nil
}

// NewDecoderTarget returns the broken decoder with bugs as a
// certify.DecoderTarget named "broken-decoder" and the bugs; its contexts
// are certify.DecoderTableReaders.
func NewDecoderTarget(bugs DecoderBugs) certify.DecoderTarget {
	return certify.DecoderFunc("broken-decoder "+bugs.String(), func() certify.Decoder { return NewDecoder(bugs) })
}
