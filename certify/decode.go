package certify

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/panel"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// storyDecoders decodes the blocks of one story: a panel of every oracle
// built in, strict first, each in a fresh context (oracle/panel); the
// encoder, to compare its table when it shows it (nil for recorded
// stories); the dynamic table's maximum size as the wire walker tracks
// it; and the limits of the run.
type storyDecoders struct {
	panel   *panel.Panel
	enc     Encoder
	maxSize uint32
	lim     limits
	// scenario names the scenario the story belongs to, and dg follows
	// the story to diagnose its divergence.
	scenario string
	dg       diagnosis
	// inferred is set when the story's lists are inferred
	// (Recording.InferredLists): each block is reconciled with what every
	// oracle decodes before it is judged.
	inferred bool
}

// newStoryDecoders returns the decoders of a story encoded by enc (nil
// for recorded wire).
func newStoryDecoders(enc Encoder, lim limits, scenario string) *storyDecoders {
	return &storyDecoders{panel: panel.New(), enc: enc, maxSize: spec.DefaultTableSize, lim: lim, scenario: scenario}
}

// decode decodes pb.wire with every decoder of the story's context and
// fills in the oracles' verdicts and the table comparison.
func (sd *storyDecoders) decode(pb *playedBlock) {
	p := sd.panel
	listLimit := max(sd.lim.maxList, listSize(pb.in().Headers))
	p.Acknowledge(pb.in().AckedSizes())
	p.SetMaxHeaderListSize(listLimit)
	pb.wireLen, pb.wireDigest = len(pb.wire), sha256.Sum256(pb.wire)
	// Every field adds at least 32 octets to the header list (§4.1); a
	// handful of size updates may come first.
	pb.reps, pb.walkErr = wire.WalkLimit(pb.wire, listLimit/spec.EntryOverhead+16)
	pb.maxBefore = sd.maxSize
	for _, r := range pb.reps {
		if r.Kind == wire.SizeUpdate {
			sd.maxSize = uint32(min(r.Index.Value, 1<<32-1))
		}
	}
	results := p.Decode(pb.wire)
	pb.decoded = make([]decoded, len(results))
	for i, r := range results {
		pb.decoded[i] = decoded{oracle: r.Oracle, skipped: r.Skipped, fields: r.Fields, count: len(r.Fields), err: r.Err}
	}
	if !pb.decoded[0].skipped && pb.decoded[0].err == nil {
		pb.strictDecoded = true
		pb.updates = p.Strict.Updates()
		pb.warnings = p.Strict.Warnings()
		if sd.inferred {
			pb.reconcile()
		}
		if fieldsDiff(pb.in().Headers, pb.decoded[0].fields) == "" {
			for i := 1; i < len(pb.decoded); i++ {
				if d := &pb.decoded[i]; d.err != nil {
					d.known = pb.knownLeniency(d)
				}
			}
		}
	}
	pb.tableDiff, pb.tablesCompared = compareTables(p.Decoders, p.Broken, sd.enc)
	var events tableEvents
	if pb.strictDecoded {
		e := p.Strict.TableEvents()
		events = tableEvents{known: true, inserted: e.Inserted + e.Oversized, byUpdate: e.EvictedBySizeUpdate, byInsertion: e.EvictedByInsertion}
	}
	pb.count(events)
	if sd.dg.root == nil && pb.diverges() {
		// What settle needs of the block once its fields are released.
		pb.diverged, pb.dynamic, pb.scenario = pb.divergence(), dynamicMismatch(pb), sd.scenario
		sd.dg.observe(pb, true, sd.encoderTable(pb))
	} else {
		sd.dg.observe(pb, false, nil)
	}
	pb.root = sd.dg.root
	pb.clean = pb.root == nil
}

// knownLeniency returns the oracle.KnownLeniencies case that explains
// why oracle d rejected a block the strict oracle decoded, or "".
func (pb *playedBlock) knownLeniency(d *decoded) string {
	longest := 0
	for _, f := range pb.decoded[0].fields {
		longest = max(longest, len(f.Name), len(f.Value))
	}
	if l, ok := oracle.MatchLeniency(oracle.Disagreement{Oracle: d.oracle, Updates: len(pb.updates), LongestString: longest}); ok {
		return l.Case
	}
	return ""
}

// encoderTable returns the encoder's table after a block whose fields every
// oracle decoded right but whose tables differ, when the encoder shows it:
// a model explains such a divergence only by holding the same table.
func (sd *storyDecoders) encoderTable(pb *playedBlock) []oracle.Field {
	if pb.tableDiff == "" || pb.walkErr != nil || pb.roundTripError() != "" {
		return nil
	}
	if tr, ok := sd.enc.(TableReader); ok {
		return tr.Table()
	}
	return nil
}

