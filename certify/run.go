package certify

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/engine"
)

// runner holds what one Run shares between targets and cases.
type runner struct {
	opts Options
	// judging holds the rules of the selected cases, applied to each block
	// as it is decoded; ruleIndex maps a case id to its rule's index.
	judging        *judging
	ruleIndex      map[string]int
	trafficStories []story
	trafficSource  string
	// refTraffic caches the reference encoder's transcript of a set of
	// traffic stories, keyed by their names and lengths: every live
	// encoder plays the same traffic, recorded targets their own.
	refTraffic map[string]*transcript
	// rules are the run's strict, declarations and expected failures.
	rules *engine.Rules
	// mu guards refTraffic when targets are certified at
	// once (Options.Jobs).
	mu sync.Mutex
}

// Run certifies each target on the selected cases and returns the report.
// An error means the run itself could not happen (an unknown case prefix,
// unreadable stories); an encoder's misbehaviour is a grade, not an error.
func Run(targets []Target, opts Options) (*Report, error) {
	start := time.Now()
	if len(targets) == 0 {
		return nil, errors.New("certify: no encoder to certify")
	}
	cases, err := SelectCases(opts.Cases)
	if err != nil {
		return nil, err
	}
	rules, err := runRules("encoder", engine.Names(targets), opts.Strict, opts.ExpectFail, opts.Declared)
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, rules: rules, ruleIndex: map[string]int{}}
	r.judging = &judging{lim: opts.limits(), index: r.ruleIndex, selected: map[string]bool{}}
	for _, c := range cases {
		r.judging.selected[c.ID] = true
		if c.rule != nil {
			r.ruleIndex[c.ID] = len(r.judging.rules)
			r.judging.rules = append(r.judging.rules, c.rule)
			r.judging.ids = append(r.judging.ids, c.ID)
		}
	}
	if opts.Replay != nil {
		var names []string
		for _, st := range opts.Replay {
			names = append(names, st.Path)
		}
		r.trafficSource = "replay of " + strings.Join(names, ", ") + " (every scenario)"
	} else if _, err := r.traffic(); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(targets, func(t Target) bool { return !isRecorded(t) }) {
		r.trafficSource = "none encoded: each recorded target is graded on its own stories"
	}
	rep := &Report{
		Cases: cases, Strict: opts.Strict, Results: map[string]map[string]*Result{}, Coverage: map[string]*Coverage{},
		TrafficSource: r.trafficSource, Version: Version(), Catalogue: CatalogueVersion(), Targets: map[string]TargetInfo{}, Started: start,
	}
	defer func() { rep.Elapsed = time.Since(start) }()
	for _, t := range targets {
		rep.Encoders = append(rep.Encoders, engine.UniqueName(rep.Encoders, t.Name()))
	}
	done := make([]targetDone, len(targets))
	one := func(i int) {
		t := targets[i]
		began := time.Now()
		d := &done[i]
		var played []*transcript
		if d.results, played, d.err = r.certify(t, cases); d.err != nil {
			return
		}
		info := describe(t)
		info.Elapsed = time.Since(began)
		info.Breakdown, info.BreakdownRepro, info.BreakdownStderr = targetBreakdown(t, played)
		info.BreakdownExpected = info.Breakdown != "" && r.rules.Expect.Breakdown(t.Name())
		info.Lacks = lacksOf(t).String()
		d.info = info
		d.coverage = measureCoverage(played)
		if rt, ok := t.(*recordedTarget); ok && rt.rec.Role != "" {
			d.coverage.applyReach(rt.rec.Role)
		}
	}
	if opts.Jobs <= 1 {
		for i := range targets {
			if one(i); done[i].err != nil {
				return nil, done[i].err
			}
		}
	} else {
		// In-process targets alone, one after the other; then the others,
		// Jobs at a time.
		var rest []int
		for i, t := range targets {
			if isInProcess(t) {
				one(i)
			} else {
				rest = append(rest, i)
			}
		}
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(opts.Jobs, len(rest)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					one(i)
				}
			}()
		}
		for _, i := range rest {
			next <- i
		}
		close(next)
		wg.Wait()
		for i := range done {
			if done[i].err != nil {
				return nil, done[i].err
			}
		}
	}
	for i, name := range rep.Encoders {
		rep.Targets[name] = done[i].info
		rep.Results[name] = done[i].results
		rep.Coverage[name] = done[i].coverage
	}
	rep.finishExpectations(r.rules.Expect)
	return rep, nil
}

