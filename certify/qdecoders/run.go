package qdecoders

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/engine"
)

// Options configures a run of the QPACK decoder side.
type Options struct {
	// Cases selects qdec/ cases by id prefix; none selects every case.
	Cases []string
	// Strict turns non-strict grades into failures.
	Strict bool
	// ExpectFail lists known failures that do not fail the run: a case
	// id, "DECODER CASE", "DECODER breakdown", or "DECODER
	// nothing-judged".
	ExpectFail []string
	// Declared lists the cases the user declares a decoder cannot be
	// graded on.
	Declared []Declaration
	// TrafficLists, when positive, is how many header lists of each QIF
	// file the traffic stories encode (default 40).
	TrafficLists int
	// Progress, when set, is called as each decoder starts.
	Progress func(decoder string)
}

// Graded is what grading one decoder target gave, before the run's
// rules (engine.Rules) settle its results, as decoders.Graded is.
type Graded struct {
	// Name is the target's name in the report, made unique in the run
	// (engine.UniqueName); Target.Name() is the name it gave.
	Name   string
	Target qpack.DecoderTarget
	// Kind is how the target is driven (engine.KindOf), Lacks what it
	// declares it cannot do (Lacks.Names, joined).
	Kind, Lacks string
	Elapsed     time.Duration
	// Breakdown, when set, is the target's one failure, BreakdownRepro
	// its reproduction and BreakdownStderr what the program wrote.
	Breakdown, BreakdownRepro, BreakdownStderr string
	// Results maps a case id to its result.
	Results map[string]*Result
}

// Run grades every decoder target on the selected qdec/ cases and
// returns the cases, sorted by id, and each target's grades, in order.
// A case is judged on its own stories, each played on a fresh
// connection: every step must give what the strict decoder gave (the
// sections, blocked or decoded, and the case's part of the decoder
// stream), and a step the strict decoder refuses must be refused with
// its error code. A divergence is filed under the first failed case of
// the chain whose feature the story's steps use, or else under the case
// whose story it is; a crash, a panic or an error that is no
// *qpack.ConnectionError is the target's breakdown, its one failure,
// after which none of its stories is played.
func Run(targets []qpack.DecoderTarget, opts Options) ([]Case, []Graded, error) {
	cases, err := selectCases(opts.Cases)
	if err != nil {
		return nil, nil, err
	}
	stories, err := prepareStories(cases, opts)
	if err != nil {
		return nil, nil, err
	}
	var out []Graded
	var names []string
	for _, t := range targets {
		name := engine.UniqueName(names, t.Name())
		names = append(names, name)
		if opts.Progress != nil {
			opts.Progress(name)
		}
		start := time.Now()
		r := &runner{target: t, kind: engine.KindOf(unwrap(t)), stories: stories}
		if l, ok := t.(Lacker); ok {
			r.lacks = l.QPACKDecoderLacks()
		}
		results := r.run(cases)
		if r.breakdown == "" {
			if err := engine.SourceBreakdown(t); err != nil {
				r.breakdown = err.Error()
			}
		}
		out = append(out, Graded{Name: name, Target: t, Kind: r.kind, Lacks: strings.Join(r.lacks.Names(), ", "),
			Elapsed: time.Since(start), Breakdown: r.breakdown, BreakdownRepro: r.breakdownRepro,
			BreakdownStderr: r.breakdownStderr, Results: results})
	}
	sorted := make([]Case, len(cases))
	for i, c := range cases {
		sorted[i] = c.Case
	}
	slices.SortFunc(sorted, func(a, b Case) int { return engine.CompareIDs(a.ID, b.ID) })
	return sorted, out, nil
}

// prepareStories makes the stories of every selected case and has the
// strict decoder say what each step must give.
func prepareStories(cases []*qCase, opts Options) (map[string][]story, error) {
	in, err := trafficStories(opts.TrafficLists)
	if err != nil {
		return nil, err
	}
	out := map[string][]story{}
	for _, c := range cases {
		list := c.stories(in)
		// Each case plays stories of its own: the traffic is shared,
		// the expectations written per case.
		list = slices.Clone(list)
		for i := range list {
			list[i].steps = slices.Clone(list[i].steps)
			if err := list[i].prepare(); err != nil {
				return nil, err
			}
			if err := list[i].fits(c); err != nil {
				return nil, err
			}
		}
		out[c.ID] = list
	}
	return out, nil
}

// fits checks that the story tests what its case judges: a refusal
// case's story ends in a step the strict decoder refuses, any other's
// has none.
func (s *story) fits(c *qCase) error {
	last := len(s.steps) - 1
	refused := last >= 0 && s.steps[last].expect.refused != ""
	if want := c.kind == kRejects || c.kind == kBomb; refused != want {
		return fmt.Errorf("qdecoders: story %s of %s: the strict decoder refuses its last step: %v, expected %v", s.name, c.ID, refused, want)
	}
	return nil
}

