package certify

import (
	"fmt"
	"slices"
	"strings"
)

// Lacks is what an encoder's library cannot express, declared in advance
// (hpack-stdio's hello answer, or Declare in process): the engine builds
// every scenario from what the encoder can express, so that every other
// case is graded on full-strength input, and names each lack in the
// report and in the case it leaves nothing to judge, never as that case's
// pass. The encoder's word is not the user's: a MUST case a lack leaves
// ungraded fails the run until the user declares it (Options.Declared).
type Lacks struct {
	// NeverIndex: no never-index API. Fields are sent without the
	// sensitive mark, and enc/7.1.3/1 judges nothing.
	NeverIndex bool
	// PseudoFirst: the library writes pseudo-header fields first. Every
	// block's pseudo-header fields are moved before its regular ones,
	// keeping their order.
	PseudoFirst bool
	// OneSizeUpdate: one dynamic table size update per block. Of several
	// settings acknowledged before a block, only the last is kept, and
	// enc/4.2/2, the case of several settings, judges nothing.
	OneSizeUpdate bool
	// EmptyBlock: a block without fields cannot be written. Such blocks
	// are left out (their settings go to the next block), and enc/4.2/4
	// judges nothing.
	EmptyBlock bool
	// UppercaseNames: names are lowercased by the library (HTTP/2 names
	// are lowercase, RFC 9113 §8.2.1): names are sent without an
	// uppercase letter, ASCII or Latin-1 (the libraries that lowercase
	// read a name's octets as Latin-1), so that no lowercasing changes
	// them.
	UppercaseNames bool
	// EmptyName: a field with an empty name cannot be written: such
	// fields are left out (HTTP/2 forbids them, RFC 9113 §8.2.1).
	EmptyName bool
	// Refuses lists octet values the library refuses in a name or value;
	// they are left out of every field, and the octet cases (enc/5.2/3,
	// enc/5.2/4) name them as not tested.
	Refuses []OctetRange
}

// OctetRange is a range of octet values, Lo to Hi inclusive.
type OctetRange struct{ Lo, Hi byte }

// LackNames are the names of the lacks as hpack-stdio's hello spells
// them ("lacks": [...]); the octets refused are its "refuses" member.
var LackNames = []string{"never-index", "pseudo-first", "one-size-update", "empty-block", "uppercase-names", "empty-name"}

// ParseLacks returns the lacks of the given names and refused ranges, or
// an error naming the first unknown name or bad range.
func ParseLacks(names []string, refuses [][2]int) (Lacks, error) {
	var l Lacks
	for _, n := range names {
		switch n {
		case "never-index":
			l.NeverIndex = true
		case "pseudo-first":
			l.PseudoFirst = true
		case "one-size-update":
			l.OneSizeUpdate = true
		case "empty-block":
			l.EmptyBlock = true
		case "uppercase-names":
			l.UppercaseNames = true
		case "empty-name":
			l.EmptyName = true
		default:
			return Lacks{}, fmt.Errorf("unknown lack %q (want %s)", n, strings.Join(LackNames, ", "))
		}
	}
	for _, r := range refuses {
		if r[0] < 0 || r[1] > 255 || r[0] > r[1] {
			return Lacks{}, fmt.Errorf("refused octets [%d, %d]: want two octet values 0-255, the first at most the second", r[0], r[1])
		}
		l.Refuses = append(l.Refuses, OctetRange{byte(r[0]), byte(r[1])})
	}
	return l, nil
}

// Names returns the names of the lacks declared, in LackNames' order
// (the refused octets aside), nil for none.
func (l Lacks) Names() []string {
	var names []string
	for i, on := range []bool{l.NeverIndex, l.PseudoFirst, l.OneSizeUpdate, l.EmptyBlock, l.UppercaseNames, l.EmptyName} {
		if on {
			names = append(names, LackNames[i])
		}
	}
	return names
}

// String lists the lacks by name, with the refused ranges.
func (l Lacks) String() string {
	parts := l.Names()
	for _, r := range l.Refuses {
		parts = append(parts, fmt.Sprintf("refuses 0x%02x-0x%02x", r.Lo, r.Hi))
	}
	return strings.Join(parts, ", ")
}

// IsZero reports whether nothing is declared.
func (l Lacks) IsZero() bool {
	return !l.NeverIndex && !l.PseudoFirst && !l.OneSizeUpdate && !l.EmptyBlock && !l.UppercaseNames && !l.EmptyName && len(l.Refuses) == 0
}

