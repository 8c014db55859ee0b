package certify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
)

// Root causes. Once an encoder's output and the decoders' view of it
// diverge in a story (a block the walker cannot split, an oracle that
// decodes other fields or rejects the block without a known leniency, or
// tables that differ), every later block of the story depends on the
// broken context: those blocks are consequences, not judged by any case,
// and listed under the failure of the rule first broken. That rule, the
// owner of the divergence, is asked for in this order:
//
//  1. the rules of the wire a decoder checks, in the order a decoder meets
//     them: enc/6.3/1 (an update above the setting), enc/6.3/2 (an update
//     after a field), enc/4.2/1, enc/4.2/2, enc/4.2/4 (the size update a
//     lowered setting needs), enc/4.2/3 (the smallest update first, which
//     the strict oracle requires), enc/5.2/1 (Huffman padding), enc/5.2/4
//     (a Huffman code): the first whose rule finds fault with the block
//     owns;
//  2. the table rules, diagnosed: the story is decoded again, from its
//     first block, by decoders that each depart from RFC 7541 in one way
//     an encoder's table can (entries counted with 0, 31 or 33 octets of
//     overhead, or lengths counted in UTF-16 code units: enc/4.1/1; a size update that evicts nothing: enc/4.3/1;
//     one entry evicted too few or too many for a new one, or none:
//     enc/4.4/1; an entry larger than the table that does not empty it:
//     enc/4.4/2; a table whose maximum follows the acknowledged setting
//     without a size update to say so: enc/4.2/1, whose rule, a change
//     signalled in the next block, the wire alone shows only for a
//     lowered setting). A model that decodes every block up to and including the
//     diverging one to the fields sent explains the divergence; of several,
//     the one that goes on decoding the story furthest, then the first in
//     that order;
//  3. enc/2.3.2/1 (traffic) or enc/2.3.2/2 (the other scenarios) when the
//     encoder's own table differs from the oracles', or the first field
//     decoded wrong comes from a dynamic-table reference;
//  4. enc/5.2/3 in the octets scenario, else enc/3.2/1 (traffic) or
//     enc/3.2/2: the block does not decode to the fields sent.
//
// Only the cases of the run are asked; a divergence whose owner was not
// selected goes to the next in the order. The rules that find what no
// decoder rejects (enc/4.2/3, enc/5.1/1, enc/5.2/2, enc/7.1.3/x) judge only
// blocks every oracle decoded to the fields sent.
//
// A block of a recording whose lists are inferred (Recording.InferredLists) that
// every oracle decodes alike and without error to other fields does not
// diverge: it is judged against what it decodes to, and the difference is
// the target's transformation, reported by the list cases (relayed.go).

// causeOrder is step 1's rules, in order.
var causeOrder = []string{"enc/6.3/1", "enc/6.3/2", "enc/4.2/1", "enc/4.2/2", "enc/4.2/4", "enc/4.2/3", "enc/5.2/1", "enc/5.2/4"}

// model is a decoder of walked representations that departs from RFC 7541
// in one way, for step 2.
type model struct {
	// caseID owns the divergences the model explains; what describes its
	// departure.
	caseID, what string
	overhead     uint64
	// utf16 counts a name's and a value's length in UTF-16 code units
	// of their UTF-8 decoding, where RFC 7541 counts octets.
	utf16 bool
	// evictDelta is how many entries fewer (positive) or more (negative)
	// than needed an insertion evicts; noInsertEviction evicts none.
	evictDelta       int
	noInsertEviction bool
	// resizeKeeps: a size update evicts nothing; oversizedKeeps: an entry
	// larger than the table leaves it as it was; followsSetting: the
	// table's maximum size is the last setting acknowledged, signalled or
	// not (an encoder that changes its table without a size update).
	resizeKeeps, oversizedKeeps, followsSetting bool

	table   []spec.Field // newest last
	size    uint64
	octets  uint64 // the names' and values' octets the table holds
	maxSize uint64
	alive   bool
	// explained is set when the model decoded the diverging block right.
	explained bool
	// after counts the blocks the model decoded right after the story's
	// divergence.
	after int
}

