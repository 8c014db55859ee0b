package certify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/internal/wire"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// Coverage says which parts of RFC 7541 an encoder's wire exercised in a
// run: a rule can only be judged where the encoder's output reached it.
// The targeted scenarios (enc/3.2/2) are built so that a conforming
// encoder with the usual choices reaches all of it; an encoder that
// chooses otherwise (never Huffman, literals for static entries) leaves
// parts unexercised, and its coverage says which.
type Coverage struct {
	// StaticEntries are the static table entries (Appendix A) sent as an
	// "Indexed Header Field" (§6.1), by index.
	StaticEntries CoverageSet `json:"static_entries"`
	// StaticNames are the static table's names referenced by index from a
	// literal (§6.2), by name (several entries share a name).
	StaticNames CoverageSet `json:"static_names"`
	// HuffmanOctets are the octet values sent inside a Huffman-coded
	// string (§5.2, Appendix B) that decoded without error.
	HuffmanOctets CoverageSet `json:"huffman_octets"`
	// Integers are the §5.1 integer boundaries, by prefix size.
	Integers []IntegerBoundary `json:"integers"`
}

// CoverageSet counts the members of a set that were exercised and names
// the ones that were not.
type CoverageSet struct {
	Covered int      `json:"covered"`
	Total   int      `json:"total"`
	Missing []string `json:"missing,omitempty"`
	// Reach, when set, is how many of Total the source can carry at all
	// (a live target's role: a response holds no request pseudo-header
	// field, a field value no control octet), and Beyond says why the
	// others are out of reach. Set by Recording.Role.
	Reach  int    `json:"reach,omitempty"`
	Beyond string `json:"beyond_reach,omitempty"`
}

// String writes the set as "covered/total", and the reach when set:
// "7/61 (54 within a response's reach: ...)".
func (s CoverageSet) String() string {
	out := fmt.Sprintf("%d/%d", s.Covered, s.Total)
	if s.Reach > 0 {
		out += fmt.Sprintf(" (%d within reach: %s)", s.Reach, s.Beyond)
	}
	return out
}

// IntegerBoundary is one value of a §5.1 integer with an N-bit prefix at
// which the number of continuation octets changes: 2^N-1 fills the prefix
// and takes one continuation octet (0), 2^N-1+127 is the last with one,
// 2^N-1+128 the first with two, 2^N-1+2^14-1 the last with two, 2^N-1+2^14
// the first with three and 2^N-1+2^21 the first with four.
type IntegerBoundary struct {
	// Use is the representation field the integer encodes.
	Use string `json:"use"`
	// PrefixBits is N.
	PrefixBits int `json:"prefix_bits"`
	// Value is the value, in decimal.
	Value string `json:"value"`
	// Continuations is the number of continuation octets Value takes.
	Continuations int  `json:"continuation_octets"`
	Covered       bool `json:"covered"`
	// Unreachable, when set, says why the run could not reach the value:
	// an index past the table the encoder used, or past what a run holds.
	// Such a boundary counts in neither side of the coverage line.
	Unreachable string `json:"unreachable,omitempty"`
	// PastLimits says the value is out of every run's reach, not only of
	// the table the encoder used.
	PastLimits bool `json:"past_limits,omitempty"`

	kind  intUse
	value uint64
	// table is the smallest maximum table size that reaches the value,
	// and limit, when set, why the run's bounds cannot.
	table uint64
	limit string
}

// intUse is what an integer of a block encodes, with its prefix size.
type intUse uint8

const (
	useIndex           intUse = iota // §6.1 index, 7-bit prefix
	useIncrementalName               // §6.2.1 name index, 6-bit prefix
	useLiteralName                   // §6.2.2, §6.2.3 name index, 4-bit prefix
	useSizeUpdate                    // §6.3 new maximum size, 5-bit prefix
	useStringLength                  // §5.2 string length, 7-bit prefix
)

var intUses = [...]struct {
	name   string
	prefix int
}{
	useIndex:           {"index of an indexed field (§6.1)", 7},
	useIncrementalName: {"name index of a literal with incremental indexing (§6.2.1)", 6},
	useLiteralName:     {"name index of a literal without indexing or never indexed (§6.2.2, §6.2.3)", 4},
	useSizeUpdate:      {"maximum size of a dynamic table size update (§6.3)", 5},
	useStringLength:    {"string length (§5.2)", 7},
}