// refuses reports whether octet x is refused.
func (l Lacks) refuses(x byte) bool {
	return slices.ContainsFunc(l.Refuses, func(r OctetRange) bool { return r.Lo <= x && x <= r.Hi })
}

// Lacker is implemented by targets that declare what their library cannot
// express: a stdio encoder whose hello declares lacks, an in-process one
// wrapped by Declare.
type Lacker interface{ Lacks() Lacks }

// Declare returns t with its lacks declared, for an in-process encoder
// (made by Func) whose library cannot express everything: the hello
// declaration of hpack-stdio, in Go. A stdio target declares its own.
func Declare(t Target, l Lacks) Target { return &declaredTarget{Target: t, lacks: l} }

type declaredTarget struct {
	Target
	lacks Lacks
}

func (d *declaredTarget) Lacks() Lacks { return d.lacks }

// InProcess marks the target as running in this process, as Func's are.
func (d *declaredTarget) InProcess() {}

// lacksOf returns what a target declares it cannot express.
func lacksOf(t Target) Lacks {
	if l, ok := t.(Lacker); ok {
		return l.Lacks()
	}
	return Lacks{}
}

// strip returns v without the octets refused.
func (l Lacks) strip(v string) string {
	if len(l.Refuses) == 0 {
		return v
	}
	return string(slices.DeleteFunc([]byte(v), l.refuses))
}

// expressed rewrites stories into what an encoder with these lacks can
// express; the stories are the engine's own copies.
func expressed(stories []story, l Lacks) []story {
	if l.IsZero() {
		return stories
	}
	for si := range stories {
		st := &stories[si]
		var out []block
		var carried []uint32 // settings of a block left out, for the next
		for _, b := range st.Cases {
			if len(carried) > 0 {
				b.TableSizes, b.HeaderTableSize = slices.Concat(carried, b.AckedSizes()), nil
				carried = nil
			}
			if l.EmptyBlock && len(b.Headers) == 0 {
				carried = b.AckedSizes()
				continue
			}
			if acked := b.AckedSizes(); l.OneSizeUpdate && len(acked) > 1 {
				b.TableSizes, b.HeaderTableSize = acked[len(acked)-1:], nil
			}
			fields := slices.Clone(b.Headers)
			if l.EmptyName {
				fields = slices.DeleteFunc(fields, func(f Field) bool { return f.Name == "" })
			}
			for i := range fields {
				if l.NeverIndex {
					fields[i].Sensitive = false
				}
				if l.UppercaseNames {
					fields[i].Name = lowerName(fields[i].Name)
				}
			}
			if l.PseudoFirst {
				slices.SortStableFunc(fields, func(a, b Field) int {
					return pseudoRank(a) - pseudoRank(b)
				})
			}
			b.Headers = fields
			out = append(out, b)
		}
		st.Cases = out
	}
	// A story left without blocks (all of them empty) is no story.
	return slices.DeleteFunc(stories, func(st story) bool { return len(st.Cases) == 0 })
}

// lowerName lowercases the uppercase letters of s read as Latin-1: A-Z
// and À-Þ but ×, which every lowercasing a library applies to a name (of
// ASCII, as HTTP/2 asks, RFC 9113 §8.2.1, or of Latin-1, as Java's
// String.toLowerCase of the octets does) maps the same way; every other
// octet is kept.
func lowerName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' || 0xc0 <= c && c <= 0xde && c != 0xd7 {
			b[i] = c + 0x20
		}
	}
	return string(b)
}

func pseudoRank(f Field) int {
	if strings.HasPrefix(f.Name, ":") {
		return 0
	}
	return 1
}

// declares returns why the encoder's lacks leave the case nothing to
// judge, or "": each lack takes its input from one case, which, left
// unsupported, says so. The encoder's word is not the user's: a MUST
// case it leaves ungraded fails the run until the user declares it
// (Options.Declared), so that no encoder passes a gate by declaring.
func (l Lacks) declares(id string) string {
	switch {
	case l.NeverIndex && id == "enc/7.1.3/1":
		return "the encoder declares no never-index API (never-index)"
	case l.OneSizeUpdate && id == "enc/4.2/2":
		return "the encoder declares one dynamic table size update per block (one-size-update)"
	case l.EmptyBlock && id == "enc/4.2/4":
		return "the encoder declares it cannot write a block without fields (empty-block)"
	case len(l.Refuses) > 0 && (id == "enc/5.2/3" || id == "enc/5.2/4"):
		return "the encoder declares it refuses octets (" + l.String() + ")"
	}
	return ""
}
