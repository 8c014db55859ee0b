package decoders

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// decRunner grades one decoder target.
type decRunner struct {
	target  DecoderTarget
	kind    string
	lacks   DecoderLacks
	stories map[string][]decStory

	breakdown, breakdownRepro, breakdownStderr string
}

// decOutcome is what one story showed of the decoder.
type decOutcome struct {
	story *decStory
	// judged counts the blocks judged, and instances the instances of the
	// case's rule among them.
	judged, instances int
	ev                Evidence
	// div is the first divergence, nil when there was none.
	div *decDivergence
	// unsupported says why the story could not be played.
	unsupported string
	// broke is set when the story ended in the target's breakdown.
	broke bool
	// hidden counts valid blocks accepted whose fields were not visible.
	hidden int
	// detail is a measurement (dec/7.3/x).
	detail string
}

// decDivergence is a block where the decoder did not do what the strict
// decoder did.
type decDivergence struct {
	step int
	// feats is what the story's blocks used up to and including it.
	feats  decFeature
	what   string
	repro  string
	notJud int // blocks of the story left unjudged after it
	// invalid is set when the block is the one the story tests a refusal
	// on; a divergence before it is a valid block decoded wrongly.
	invalid bool
	// ev is what the block held: a case that finds fault with it judged
	// it.
	ev Evidence
}

// run grades every case, in chain order.
func (dr *decRunner) run(cases []*decCase) map[string]*Result {
	results := map[string]*Result{}
	failed := map[string]decFeature{} // cases failed on their own, and the features they failed on
	var order []string
	for _, c := range cases {
		cstart := time.Now()
		res := dr.grade(c, failed, &order, results)
		res.Duration = time.Since(cstart)
		results[c.ID] = res
		if res.Grade == Fail || res.Grade == NonStrict {
			order = append(order, c.ID)
		}
	}
	return results
}

// grade runs one case's stories and grades it; failed holds the features
// the cases before it failed on, order those cases in chain order.
func (dr *decRunner) grade(c *decCase, failed map[string]decFeature, order *[]string, results map[string]*Result) *Result {
	if why, ok := dr.lacks.NotApplicable[c.ID]; ok {
		return &Result{Grade: Unsupported, NotApplicable: true, Detail: "n/a: " + why}
	}
	if c.lack != "" && slices.Contains(dr.lacks.Names(), c.lack) {
		return &Result{Grade: Unsupported, Detail: "not graded: the decoder declares the lack \"" + c.lack + "\""}
	}
	if c.kind == decTime {
		if dr.breakdown != "" {
			return brokenDown()
		}
		return dr.timing(c)
	}
	violation := c.Violation
	if dr.kind == "live" && c.liveViolation != 0 {
		violation = c.liveViolation
	}
	var outs []decOutcome
	for i := range dr.stories[c.ID] {
		outs = append(outs, dr.play(c, &dr.stories[c.ID][i]))
	}
	res := &Result{}
	ev := Evidence{Of: c.of}
	var own *decOutcome
	var reasons []string
	hidden, broke := 0, false
	consequences := map[string]*Consequence{}
	for i := range outs {
		o := &outs[i]
		ev.Add(o.ev)
		ev.Instances += o.instances
		hidden += o.hidden
		broke = broke || o.broke
		if o.unsupported != "" {
			reasons = append(reasons, o.unsupported)
		}
		if o.div == nil {
			continue
		}
		ev.NotJudged += o.div.notJud
		owner := ""
		for _, id := range *order {
			if failed[id]&o.div.feats != 0 {
				owner = id
				break
			}
		}
		if owner == "" && !o.div.invalid && (c.kind == decRejects || c.kind == decBomb) {
			// A valid block decoded wrongly before the block a refusal
			// case tests breaks §3.2, not the refusal's rule.
			if r := results[decodesRight]; r != nil {
				owner = decodesRight
				if r.Grade != Fail {
					r.Grade, r.Detail, r.Repro = Fail, o.div.what, o.div.repro
					r.At = fmt.Sprintf("story %s, block %d", o.story.name, o.div.step)
					r.Replay = dr.replay(o, decodesRight)
					*order = append(*order, decodesRight)
				}
			}
		}
		if owner == "" {
			if own == nil {
				own = o
			}
			// The case judged the block it found at fault.
			ev.Add(o.div.ev)
			failed[c.ID] |= o.div.feats & c.feats
			continue
		}
		// A consequence of an earlier root cause: the root's result
		// lists it, this case judged nothing there.
		ev.NotJudged++
		at := fmt.Sprintf("story %s, block %d", o.story.name, o.div.step)
		if cons, ok := consequences[owner]; ok {
			cons.Blocks += 1 + o.div.notJud
			cons.Stories++
		} else {
			consequences[owner] = &Consequence{Case: c.ID, Blocks: 1 + o.div.notJud, Stories: 1, First: at, Detail: o.div.what}
		}
	}
	for owner, cons := range consequences {
		if r := results[owner]; r != nil {
			r.Consequences = append(r.Consequences, *cons)
		}
	}
	res.Evidence = ev
	switch {
	case own != nil:
		res.Grade = violation
		res.At = fmt.Sprintf("story %s, block %d", own.story.name, own.div.step)
		res.Detail = own.div.what
		res.Repro = own.div.repro
		res.Replay = dr.replay(own, c.ID)
	case ev.Instances > 0:
		res.Grade = Pass
		res.Detail = "pass: " + ev.String()
		if o := firstDetail(outs); o != "" {
			res.Detail += "; " + o
		}
	default:
		res.Grade = Unsupported
		var causes []string
		for owner := range consequences {
			causes = append(causes, owner)
		}
		slices.Sort(causes)
		if broke && len(causes) == 0 {
			causes = append(causes, BreakdownCause)
		}
		switch {
		case len(causes) > 0:
			res.CausedBy = causes
			res.Detail = "consequence: every block it would judge follows a divergence filed under " + strings.Join(causes, ", ")
		case hidden > 0:
			res.Detail = fmt.Sprintf("not exercised: the target does not show the fields it decodes (%s accepted, none compared)", plural(hidden, "valid block", "valid blocks"))
		case len(reasons) > 0:
			res.Detail = "not exercised: " + strings.Join(uniq(reasons), "; ")
		default:
			res.Detail = "not exercised: no story judged"
		}
	}
	return res
}

func firstDetail(outs []decOutcome) string {
	for _, o := range outs {
		if o.detail != "" {
			return o.detail
		}
	}
	return ""
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
