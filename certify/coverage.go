package certify

import (
	"fmt"
	"strconv"

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
}

// IntegerBoundary is one value (or range) of a §5.1 integer with an N-bit
// prefix that the scenarios aim at: 2^N-2 fits the prefix, 2^N-1 fills it
// and needs one continuation octet, 2^N needs one too, and values past
// those take more continuation octets.
type IntegerBoundary struct {
	// Use is the representation field the integer encodes.
	Use string `json:"use"`
	// PrefixBits is N.
	PrefixBits int `json:"prefix_bits"`
	// Value is the value, or a range such as ">= 143".
	Value   string `json:"value"`
	Covered bool   `json:"covered"`

	kind     intUse
	min, max uint64
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

// twoContinuations is the smallest value an N-bit prefix encodes with two
// continuation octets: 2^N-1 in the prefix, then 128 in seven bits.
func twoContinuations(n int) uint64 { return 1<<n - 1 + 128 }

// integerBoundaries lists the boundaries the scenarios aim at. Each prefix
// gets 2^N-2, 2^N-1 and 2^N, and a value with two continuation octets where
// a 4,096-octet table can reach one; indices with a 7-bit prefix cannot
// (at most 124 entries of 33 octets, index 185), nor name indices with a
// 6-bit one, so they get "past 2^N", a dynamic index past 127 and 63.
func integerBoundaries() []IntegerBoundary {
	var out []IntegerBoundary
	add := func(use intUse, min, max uint64, value string) {
		out = append(out, IntegerBoundary{Use: intUses[use].name, PrefixBits: intUses[use].prefix, Value: value, kind: use, min: min, max: max})
	}
	for use := range intUses {
		n := intUses[use].prefix
		for _, v := range []uint64{1<<n - 2, 1<<n - 1, 1 << n} {
			add(intUse(use), v, v, strconv.FormatUint(v, 10))
		}
		switch intUse(use) {
		case useIndex, useIncrementalName:
			add(intUse(use), 1<<n+1, 1<<64-1, fmt.Sprintf("> %d", 1<<n))
		case useLiteralName, useSizeUpdate:
			v := twoContinuations(n)
			add(intUse(use), v, 1<<64-1, fmt.Sprintf(">= %d (two continuation octets)", v))
		case useStringLength:
			for _, v := range []uint64{1<<14 - 1, 1 << 14, 1<<14 + 1} {
				add(intUse(use), v, v, strconv.FormatUint(v, 10))
			}
		}
	}
	return out
}

// coverageCounts is what blocks exercised, added up block by block as
// they are decoded, so that nothing of a block needs to be kept for it.
type coverageCounts struct {
	entries [spec.StaticTableLen + 1]bool
	names   map[string]bool
	huffman octetSet
	// ints[use] holds the values seen that some boundary of the use
	// counts, as a set of boundary positions in integerBoundaries().
	ints map[int]bool
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
			if bd.kind == use && v >= bd.min && v <= bd.max {
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
		if !b.Covered {
			return false
		}
	}
	return len(c.StaticEntries.Missing)+len(c.StaticNames.Missing)+len(c.HuffmanOctets.Missing) == 0
}

// String sums the coverage up in one line, such as "static entries
// 61/61, static names 52/52, Huffman codes 256/256, integer boundaries
// 24/24".
func (c *Coverage) String() string {
	covered := 0
	for _, b := range c.Integers {
		if b.Covered {
			covered++
		}
	}
	return fmt.Sprintf("static entries %d/%d, static names %d/%d, Huffman codes %d/%d, integer boundaries %d/%d",
		c.StaticEntries.Covered, c.StaticEntries.Total, c.StaticNames.Covered, c.StaticNames.Total,
		c.HuffmanOctets.Covered, c.HuffmanOctets.Total, covered, len(c.Integers))
}
