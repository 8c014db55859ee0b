package certify

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/oracle"
)

// Lists inferred by the source. A live proxy is given the origin's
// response and relays it; a live server answers with the fields a script
// gave its app: the list its encoder was given is the source's inference,
// and the target may have chosen other values of its own (a proxy that
// rewrites a content-type, sets accept-ranges). When every oracle decodes
// such a block alike and without error to a list other than the one
// inferred, the wire is sound and the difference is the target's doing:
// the block is judged as it decodes, so that the rules of the wire
// (Huffman codes and padding, tables, size updates) see what the target
// meant to send, and the difference is reported once, under the list
// cases (enc/3.2/1, enc/3.2/2), as an undeclared transformation. Where the
// source knows the list the encoder was given (in process, stdio,
// recordings with their input), nothing of this applies: a wrong decoding
// is the encoder's defect, filed under the rule it breaks.

// inferredLists reports whether t's lists are inferred
// (Recording.InferredLists).
func inferredLists(t Target) bool {
	rt, ok := t.(*recordedTarget)
	return ok && rt.rec.InferredLists
}

// listChange is one field a target wrote otherwise than the list inferred
// for it: a value changed, a field added (not sent) or one left out (not
// relayed).
type listChange struct {
	name, sent, relayed string
	notSent, notRelayed bool
}

func (c listChange) String() string {
	switch {
	case c.notSent:
		return fmt.Sprintf("not sent, relayed %s", quoteShort(c.relayed))
	case c.notRelayed:
		return fmt.Sprintf("sent %s, not relayed", quoteShort(c.sent))
	}
	return fmt.Sprintf("sent %s, relayed %s", quoteShort(c.sent), quoteShort(c.relayed))
}

// reconcile judges a block whose list is inferred as the oracles decode
// it, when they decode it alike and without error to another list: the
// strict oracle, and every other one whose context is still defined, but
// for a rejection that a known leniency of its own explains (as
// roundTripError counts them). The block is then judged against that list
// (asRelayed), and relayed records how it differs from the one inferred.
// It is called once the strict oracle decoded the block.
func (pb *playedBlock) reconcile() {
	strict := pb.decoded[0].fields
	for i := 1; i < len(pb.decoded); i++ {
		d := &pb.decoded[i]
		switch {
		case d.skipped:
		case d.err != nil:
			if pb.knownLeniency(d) == "" {
				return
			}
		case !sameFields(strict, d.fields):
			return
		}
	}
	in := pb.in()
	if fieldsDiff(in.Headers, strict) == "" {
		return
	}
	asRelayed := *in
	asRelayed.Headers, pb.relayed = listChanges(in.Headers, strict)
	pb.asRelayed = &asRelayed
}

// sameFields reports whether two oracles decoded the same names and
// values, in the same order.
func sameFields(a, b []oracle.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}

// listChanges returns the list got, each field keeping the sensitive mark
// of the field inferred it stands for, and how got differs from inferred.
// A field got stands for the first field inferred of its name not yet
// taken, so that repeated fields keep their order; a field of got with no
// such field was added, and the fields inferred that none took were left
// out.
func listChanges(inferred []Field, got []oracle.Field) ([]Field, []listChange) {
	// The fields inferred of each name, in order, not yet taken: a
	// pairing linear in the lists' lengths, whatever a peer sends.
	byName := map[string][]int{}
	for j, f := range inferred {
		byName[f.Name] = append(byName[f.Name], j)
	}
	taken := make([]bool, len(inferred))
	list := make([]Field, len(got))
	var changes []listChange
	for i, g := range got {
		list[i] = Field{Name: g.Name, Value: g.Value}
		left := byName[g.Name]
		if len(left) == 0 {
			changes = append(changes, listChange{name: g.Name, relayed: g.Value, notSent: true})
			continue
		}
		j := left[0]
		byName[g.Name] = left[1:]
		taken[j] = true
		list[i].Sensitive = inferred[j].Sensitive
		if inferred[j].Value != g.Value {
			changes = append(changes, listChange{name: g.Name, sent: inferred[j].Value, relayed: g.Value})
		}
	}
	for j, f := range inferred {
		if !taken[j] {
			changes = append(changes, listChange{name: f.Name, sent: f.Value, notRelayed: true})
		}
	}
	return list, changes
}