// indexWord names what an index of each use refers to.
var indexWord = map[intUse]string{useIndex: "index", useIncrementalName: "name index", useLiteralName: "name index"}

// integerBoundaries lists every continuation-octet transition of every
// prefix the representations use, with what reaching it takes. An index
// v refers to dynamic entry v-61, so it needs v-61 entries of at least 32
// octets (§4.1) in the table; a size update v needs a table of v. Values
// past 2^21 need a table of 2^21 entries (64 MiB and more, inserted
// through blocks of at most MaxBlockSize), or a string over the largest
// block: no run reaches them.
func integerBoundaries() []IntegerBoundary {
	steps := []struct {
		past uint64
		octs int
	}{{0, 1}, {127, 1}, {128, 2}, {1<<14 - 1, 2}, {1 << 14, 3}, {1 << 21, 4}}
	var out []IntegerBoundary
	for use := range intUses {
		n := intUses[use].prefix
		for _, st := range steps {
			v := 1<<n - 1 + st.past
			b := IntegerBoundary{Use: intUses[use].name, PrefixBits: n, Value: strconv.FormatUint(v, 10), Continuations: st.octs, kind: intUse(use), value: v}
			switch intUse(use) {
			case useSizeUpdate:
				b.table = v
			case useStringLength:
				if v > DefaultMaxBlockSize {
					b.limit = fmt.Sprintf("a string of %d octets is larger than the largest block a run allows (MaxBlockSize, %d octets by default)", v, DefaultMaxBlockSize)
				}
			default:
				if v > spec.StaticTableLen {
					b.table = (v - spec.StaticTableLen) * spec.EntryOverhead
				}
				if st.past >= 1<<21 {
					b.limit = fmt.Sprintf("%s %d needs %d dynamic entries, a table of %d octets or more: more than a run holds", indexWord[intUse(use)], v, v-spec.StaticTableLen, b.table)
				}
			}
			out = append(out, b)
		}
	}
	return out
}

// IntegerBoundaries returns the integer boundaries the coverage line
// lists, in its order, none covered: for a scenario built to reach them.
func IntegerBoundaries() []IntegerBoundary { return integerBoundaries() }

// coverageCounts is what blocks exercised, added up block by block as
// they are decoded, so that nothing of a block needs to be kept for it.
type coverageCounts struct {
	entries [spec.StaticTableLen + 1]bool
	names   map[string]bool
	huffman octetSet
	// ints holds the boundaries seen, as positions in boundaries.
	ints map[int]bool
	// table is the largest maximum table size the encoder signalled
	// (§6.3), or the 4,096 octets every connection starts with.
	table uint64
}

// boundaries are the integer boundaries, computed once.
var boundaries = integerBoundaries()

// add counts what one block the encoder wrote exercised.
func (cc *coverageCounts) add(b *playedBlock) {
	if b.encErr != nil {
		return
	}
	if cc.names == nil {
		cc.names, cc.ints = map[string]bool{}, map[int]bool{}
	}
	mark := func(use intUse, v uint64) {
		for i, bd := range boundaries {
			if bd.kind == use && v == bd.value {
				cc.ints[i] = true
			}
		}
	}
	for _, r := range b.reps {
		static := r.Index.Value >= 1 && r.Index.Value <= spec.StaticTableLen
		switch r.Kind {
		case wire.Indexed:
			mark(useIndex, r.Index.Value)
			if static {
				cc.entries[r.Index.Value] = true
			}
		case wire.SizeUpdate:
			mark(useSizeUpdate, r.Index.Value)
			cc.table = max(cc.table, r.Index.Value)
		case wire.Incremental:
			mark(useIncrementalName, r.Index.Value)
		default:
			mark(useLiteralName, r.Index.Value)
		}
		if r.Kind != wire.Indexed && r.Kind != wire.SizeUpdate && static {
			cc.names[spec.StaticTable[r.Index.Value-1].Name] = true
		}
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s == nil {
				continue
			}
			mark(useStringLength, s.Length.Value)
			if s.Huffman && s.PadErr == "" {
				cc.huffman.addString(s.Text)
			}
		}
	}
}

