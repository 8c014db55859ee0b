package livegrade

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/panel"
	"github.com/hpackcert/hpackcert/vectors"
)

// Stories turns captured connections into stories of recorded wire, one
// per connection that has blocks, one case per block in order, for
// certify.RecordedStories. Each case carries the settings its block was
// written under, its wire, and the header list it must decode to: what
// was sent (Block.Sent) after tr, the target's declared transformation.
//
// Where the certifier cannot know a field's value, the value is taken
// from the block itself, as decoded by oracle/strict (or, when strict
// rejects the block, by the first other oracle that decodes it): a field
// tr lets the target add or replace, and every field of a block whose
// list is unknown (Sent is nil: a server hpackcert does not script, a
// trailer, a push) or that is not the response to the request (its
// ":status" is not the one sent: the proxy answered on its own). Such a
// block still gets every check of the wire; its round trip checks only
// that the oracles agree. The notes say how many blocks were graded so.
func Stories(conns []Conn, tr Transform) ([]*vectors.Story, []string) {
	var stories []*vectors.Story
	var notes []string
	for _, c := range conns {
		for _, n := range c.Notes {
			notes = append(notes, c.Name+": "+n)
		}
		if len(c.Blocks) == 0 {
			continue
		}
		st := &vectors.Story{Path: c.Name, Description: "hpackcert live capture, connection " + c.Name}
		decoders := newNormalisers()
		unknown, unrelayed := 0, 0
		var firstUnrelayed string
		for i, b := range c.Blocks {
			decoded, ok := decoders.decode(b)
			got := asHeaders(decoded)
			var expected []vectors.Field
			switch {
			case b.Sent == nil:
				unknown++
				expected = got
			case ok && status(got) != status(b.Sent):
				unrelayed++
				if firstUnrelayed == "" {
					firstUnrelayed = fmt.Sprintf("%s (status %s)", b.Step, status(got))
				}
				expected = got
			case ok:
				expected = expectList(b.Sent, decoded, tr)
			default:
				// No oracle decodes the block: what was sent, less what the
				// target drops or replaces, is all that can be expected.
				expected = expectList(b.Sent, nil, tr)
			}
			st.Cases = append(st.Cases, vectors.Case{Seqno: i, TableSizes: b.Acked, Wire: b.Wire, Headers: expected})
		}
		if unknown > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d of %d blocks with a header list hpackcert does not know, graded on their own decoded list", c.Name, unknown, len(c.Blocks)))
		}
		if unrelayed > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d blocks are not the response scripted (the target answered on its own, first at %s), graded on their own decoded list", c.Name, unrelayed, firstUnrelayed))
		}
		stories = append(stories, st)
	}
	return stories, notes
}

// normalisers decode one connection's blocks in order through the panel
// of every oracle, strict first, to learn the values the certifier cannot
// know.
type normalisers struct{ p *panel.Panel }

// Every oracle stops decoding a block past a header list of
// certify.DefaultMaxBlockSize octets, as the engine's oracles stop past their limit:
// a block of references to one big entry costs no oracle more than that.
func newNormalisers() *normalisers {
	p := panel.New()
	p.SetMaxHeaderListSize(certify.DefaultMaxBlockSize)
	return &normalisers{p: p}
}

// decode returns the block as the first oracle that decodes it sees it.
// Every oracle decodes every block, to keep its table.
func (n *normalisers) decode(b Block) ([]oracle.Field, bool) {
	n.p.Acknowledge(b.Acked)
	for _, r := range n.p.Decode(b.Wire) {
		if !r.Skipped && r.Err == nil {
			return r.Fields, true
		}
	}
	return nil, false
}

// asHeaders returns the fields an oracle decoded without the flag it set
// on those that arrived never indexed: the expected list says what the
// block must decode to, and which fields must be sensitive is the
// script's to say.
func asHeaders(fields []oracle.Field) []vectors.Field {
	out := make([]vectors.Field, len(fields))
	for i, f := range fields {
		out[i] = vectors.Field{Name: f.Name, Value: f.Value}
	}
	return out
}

// status returns a list's ":status", or "".
func status(list []vectors.Field) string {
	for _, f := range list {
		if f.Name == ":status" {
			return f.Value
		}
	}
	return ""
}

// expectList returns the list a block must decode to: the fields sent, in
// the order the target wrote them, with the values the target was given,
// except where tr says the target decides. It walks the decoded list:
//
//   - a field tr replaces is expected as decoded;
//   - a field matching, by name, a field sent not yet used is expected as
//     sent (the first such, so that repeated fields keep their order and a
//     proxy may reorder fields of different names, as RFC 9110 §5.3
//     allows);
//   - a field tr lets the target add, when nothing of its name is left to
//     use, is expected as decoded;
//   - any other field (a name the encoder broke) is expected as the next
//     field sent whose name the block lacks, or not at all: the comparison
//     then shows it.
//
// Fields sent that nothing matched, less those tr drops (by name, or for
// their empty value) or replaces, come last: the comparison shows them
// missing.
func expectList(sent []vectors.Field, decoded []oracle.Field, tr Transform) []vectors.Field {
	var rest []vectors.Field
	for _, f := range sent {
		if !tr.Has(tr.Drop, f.Name) && !tr.Has(tr.Replace, f.Name) && !(tr.DropEmpty && f.Value == "") {
			rest = append(rest, f)
		}
	}
	used := make([]bool, len(rest))
	inBlock := map[string]bool{}
	for _, d := range decoded {
		inBlock[strings.ToLower(d.Name)] = true
	}
	take := func(match func(f vectors.Field) bool) (vectors.Field, bool) {
		for i, f := range rest {
			if !used[i] && match(f) {
				used[i] = true
				return f, true
			}
		}
		return vectors.Field{}, false
	}
	var out []vectors.Field
	for _, d := range decoded {
		asDecoded := vectors.Field{Name: d.Name, Value: d.Value}
		if tr.Has(tr.Replace, d.Name) {
			out = append(out, asDecoded)
			continue
		}
		if f, ok := take(func(f vectors.Field) bool { return f.Name == d.Name }); ok {
			out = append(out, f)
			continue
		}
		if tr.Has(tr.Add, d.Name) {
			out = append(out, asDecoded)
			continue
		}
		if f, ok := take(func(f vectors.Field) bool { return !inBlock[f.Name] }); ok {
			out = append(out, f)
		}
	}
	for i, f := range rest {
		if !used[i] {
			out = append(out, f)
		}
	}
	return out
}