// diverges reports whether the decoders' view of the block departs from
// what the encoder sent: the walker cannot split it, an oracle rejects it
// (without a known leniency) or decodes other fields, or tables differ.
func (pb *playedBlock) diverges() bool {
	return pb.walkErr != nil || pb.tableDiff != "" || pb.roundTripError() != ""
}

// divergence describes how the block diverged, for the failure of the
// case that owns it when that case's own rule found nothing.
func (pb *playedBlock) divergence() string {
	if pb.tableDiff != "" {
		return "after the block, " + pb.tableDiff
	}
	if e := pb.roundTripError(); e != "" {
		return e
	}
	return "the block is not a sequence of RFC 7541 representations: " + pb.walkErr.Error()
}

// settle files the story's divergence, if any, under its owner (the
// order of diagnose.go), once the story has ended: a model's reach after
// the divergence is known only then.
func (sd *storyDecoders) settle(j *judging) {
	root := sd.dg.root
	if root == nil || j == nil {
		return
	}
	for _, m := range sd.dg.models {
		// What settleModels reads of a model is its rule and its reach:
		// its table goes with the story.
		m.out()
		if m.explained {
			root.explainers = append(root.explainers, m)
		}
	}
	root.owner, root.rootProblem, root.byCause = j.owner(root, sd.dg.explanation())
}

// settleModels files again the divergences a model explains, once every
// scenario of a target has been played: of the models that explain a
// divergence, the one that explains the most of the target's divergences
// owns it, then the one that goes furthest in its story. One defect shows
// the same way in every story; two models that explain one story alike
// (31 octets of overhead, one eviction too few) are told apart by the
// others.
func (j *judging) settleModels(played []*transcript) {
	count := map[string]int{}
	var roots []*playedBlock
	for _, tr := range played {
		for _, b := range tr.blocks {
			if b.root != b || b.byCause || len(b.explainers) == 0 {
				continue
			}
			roots = append(roots, b)
			for _, m := range b.explainers {
				count[m.what]++
			}
		}
	}
	for _, root := range roots {
		var best *model
		for _, m := range root.explainers {
			if best == nil || count[m.what] > count[best.what] || count[m.what] == count[best.what] && m.after > best.after {
				best = m
			}
		}
		// Models of the same rule that explain as much name the other
		// departures the same divergences fit.
		var alike []string
		for _, m := range root.explainers {
			if m != best && m.caseID == best.caseID && count[m.what] == count[best.what] && m.after == best.after {
				alike = append(alike, m.what)
			}
		}
		root.owner, root.rootProblem, _ = j.owner(root, best)
		if len(alike) > 0 && root.owner == best.caseID {
			root.rootProblem += " (or if " + strings.Join(alike, ", or if ") + ")"
		}
	}
}

// compareTables describes the first disagreement between the tables of
// the decoders still in a defined state and the encoder's, or returns "";
// it also returns how many tables it compared.
func compareTables(ds []oracle.Decoder, broken []bool, enc Encoder) (string, int) {
	var ref []oracle.Field
	refName := ""
	compared := 0
	for i, d := range ds {
		if broken[i] {
			continue
		}
		t := d.Table()
		compared++
		if refName == "" {
			ref, refName = t, d.Name()
			continue
		}
		if diff := tableDiff(ref, t); diff != "" {
			return fmt.Sprintf("oracles %s and %s disagree: %s", refName, d.Name(), diff), compared
		}
	}
	if tr, ok := enc.(TableReader); ok && refName != "" {
		compared++
		if diff := tableDiff(ref, tr.Table()); diff != "" {
			return fmt.Sprintf("the encoder's table differs from oracle %s's: %s", refName, diff), compared
		}
	}
	return "", compared
}

// tableDiff describes how table b differs from table a, or returns "".
func tableDiff(a, b []oracle.Field) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Name != b[i].Name || a[i].Value != b[i].Value {
			return fmt.Sprintf("entry %d (index %d) is %s, not %s", i, spec.StaticTableLen+1+i, fieldString(b[i].Name, b[i].Value), fieldString(a[i].Name, a[i].Value))
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d entries (size %d), not %d (size %d)", len(b), tableSize(b), len(a), tableSize(a))
	}
	return ""
}

func tableSize(t []oracle.Field) int {
	n := 0
	for _, f := range t {
		n += len(f.Name) + len(f.Value) + spec.EntryOverhead
	}
	return n
}

// strictError returns the strict oracle's error for the block, if it
// reported a violation of RFC 7541 there.
func (b *playedBlock) strictError() *strict.Error {
	var e *strict.Error
	if len(b.decoded) > 0 && errors.As(b.decoded[0].err, &e) {
		return e
	}
	return nil
}