// targetDone is what certifying one target gave.
type targetDone struct {
	results  map[string]*Result
	info     TargetInfo
	coverage *Coverage
	err      error
}

// certify runs the cases against one target.
func (r *runner) certify(t Target, cases []Case) (map[string]*Result, []*transcript, error) {
	recorded := isRecorded(t)
	played := map[string]*transcript{}
	var order []*transcript
	results := map[string]*Result{}
	// Every scenario is played before any case is judged: the owner of a
	// divergence that a model explains is chosen over all of them
	// (settleModels). A case's time includes the scenarios it was the
	// first to need.
	playTime := make([]time.Duration, len(cases))
	// broke is the scenario the encoder broke down in: a breakdown is the
	// target's one failure, and the scenarios after it are not played (a
	// program that stopped answering would make each wait for its
	// timeout); what they would judge is its consequence.
	var broke *transcript
	for ci := range cases {
		start := time.Now()
		for _, sc := range scenariosOf(t, &cases[ci]) {
			if _, ok := played[sc]; ok {
				continue
			}
			if broke != nil {
				played[sc] = &transcript{scenario: sc, afterBreakdown: broke}
				continue
			}
			tr, err := r.playScenario(t, sc)
			if err != nil {
				return nil, nil, err
			}
			if tr.breakdown != nil {
				broke = tr
			}
			played[sc] = tr
			order = append(order, tr)
		}
		playTime[ci] = time.Since(start)
	}
	r.judging.settleModels(order)
	use := usageOf(order)
	for ci := range cases {
		c := &cases[ci]
		start := time.Now().Add(-playTime[ci])
		run := &caseRun{c: c, ruleIndex: -1, target: t, recorded: recorded, targetBroke: broke != nil}
		if i, ok := r.ruleIndex[c.ID]; ok {
			run.ruleIndex = i
		}
		var unsupported []string
		for _, sc := range scenariosOf(t, c) {
			tr := played[sc]
			if tr.afterBreakdown != nil {
				run.notPlayed = append(run.notPlayed, tr)
				continue
			}
			if tr.unsupported != "" {
				if !slices.Contains(unsupported, tr.unsupported) {
					unsupported = append(unsupported, tr.unsupported)
				}
				continue
			}
			run.transcripts = append(run.transcripts, tr)
		}
		v := r.judge(run, unsupported)
		res := &Result{Grade: v.grade, Detail: v.detail, Repro: v.repro, Duration: time.Since(start)}
		if v.evidence != nil {
			res.Evidence = *v.evidence
		} else {
			_, res.Evidence = run.judge(func(*playedBlock) (string, bool) { return "", false })
		}
		res.Consequences = run.consequences(r.ruleIndex)
		res.CausedBy = v.causedBy
		res.NotApplicable = v.notApplicable
		if note := run.causesNote(res.Evidence); note != "" && v.causedBy == nil {
			res.Detail += "; " + note
		}
		lack := lacksOf(t).Declares(c.ID)
		if res.Grade == Unsupported && !res.NotApplicable && len(res.CausedBy) == 0 && res.Evidence.Instances == 0 && len(run.transcripts) > 0 && lack == "" {
			if why := use.notApplicable(c.instance); why != "" {
				res.NotApplicable = true
				res.Detail = why + " (" + res.Detail + ")"
			}
		}
		if res.Grade == Unsupported && !res.NotApplicable {
			if lack != "" {
				res.Detail = lack + "; " + res.Detail
			}
		}
		if v.at != nil && v.at.story != nil && (v.grade == Fail || v.grade == NonStrict) {
			res.At = v.at.where()
			res.Replay = v.at.replay(fmt.Sprintf("hpackcert reproduction of %s on encoder %s: %s", c.ID, t.Name(), v.detail))
		}
		for _, tr := range run.transcripts {
			if tr.stderr != "" && (v.grade == Fail || v.grade == NonStrict) {
				res.Stderr = tr.stderr
				break
			}
		}
		r.rules.Settle(t.Name(), c.ID, res)
		results[c.ID] = res
	}
	blockedByMissingUpdates(results)
	return results, order, nil
}