// maxModelEntries and maxModelOctets bound a model's table, whatever the
// encoder sends: a model whose entries cost nothing (overhead 0, empty
// fields) or that never evicts could otherwise grow without end. A model
// past either bound goes out (it explains nothing) and lets its table go.
// The largest table a story of the scenarios acknowledges is 1 MiB.
const (
	maxModelEntries = 1 << 16
	maxModelOctets  = 8 << 20
)

// newModels returns the models of step 2, in order, each in a fresh
// context.
func newModels() []*model {
	ms := []*model{
		{caseID: "enc/4.1/1", what: "entries counted with 31 octets of overhead, not 32", overhead: 31},
		{caseID: "enc/4.1/1", what: "entries counted with 33 octets of overhead, not 32", overhead: 33},
		{caseID: "enc/4.1/1", what: "entries counted as name and value only, without the 32 octets of overhead", overhead: 0},
		{caseID: "enc/4.1/1", what: "names and values counted in UTF-16 code units (as a JavaScript string's length), not in octets", overhead: spec.EntryOverhead, utf16: true},
		{caseID: "enc/4.3/1", what: "a smaller maximum size evicts nothing", overhead: spec.EntryOverhead, resizeKeeps: true},
		{caseID: "enc/4.4/1", what: "a new entry evicts one entry fewer than it needs", overhead: spec.EntryOverhead, evictDelta: 1},
		{caseID: "enc/4.4/1", what: "a new entry evicts one entry more than it needs", overhead: spec.EntryOverhead, evictDelta: -1},
		{caseID: "enc/4.4/1", what: "a new entry evicts nothing", overhead: spec.EntryOverhead, noInsertEviction: true},
		{caseID: "enc/4.4/2", what: "an entry larger than the table leaves the table as it was", overhead: spec.EntryOverhead, oversizedKeeps: true},
		{caseID: "enc/4.2/1", what: "the encoder's table takes each acknowledged setting as its maximum size without signalling it in a dynamic table size update", overhead: spec.EntryOverhead, followsSetting: true},
	}
	for _, m := range ms {
		m.alive, m.maxSize = true, spec.DefaultTableSize
	}
	return ms
}

func (m *model) entrySize(f spec.Field) uint64 {
	if m.utf16 {
		return utf16Len(f.Name) + utf16Len(f.Value) + m.overhead
	}
	return uint64(len(f.Name)) + uint64(len(f.Value)) + m.overhead
}