// runner grades one decoder target.
type runner struct {
	target  qpack.DecoderTarget
	kind    string
	lacks   Lacks
	stories map[string][]story

	breakdown, breakdownRepro, breakdownStderr string
}

// run grades every case, in chain order.
func (r *runner) run(cases []*qCase) map[string]*Result {
	results := map[string]*Result{}
	failed := map[string]feature{} // cases failed on their own, and the features they failed on
	var order []string
	for _, c := range cases {
		start := time.Now()
		res := r.grade(c, failed, &order, results)
		res.Duration = time.Since(start)
		results[c.ID] = res
		if res.Grade == Fail || res.Grade == NonStrict {
			order = append(order, c.ID)
		}
	}
	return results
}

// decodesRight is the case a valid step decoded wrongly is filed under,
// in a story of a case that judges something else, when no feature
// case owns it.
const decodesRight = "qdec/2.2/1"

// grade plays one case's stories and grades it; failed holds the
// features the cases before it failed on, order those cases in chain
// order.
func (r *runner) grade(c *qCase, failed map[string]feature, order *[]string, results map[string]*Result) *Result {
	if c.lack != "" && slices.Contains(r.lacks.Names(), c.lack) {
		return &Result{Grade: Unsupported, Detail: "not graded: the decoder declares the lack \"" + c.lack + "\""}
	}
	var outs []outcome
	for i := range r.stories[c.ID] {
		outs = append(outs, r.play(c, &r.stories[c.ID][i]))
	}
	res := &Result{}
	ev := Evidence{Of: c.of}
	var own *outcome
	var reasons []string
	broke := false
	consequences := map[string]*Consequence{}
	for i := range outs {
		o := &outs[i]
		ev.Add(o.ev)
		ev.Instances += o.instances
		broke = broke || o.broke
		if o.unsupported != "" {
			reasons = append(reasons, o.unsupported)
		}
		if o.div == nil {
			continue
		}
		ev.NotJudged += o.div.notJudged
		owner := r.owner(c, o.div, failed, order, results)
		if owner == "" {
			if own == nil {
				own = o
			}
			ev.Add(o.div.ev)
			failed[c.ID] |= o.div.feats & c.feats
			continue
		}
		// A consequence of an earlier root cause: the root's result
		// lists it, this case judged nothing there.
		ev.NotJudged++
		at := fmt.Sprintf("story %s, step %d", o.story.name, o.div.step)
		if cons, ok := consequences[owner]; ok {
			cons.Blocks += 1 + o.div.notJudged
			cons.Stories++
		} else {
			consequences[owner] = &Consequence{Case: c.ID, Blocks: 1 + o.div.notJudged, Stories: 1, First: at, Detail: o.div.what}
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
		res.Grade = c.Violation
		res.At = fmt.Sprintf("story %s, step %d", own.story.name, own.div.step)
		res.Detail = own.div.what
		res.Repro = own.div.repro
	case ev.Instances > 0:
		res.Grade = Pass
		res.Detail = "pass: " + ev.String()
		if d := firstDetail(outs); d != "" {
			res.Detail += "; " + d
		}
		if len(reasons) > 0 {
			// Stories left out by a lack: the pass is on the others.
			res.Detail += fmt.Sprintf("; %s not played: %s", plural(len(reasons), "story", "stories"), reasons[0])
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
			res.Detail = "consequence: every step it would judge follows a divergence filed under " + strings.Join(causes, ", ")
		case len(reasons) > 0:
			slices.Sort(reasons)
			res.Detail = "not exercised: " + strings.Join(slices.Compact(reasons), "; ")
		default:
			res.Detail = "not exercised: no story judged"
		}
	}
	return res
}

// owner returns the case a divergence of case c is filed under: the
// first failed case whose features the steps up to it use, or, for a
// valid step decoded wrongly in a story of a case that judges something
// else, qdec/2.2/1 (failed by it when it passed); "" for c itself.
func (r *runner) owner(c *qCase, div *divergence, failed map[string]feature, order *[]string, results map[string]*Result) string {
	for _, id := range *order {
		if failed[id]&div.feats != 0 {
			return id
		}
	}
	if !div.decoding || c.kind == kDecodes || c.kind == kNever {
		return ""
	}
	res := results[decodesRight]
	if res == nil {
		return ""
	}
	if res.Grade != Fail {
		res.Grade, res.Detail, res.Repro = Fail, div.what, div.repro
		res.At = fmt.Sprintf("story %s, step %d", div.story, div.step)
		*order = append(*order, decodesRight)
		failed[decodesRight] |= div.feats & basics
	}
	return decodesRight
}

func firstDetail(outs []outcome) string {
	for _, o := range outs {
		if o.detail != "" {
			return o.detail
		}
	}
	return ""
}