// measureCoverage adds up the coverage of the transcripts.
func measureCoverage(trs []*transcript) *Coverage {
	var entries [spec.StaticTableLen + 1]bool
	names := map[string]bool{}
	var huffman octetSet
	ints := integerBoundaries()
	table := uint64(spec.DefaultTableSize)
	for _, tr := range trs {
		cc := &tr.coverage
		for i, ok := range cc.entries {
			entries[i] = entries[i] || ok
		}
		for name := range cc.names {
			names[name] = true
		}
		for x, ok := range cc.huffman {
			huffman[x] = huffman[x] || ok
		}
		for i := range cc.ints {
			ints[i].Covered = true
		}
		table = max(table, cc.table)
	}
	for i := range ints {
		b := &ints[i]
		switch {
		case b.Covered:
		case b.limit != "":
			b.Unreachable, b.PastLimits = b.limit, true
		case b.table > table:
			b.Unreachable = fmt.Sprintf("needs a table of at least %d octets; the encoder's was never larger than %d", b.table, table)
		}
	}
	cov := &Coverage{Integers: ints}
	cov.StaticEntries.Total = spec.StaticTableLen
	seenName := map[string]bool{}
	for i, f := range spec.StaticTable {
		if entries[i+1] {
			cov.StaticEntries.Covered++
		} else {
			cov.StaticEntries.Missing = append(cov.StaticEntries.Missing, fmt.Sprintf("%d %s: %q", i+1, f.Name, f.Value))
		}
		if seenName[f.Name] {
			continue
		}
		seenName[f.Name] = true
		cov.StaticNames.Total++
		if names[f.Name] {
			cov.StaticNames.Covered++
		} else {
			cov.StaticNames.Missing = append(cov.StaticNames.Missing, f.Name)
		}
	}
	missing := huffman.absent()
	cov.HuffmanOctets = CoverageSet{Covered: 256 - len(missing), Total: 256}
	for _, x := range missing {
		cov.HuffmanOctets.Missing = append(cov.HuffmanOctets.Missing, fmt.Sprintf("0x%02x", x))
	}
	return cov
}

// Complete reports whether the run exercised everything Coverage lists.
func (c *Coverage) Complete() bool {
	for _, b := range c.Integers {
		if !b.Covered && b.Unreachable == "" {
			return false
		}
	}
	return len(c.StaticEntries.Missing)+len(c.StaticNames.Missing)+len(c.HuffmanOctets.Missing) == 0
}

// String sums the coverage up in one line, such as "static entries
// 61/61, static names 52/52, Huffman codes 256/256, integer boundaries
// 13/13 (of 30: 13 need a larger table, 4 past the run's limits)": the
// integer boundaries count those within reach, and say how many of all
// those listed are out of it, and why.
func (c *Coverage) String() string {
	covered, reachable, table, limits := 0, 0, 0, 0
	for _, b := range c.Integers {
		switch {
		case b.Covered:
			covered++
			reachable++
		case b.Unreachable == "":
			reachable++
		case b.PastLimits:
			limits++
		default:
			table++
		}
	}
	var out []string
	if table > 0 {
		out = append(out, fmt.Sprintf("%d need a larger table", table))
	}
	if limits > 0 {
		out = append(out, fmt.Sprintf("%d past the run's limits", limits))
	}
	ints := fmt.Sprintf("%d/%d", covered, reachable)
	if len(out) > 0 {
		ints += fmt.Sprintf(" (of %d: %s)", len(c.Integers), strings.Join(out, ", "))
	}
	return fmt.Sprintf("static entries %s, static names %s, Huffman codes %s, integer boundaries %s",
		c.StaticEntries, c.StaticNames, c.HuffmanOctets, ints)
}

// applyReach sets what a recording of one role's field sections can
// carry at all (Recording.Role): "request" or "response".
func (c *Coverage) applyReach(role string) {
	// The other role's pseudo-header fields: :status for a request, the
	// request's for a response.
	var otherNames []string
	entries := 0
	for _, f := range spec.StaticTable {
		if strings.HasPrefix(f.Name, ":") && (f.Name == ":status") == (role == "request") {
			entries++
			if !slices.Contains(otherNames, f.Name) {
				otherNames = append(otherNames, f.Name)
			}
		}
	}
	not := "a " + role + " carries no " + strings.Join(otherNames, ", ")
	c.StaticEntries.Reach, c.StaticEntries.Beyond = c.StaticEntries.Total-entries, fmt.Sprintf("%s (%d entries)", not, entries)
	c.StaticNames.Reach, c.StaticNames.Beyond = c.StaticNames.Total-len(otherNames), not
	c.HuffmanOctets.Reach, c.HuffmanOctets.Beyond = 224, "an HTTP field value carries HTAB, 0x20-0x7e and 0x80-0xff only (RFC 9110 §5.5)"
}
