package qencoders

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/engine"
)

// Options configures a run of the qenc/ side (certify.RunQPACKEncoders).
type Options struct {
	// Cases selects qenc/ cases by id prefix; none selects every case.
	Cases []string
	// Strict turns non-strict grades into failures.
	Strict bool
	// ExpectFail lists known failures that do not fail the run: a case
	// id, "ENCODER CASE", "ENCODER breakdown" or "ENCODER nothing-judged".
	ExpectFail []string
	// Declared lists the cases the user declares an encoder cannot be
	// graded on.
	Declared []Declaration
	// Progress, when set, is called as each encoder starts.
	Progress func(encoder string)
}

// Graded is what grading one encoder target gave, before the run's rules
// settle its results (certify.RunQPACKEncoders).
type Graded struct {
	// Name is the target's name in the report, made unique in the run.
	Name   string
	Target qpack.EncoderTarget
	// Kind is how the target is driven: "in-process", "stdio",
	// "recorded" or "live".
	Kind    string
	Elapsed time.Duration
	// Breakdown, when set, is the target's one failure, and
	// BreakdownStderr what its program wrote.
	Breakdown, BreakdownStderr string
	// Results maps a case id to its result.
	Results map[string]*Result
	// Connections counts the transcripts judged.
	Connections int
}

// Run grades every encoder target on the selected qenc/ cases: a played
// target through every scenario, a Player through its transcripts. It
// returns the cases, sorted by id, and each target's grades, in order.
func Run(targets []qpack.EncoderTarget, opts Options) ([]Case, []Graded, error) {
	cases, err := selectCases(opts.Cases)
	if err != nil {
		return nil, nil, err
	}
	scs, err := scenarios()
	if err != nil {
		return nil, nil, err
	}
	var out []Graded
	var names []string
	for _, t := range targets {
		if opts.Progress != nil {
			opts.Progress(t.Name())
		}
		g := grade(t, cases, scs)
		g.Name = engine.UniqueName(names, t.Name())
		names = append(names, g.Name)
		out = append(out, g)
	}
	sel := make([]Case, len(cases))
	for i, c := range cases {
		sel[i] = c.Case
	}
	return sel, out, nil
}

// kindOf says how a target is driven.
func kindOf(t qpack.EncoderTarget) string {
	if _, ok := t.(engine.Live); ok {
		return "live"
	}
	if _, ok := t.(qpack.Player); ok {
		return "recorded"
	}
	return engine.KindOf(t)
}

// grade plays or reads every transcript of one target and grades it.
func grade(t qpack.EncoderTarget, cases []*qcase, scs []*scenario) Graded {
	start := time.Now()
	g := Graded{Target: t, Kind: kindOf(t), Results: map[string]*Result{}}
	var judged []*judge
	listsKnown := false
	if p, ok := t.(qpack.Player); ok {
		trs, err := p.Transcripts()
		if err != nil {
			g.Breakdown = err.Error()
		}
		for _, tr := range trs {
			judged = append(judged, judgeTranscript(tr))
			listsKnown = listsKnown || tr.Lists != nil
		}
	} else {
		listsKnown = true
		for _, sc := range scs {
			tr, err := play(t, sc)
			if err != nil {
				g.Breakdown = err.Error()
				g.BreakdownStderr = engine.TailOf(t)
				break
			}
			judged = append(judged, judgeTranscript(tr))
		}
	}
	g.Connections = len(judged)
	_, driven := t.(qpack.Player)
	failed := rootCases(judged)
	for _, c := range cases {
		g.Results[c.ID] = settleCase(c, judged, g.Breakdown != "", driven, listsKnown, failed)
	}
	g.Elapsed = time.Since(start)
	return g
}

// settleCase grades one case from every judged transcript: the first
// root finding filed under it decides a failure; the decoder's-view
// findings that followed a root in its transcript are its consequences.
func settleCase(c *qcase, judged []*judge, broke, notDriven, listsKnown bool, failed []string) *Result {
	res := &Result{Evidence: Evidence{Of: c.of}}
	var first *finding
	var firstAt string
	roots := 0
	causes := map[string]bool{}
	conseq := map[string]*Consequence{}
	seen := map[[2]string]bool{} // (case, connection) pairs counted in conseq
	for _, j := range judged {
		res.Evidence.Add(j.ev)
		res.Evidence.Instances += j.counts[c.ID]
		res.Evidence.NotJudged += j.notJudged
		for i := range j.findings {
			f := &j.findings[i]
			switch {
			case !f.root && f.cause == c.ID && f.caseID != c.ID:
				addConsequence(conseq, seen, f, j.t.Name)
			case !f.root && f.caseID == c.ID:
				causes[f.cause] = true
			case f.root && f.caseID == c.ID:
				roots++
				if first == nil {
					first, firstAt = f, fmt.Sprintf("connection %q, event %d", j.t.Name, f.ev+1)
				}
			}
		}
	}
	for _, k := range sortedKeys(conseq) {
		res.Consequences = append(res.Consequences, *conseq[k])
	}
	switch {
	case first != nil:
		res.Grade = c.Violation
		res.Detail = first.detail
		if roots > 1 {
			res.Detail += fmt.Sprintf(" (and %d more)", roots-1)
		}
		res.At = firstAt
	case res.Evidence.Instances > 0:
		res.Grade = Pass
		res.Detail = "judged " + engine.InstancesOf(res.Evidence.Instances, c.of)
	default:
		res.Grade = Unsupported
		switch {
		case c.driven && notDriven:
			res.NotApplicable = true
			res.Detail = "only an encoder the certifier drives can be sent decoder-stream octets"
		case c.needsLists && !listsKnown:
			res.NotApplicable = true
			res.Detail = "the header lists the encoder was given are not known"
		case broke:
			res.CausedBy = []string{engine.BreakdownCause}
			res.Detail = "not exercised: the target broke down before any instance"
		case len(causes) > 0:
			res.CausedBy = sortedKeys(causes)
			res.Detail = "not exercised: every instance followed a failure of another case"
		case len(failed) > 0:
			// The connections ended at the failures before reaching
			// what the case judges.
			res.CausedBy = failed
			res.Detail = "not exercised: the connections ended at the failures of " + strings.Join(failed, ", ")
		default:
			res.Detail = "not exercised: no " + c.of + " in the transcripts"
		}
	}
	return res
}

// rootCases returns the MUST cases of the root findings of every
// transcript (the missing capacity of a recording aside), sorted: what
// can end a connection early.
func rootCases(judged []*judge) []string {
	set := map[string]bool{}
	for _, j := range judged {
		for _, f := range j.findings {
			if f.root && !f.assumed && caseByID(f.caseID).Violation == Fail {
				set[f.caseID] = true
			}
		}
	}
	return sortedKeys(set)
}

func caseByID(id string) *qcase {
	for i := range qcases {
		if qcases[i].ID == id {
			return &qcases[i]
		}
	}
	panic("qencoders: no case " + id)
}

// addConsequence counts f, a decoder's-view finding that followed a root
// cause in connection conn, among the root's consequences.
func addConsequence(m map[string]*Consequence, seen map[[2]string]bool, f *finding, conn string) {
	c, ok := m[f.caseID]
	if !ok {
		c = &Consequence{Case: f.caseID, First: fmt.Sprintf("connection %q, event %d", conn, f.ev+1), Detail: f.detail}
		m[f.caseID] = c
	}
	c.Blocks++
	if k := [2]string{f.caseID, conn}; !seen[k] {
		seen[k] = true
		c.Stories++
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