// utf16Len is the length of s in UTF-16 code units, an invalid octet
// counting as one (the replacement character it decodes to).
func utf16Len(s string) uint64 {
	n := uint64(0)
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// evict drops the oldest entries until the table's size is at most n, or
// at most count entries when count >= 0.
func (m *model) evict(n uint64, count int) {
	i := 0
	for m.size > n && i < len(m.table) && (count < 0 || i < count) {
		m.size -= m.entrySize(m.table[i])
		m.octets -= uint64(len(m.table[i].Name) + len(m.table[i].Value))
		i++
	}
	// The evicted fields' strings are let go, not kept by the array.
	clear(m.table[:i])
	m.table = m.table[i:]
}

func (m *model) add(f spec.Field) {
	size := m.entrySize(f)
	if size > m.maxSize {
		if !m.oversizedKeeps {
			m.table, m.size, m.octets = nil, 0, 0
		}
		return
	}
	switch {
	case m.noInsertEviction:
	case m.evictDelta != 0:
		need, freed := 0, uint64(0)
		for need < len(m.table) && m.size-freed+size > m.maxSize {
			freed += m.entrySize(m.table[need])
			need++
		}
		if need > 0 {
			m.evict(0, max(0, need-m.evictDelta))
		}
	default:
		m.evict(m.maxSize-size, -1)
	}
	m.table = append(m.table, f)
	m.size += size
	m.octets += uint64(len(f.Name) + len(f.Value))
	if len(m.table) > maxModelEntries || m.octets > maxModelOctets {
		m.out()
	}
}

// out takes the model out of the diagnosis and lets its table go.
func (m *model) out() {
	m.alive, m.table, m.size, m.octets = false, nil, 0, 0
}

// holds reports whether the model's table is t (newest first).
func (m *model) holds(t []oracle.Field) bool {
	if t == nil || len(t) != len(m.table) {
		return false
	}
	for i, f := range t {
		e := m.table[len(m.table)-1-i]
		if e.Name != f.Name || e.Value != f.Value {
			return false
		}
	}
	return true
}

// lookup returns the field at an index of the static and the model's
// dynamic table.
func (m *model) lookup(index uint64) (spec.Field, bool) {
	switch {
	case index == 0:
		return spec.Field{}, false
	case index <= spec.StaticTableLen:
		e := spec.StaticTable[index-1]
		return spec.Field{Name: e.Name, Value: e.Value}, true
	case index-spec.StaticTableLen-1 < uint64(len(m.table)):
		return m.table[len(m.table)-1-int(index-spec.StaticTableLen-1)], true
	}
	return spec.Field{}, false
}

// decode applies a block's representations and reports whether they
// decode to sent.
func (m *model) decode(reps []wire.Representation, sent []Field) bool {
	n := 0
	for _, r := range reps {
		if r.Kind == wire.SizeUpdate {
			m.maxSize = r.Index.Value
			if !m.resizeKeeps {
				m.evict(m.maxSize, -1)
			}
			continue
		}
		var f spec.Field
		if r.Kind == wire.Indexed {
			var ok bool
			if f, ok = m.lookup(r.Index.Value); !ok {
				return false
			}
		} else {
			if r.Name != nil {
				f.Name = r.Name.Text
			} else {
				e, ok := m.lookup(r.Index.Value)
				if !ok {
					return false
				}
				f.Name = e.Name
			}
			f.Value = r.Value.Text
		}
		if n >= len(sent) || sent[n].Name != f.Name || sent[n].Value != f.Value {
			return false
		}
		n++
		if r.Kind == wire.Incremental {
			m.add(f)
		}
	}
	return n == len(sent)
}

// diagnosis follows one story's blocks with the models, to name the
// owner of its divergence (step 2).
type diagnosis struct {
	models []*model
	// rfc is a model without departure: a divergence it decodes right
	// (a size update missing, say, which the models do not check) is no
	// table's, and no model explains it.
	rfc *model
	// root is the story's first diverging block, nil before it.
	root *playedBlock
}

// observe feeds a decoded block to the models still alive. Before the
// divergence a model that decodes a block wrong is out; after it, a model
// counts the blocks it goes on decoding right, until its first miss.
//
// At a divergence that is only a table difference (the fields decoded
// right), encTable is the encoder's table, newest first: a model explains
// it only by holding that table; nil when the encoder does not show it,
// and then no model explains it.
func (dg *diagnosis) observe(pb *playedBlock, diverged bool, encTable []oracle.Field) {
	if dg.models == nil {
		dg.models = newModels()
		dg.rfc = &model{caseID: "", what: "RFC 7541", overhead: spec.EntryOverhead, alive: true, maxSize: spec.DefaultTableSize}
	}
	atRoot := diverged && dg.root == nil
	if atRoot {
		dg.root = pb
	}
	tableOnly := atRoot && pb.tableDiff != "" && pb.roundTripError() == ""
	if dg.rfc.alive && (dg.root == nil || atRoot) {
		rfcRight := pb.walkErr == nil && dg.rfc.decode(pb.reps, pb.in().Headers)
		if !rfcRight {
			dg.rfc.out()
		}
		if atRoot && rfcRight && !tableOnly {
			// The fields decode right with an RFC 7541 table: the
			// divergence is a rule of the wire's, no table model's.
			for _, m := range dg.models {
				m.out()
			}
			return
		}
	}
	for _, m := range dg.models {
		if !m.alive {
			continue
		}
		if acked := pb.in().AckedSizes(); m.followsSetting && len(acked) > 0 {
			m.maxSize = uint64(acked[len(acked)-1])
			m.evict(m.maxSize, -1)
		}
		ok := pb.walkErr == nil && m.decode(pb.reps, pb.in().Headers)
		switch {
		case !ok:
			m.out()
		case tableOnly:
			if m.explained = m.holds(encTable); !m.explained {
				m.out()
			}
		case atRoot:
			m.explained = true
		case dg.root != nil:
			m.after++
		}
	}
}

// explanation returns the model that explains the story's divergence
// best, or nil. A model that went out after the divergence still explains
// it; its after count says how far it went.
func (dg *diagnosis) explanation() *model {
	var best *model
	for _, m := range dg.models {
		if dg.root == nil || !m.explained {
			continue
		}
		if best == nil || m.after > best.after {
			best = m
		}
	}
	return best
}

// dynamicMismatch reports whether the first field the strict oracle or the
// walker shows decoded wrong comes from a dynamic-table reference (an
// index or a name index past the static table), or the strict oracle
// found an index past the tables: the encoder's table and the decoder's
// disagree (step 3).
func dynamicMismatch(pb *playedBlock) bool {
	if e := pb.strictError(); e != nil && e.Section == "2.3.3" {
		return true
	}
	if len(pb.decoded) == 0 || pb.decoded[0].err != nil || pb.decoded[0].skipped {
		return false
	}
	got, sent := pb.decoded[0].fields, pb.in().Headers
	n := 0
	for _, r := range pb.reps {
		if r.Kind == wire.SizeUpdate {
			continue
		}
		if n >= len(got) || n >= len(sent) {
			return false
		}
		if got[n].Name != sent[n].Name || got[n].Value != sent[n].Value {
			dynamic := r.Index.Value > spec.StaticTableLen
			if r.Kind != wire.Indexed && r.Name != nil {
				dynamic = false
			}
			if r.Kind != wire.Indexed && got[n].Name == sent[n].Name {
				dynamic = false // the value, a literal, is what differs
			}
			return dynamic
		}
		n++
	}
	return false
}

// modelText is the detail of a divergence a model explains.
func modelText(m *model, problem string) string {
	return fmt.Sprintf("%s; the story decodes to the fields sent, up to and including this block, if %s", problem, m.what)
}

// consequences lists what followed from the divergences filed under the
// case: the blocks after them, and the other cases whose rules found fault
// at or after them (ruleIndex maps a case id to its rule's index).
func (c *caseRun) consequences(ruleIndex map[string]int) []Consequence {
	type tally struct {
		Consequence
		stories map[*story]bool
	}
	byCase := map[string]*tally{}
	var ids []string
	note := func(id string, b *playedBlock, detail string) {
		t := byCase[id]
		if t == nil {
			t = &tally{Consequence: Consequence{Case: id, First: b.where(), Detail: detail}, stories: map[*story]bool{}}
			byCase[id] = t
			ids = append(ids, id)
		}
		t.Blocks++
		t.stories[b.story] = true
	}
	seen := map[*playedBlock]bool{}
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.root == nil || b.root.owner != c.c.ID || seen[b] {
				continue
			}
			seen[b] = true
			if b != b.root {
				note("", b, "")
			}
			if b.problems == nil {
				continue
			}
			for id, i := range ruleIndex {
				if id != c.c.ID && b.problems[i] != "" {
					note(id, b, b.problems[i])
				}
			}
		}
	}
	slices.SortFunc(ids, compareIDs)
	out := make([]Consequence, 0, len(ids))
	for _, id := range ids {
		t := byCase[id]
		t.Stories = len(t.stories)
		out = append(out, t.Consequence)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// causes returns the cases owning the divergences that kept this case
// from judging blocks of its scenarios, sorted, and where the first such
// divergence is.
func (c *caseRun) causes() (ids []string, first string) {
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.root == nil || b.encErr != nil || c.judges(b) || b.root.owner == "" || b.root.owner == c.c.ID {
				continue
			}
			if first == "" {
				first = b.root.where()
			}
			if !slices.Contains(ids, b.root.owner) {
				ids = append(ids, b.root.owner)
			}
		}
	}
	slices.SortFunc(ids, compareIDs)
	return ids, first
}

// causesNote says which root causes kept the case from judging blocks, or
// returns "".
func (c *caseRun) causesNote(ev Evidence) string {
	ids, first := c.causes()
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("%s not judged: they follow divergences filed under %s (first at %s)", plural(ev.NotJudged, "block", "blocks"), strings.Join(ids, ", "), first)
}
