package lacks

import (
	"fmt"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
	"slices"
	"strings"
	"unicode/utf8"
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
	// GroupedNames: the library keeps the fields of a name together (as
	// a map from names to their values does), at the place of the name's
	// first field. Each block's fields of one name are moved up to follow
	// its first field, keeping their order.
	GroupedNames bool
	// PseudoOrder: the library writes only the pseudo-header fields of
	// RFC 9113 (:method, :scheme, :authority, :path, :protocol,
	// :status), each at most once, in that order, never sensitive, with
	// a value it can parse: :method a token, :status three digits (100
	// to 999), the others UTF-8. Every other pseudo-header field (of
	// another name, a repeat, a sensitive one, or a value out of these
	// rules) is sent as a regular field, its name's ':' made '-' (the
	// same length, so that the story's entry sizes and evictions stay),
	// and the pseudo-header fields left are put in that order, in the
	// places they hold.
	PseudoOrder bool
	// TokenNames: every regular name is an HTTP token (RFC 9110 §5.6.2,
	// as RFC 9113 §8.2.1 asks). Every octet of a regular name that is
	// not a token character (nor refused, for Refuses strips those) is
	// sent as '-', keeping the name's length; an empty name is
	// EmptyName's.
	TokenNames bool
	// RequestHead: the library writes a block only as a request's, which
	// starts with :method, :scheme, :authority and :path, once each and
	// in that order (libh2o 2.2.5's h2o_hpack_flatten_request). A block
	// that does not start so gets that head: the block's own first field
	// of each of the four names (not sensitive) moves to the front, in
	// that order, and a missing one is sent with the value of
	// requestHead; the other fields keep their order behind it. A block
	// without fields gets the whole head (EmptyBlock leaves it out
	// first).
	RequestHead bool
	// Refuses lists octet values the library refuses in a name or value;
	// they are left out of every field, and the octet cases (enc/5.2/3,
	// enc/5.2/4) name them as not tested.
	Refuses []OctetRange
}

// OctetRange is a range of octet values, Lo to Hi inclusive.
type OctetRange struct{ Lo, Hi byte }

// LackNames are the names of the lacks as hpack-stdio's hello spells
// them ("lacks": [...]); the octets refused are its "refuses" member.
var LackNames = []string{"never-index", "pseudo-first", "one-size-update", "empty-block", "uppercase-names", "empty-name", "grouped-names", "pseudo-order", "token-names", "request-head"}

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
		case "grouped-names":
			l.GroupedNames = true
		case "pseudo-order":
			l.PseudoOrder = true
		case "token-names":
			l.TokenNames = true
		case "request-head":
			l.RequestHead = true
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
	for i, on := range []bool{l.NeverIndex, l.PseudoFirst, l.OneSizeUpdate, l.EmptyBlock, l.UppercaseNames, l.EmptyName, l.GroupedNames, l.PseudoOrder, l.TokenNames, l.RequestHead} {
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
	return len(l.Names()) == 0 && len(l.Refuses) == 0
}

// RefusesOctet reports whether octet x is refused.
func (l Lacks) RefusesOctet(x byte) bool {
	return slices.ContainsFunc(l.Refuses, func(r OctetRange) bool { return r.Lo <= x && x <= r.Hi })
}

// Strip returns v without the octets refused.
func (l Lacks) Strip(v string) string {
	if len(l.Refuses) == 0 {
		return v
	}
	return string(slices.DeleteFunc([]byte(v), l.RefusesOctet))
}

// Expressed rewrites stories into what an encoder with these lacks can
// express; the stories are the engine's own copies.
func Expressed(stories []vectors.Story, l Lacks) []vectors.Story {
	if l.IsZero() {
		return stories
	}
	for si := range stories {
		st := &stories[si]
		var out []vectors.Case
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
				// Empty as sent: a name of refused octets only is too.
				fields = slices.DeleteFunc(fields, func(f spec.Field) bool { return l.Strip(f.Name) == "" })
			}
			for i := range fields {
				if l.NeverIndex {
					fields[i].Sensitive = false
				}
				if l.UppercaseNames {
					fields[i].Name = lowerName(fields[i].Name)
				}
			}
			if l.PseudoOrder {
				fields = l.pseudoOrdered(fields)
			}
			if l.TokenNames {
				for i, f := range fields {
					if !isPseudo(f) {
						fields[i].Name = l.tokenName(f.Name)
					}
				}
			}
			if l.GroupedNames {
				fields = l.grouped(fields)
			}
			if l.PseudoFirst {
				slices.SortStableFunc(fields, func(a, b spec.Field) int {
					return pseudoRank(a) - pseudoRank(b)
				})
			}
			if l.RequestHead {
				fields = l.withRequestHead(fields)
			}
			b.Headers = fields
			out = append(out, b)
		}
		st.Cases = out
	}
	// A story left without blocks (all of them empty) is no story.
	return slices.DeleteFunc(stories, func(st vectors.Story) bool { return len(st.Cases) == 0 })
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

func pseudoRank(f spec.Field) int {
	if isPseudo(f) {
		return 0
	}
	return 1
}

func isPseudo(f spec.Field) bool { return strings.HasPrefix(f.Name, ":") }