// maxChanges bounds the kinds of change an undeclared transformation's
// detail describes one by one; the others are counted.
const maxChanges = 4

// changeKey is a kind of change: to the fields of one name, the values
// changed, the field added or the field left out.
type changeKey struct {
	name                string
	notSent, notRelayed bool
}

// changeGroup is the changes of one kind in the blocks a case judged.
type changeGroup struct {
	first   listChange
	firstAt *playedBlock
	count   int
	// others counts the changes unlike the first (other values).
	others int
}

// undeclaredTransformation describes the changes recorded in the blocks
// the case judges, field by field, or returns "" and nil when there are
// none; the block returned is the first that holds one.
func (c *caseRun) undeclaredTransformation() (string, *playedBlock) {
	var order []changeKey
	groups := map[changeKey]*changeGroup{}
	fields, blocks := 0, 0
	var first *playedBlock
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if len(b.relayed) == 0 || b.encErr != nil || !c.judges(b) {
				continue
			}
			if blocks++; first == nil {
				first = b
			}
			for _, ch := range b.relayed {
				fields++
				key := changeKey{ch.name, ch.notSent, ch.notRelayed}
				g := groups[key]
				if g == nil {
					g = &changeGroup{first: ch, firstAt: b}
					groups[key] = g
					order = append(order, key)
				}
				g.count++
				if ch != g.first {
					g.others++
				}
			}
		}
	}
	if fields == 0 {
		return "", nil
	}
	var parts []string
	for i, key := range order {
		if i == maxChanges {
			parts = append(parts, fmt.Sprintf("and %s more", plural(len(order)-i, "kind", "kinds")))
			break
		}
		g := groups[key]
		part := fmt.Sprintf("%s: %s (%s, first at %s", quoteShort(key.name), g.first, plural(g.count, "time", "times"), g.firstAt.where())
		if g.others > 0 {
			part += fmt.Sprintf("; %d with other values", g.others)
		}
		parts = append(parts, part+")")
	}
	text := fmt.Sprintf("undeclared transformation: the target wrote %s otherwise than the lists it was given, in %s that every oracle decodes alike and without error, so the values are the target's choice, not an HPACK defect (those blocks are judged by every other rule as they decode): %s; declare what the target does to the lists (hpackcert live --transform) to have them expected as it writes them",
		plural(fields, "field", "fields"), plural(blocks, "block", "blocks"), strings.Join(parts, "; "))
	return text, first
}

// listsCheck grades the round trip of every block (enc/3.2/1, enc/3.2/2)
// and the undeclared transformations of a target whose lists are
// inferred: either fails the case.
func listsCheck(c *caseRun) verdict {
	v := everyBlock("every block round-trips through every oracle")(c)
	text, at := c.undeclaredTransformation()
	switch {
	case text == "":
		return v
	case v.grade == c.c.Violation:
		v.detail += "; besides, " + text
		return v
	}
	return verdict{grade: c.c.Violation, detail: text, repro: at.repro(at.relayedText()), evidence: v.evidence}
}

// relayedText says how the block differs from the list inferred for it,
// for its reproduction.
func (pb *playedBlock) relayedText() string {
	var parts []string
	for i, ch := range pb.relayed {
		if i == maxChanges {
			parts = append(parts, fmt.Sprintf("and %d more", len(pb.relayed)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s", quoteShort(ch.name), ch))
	}
	return "every oracle decodes the block alike to other fields than the list given: " + strings.Join(parts, "; ")
}