// pseudoNames are the pseudo-header fields of RFC 9113 (§8.3.1, §8.3.2,
// and RFC 8441's :protocol), in the order a PseudoOrder library writes
// them.
var pseudoNames = []string{":method", ":scheme", ":authority", ":path", ":protocol", ":status"}

// pseudoOrdered returns the fields with the pseudo-header fields a
// PseudoOrder library cannot write sent as regular ones, and those left
// in pseudoNames' order, in the places they hold. Names and values are
// judged as sent, without the refused octets.
func (l Lacks) pseudoOrdered(fields []spec.Field) []spec.Field {
	var seen [6]bool
	var places []int // of the pseudo-header fields kept
	for i, f := range fields {
		if !isPseudo(f) {
			continue
		}
		r := slices.Index(pseudoNames, l.Strip(f.Name))
		if r < 0 || seen[r] || f.Sensitive || !pseudoValue(r, l.Strip(f.Value)) {
			fields[i].Name = "-" + f.Name[1:]
			continue
		}
		seen[r] = true
		places = append(places, i)
	}
	kept := make([]spec.Field, len(places))
	for k, i := range places {
		kept[k] = fields[i]
	}
	slices.SortStableFunc(kept, func(a, b spec.Field) int {
		return slices.Index(pseudoNames, l.Strip(a.Name)) - slices.Index(pseudoNames, l.Strip(b.Name))
	})
	for k, i := range places {
		fields[i] = kept[k]
	}
	return fields
}

// pseudoValue reports whether v is a value a PseudoOrder library parses
// for pseudoNames[rank]: :method a token, :status three digits from 100
// to 999, the others UTF-8.
func pseudoValue(rank int, v string) bool {
	switch pseudoNames[rank] {
	case ":method":
		return v != "" && !strings.ContainsFunc(v, func(c rune) bool { return c >= 0x80 || !isTchar(byte(c)) })
	case ":status":
		return len(v) == 3 && '1' <= v[0] && v[0] <= '9' && isDigit(v[1]) && isDigit(v[2])
	}
	return utf8.ValidString(v)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isTchar reports whether c is a token character (RFC 9110 §5.6.2).
func isTchar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// tokenName returns name with every octet that is neither a token
// character nor refused (stripped later) made '-'.
func (l Lacks) tokenName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !isTchar(c) && !l.RefusesOctet(c) {
			b[i] = '-'
		}
	}
	return string(b)
}

// requestHead is the request head a RequestHead library's blocks start
// with, the value of each field a block does not hold: static-table
// entries (2, 7, 4) but :authority, which a block's first use inserts.
var requestHead = []spec.Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "https"}, {Name: ":authority", Value: "hpackcert.test"}, {Name: ":path", Value: "/"}}

// withRequestHead returns the fields starting with requestHead's names,
// in its order: the block's own first field of each name (as sent,
// without the refused octets; not sensitive) moved up, or requestHead's.
// A block that starts so already is kept as it is.
func (l Lacks) withRequestHead(fields []spec.Field) []spec.Field {
	head := slices.Clone(requestHead)
	taken := make([]bool, len(fields))
	starts := len(fields) >= len(head)
	for k, h := range head {
		if starts && (l.Strip(fields[k].Name) != h.Name || fields[k].Sensitive) {
			starts = false
		}
		for i, f := range fields {
			if !taken[i] && !f.Sensitive && l.Strip(f.Name) == h.Name {
				head[k], taken[i] = f, true
				break
			}
		}
	}
	if starts {
		return fields
	}
	out := make([]spec.Field, 0, len(head)+len(fields))
	out = append(out, head...)
	for i, f := range fields {
		if !taken[i] {
			out = append(out, f)
		}
	}
	return out
}

// grouped returns the fields with those of each name (as sent, without
// the refused octets) moved up to follow the name's first field.
func (l Lacks) grouped(fields []spec.Field) []spec.Field {
	var order []string
	byName := map[string][]spec.Field{}
	for _, f := range fields {
		n := l.Strip(f.Name)
		if _, ok := byName[n]; !ok {
			order = append(order, n)
		}
		byName[n] = append(byName[n], f)
	}
	out := fields[:0:0]
	for _, n := range order {
		out = append(out, byName[n]...)
	}
	return out
}

// Declares returns why the encoder's lacks leave the case nothing to
// judge, or "": each lack takes its input from one case, which, left
// unsupported, says so. The encoder's word is not the user's: a MUST
// case it leaves ungraded fails the run until the user declares it
// (Options.Declared), so that no encoder passes a gate by declaring.
func (l Lacks) Declares(id string) string {
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

// CloneStories returns copies of stories whose blocks and fields are
// their own, for Expressed, which rewrites stories in place, to be given.
func CloneStories(in []vectors.Story) []vectors.Story {
	out := make([]vectors.Story, len(in))
	for i, s := range in {
		out[i] = vectors.Story{Path: s.Path, Cases: make([]vectors.Case, len(s.Cases))}
		for j, b := range s.Cases {
			b.Headers = slices.Clone(b.Headers)
			out[i].Cases[j] = b
		}
	}
	return out
}
