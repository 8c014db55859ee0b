package certify

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/certify/engine"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// Options configures a certification run. The zero value runs every case
// on the full traffic stories.
type Options struct {
	// Cases selects cases by id prefix; none selects every case.
	Cases []string
	// Strict turns non-strict grades into failures.
	Strict bool
	// ExpectFail lists known failures that do not fail the run: each entry
	// is a case id, or "ENCODER CASE" for one encoder, "ENCODER
	// breakdown" for a known breakdown (TargetInfo.BreakdownExpected), or
	// "ENCODER nothing-judged" for a target known to give no case anything
	// to judge (TargetInfo.NothingJudgedExpected; see ReadExpectations).
	ExpectFail []string
	// Declared lists the cases the user declares an encoder cannot be
	// graded on (its library cannot express them): a MUST case left
	// unsupported for an encoder the certifier drives fails the run
	// unless a declaration covers it (Report.Ungraded). A declared case
	// is reported as declared, never as a pass.
	Declared []Declaration
	// Jobs is how many targets driven out of process (hpack-stdio
	// programs) or recorded are certified at once; 0 or 1 certifies one
	// after the other. Targets in process are always certified alone, so
	// that their allocation counts (enc/7.3/2) see no other work. The
	// report is the same whatever Jobs is: each target is graded on its
	// own, and reported in the order given.
	Jobs int
	// TestCaseDir, when set, is where the traffic stories are read from:
	// an hpack-test-case directory holding raw-data/, or a directory of
	// story files itself. Empty means the 32 raw-data stories of
	// hpack-test-case embedded in package vectors (vectors.RawData), the
	// same real traffic wherever the certifier runs.
	TestCaseDir string
	// TrafficStories and TrafficBlocks, when positive, cut the traffic
	// stories to that many stories of at most that many blocks (for quick
	// runs, such as tests under -race).
	TrafficStories, TrafficBlocks int
	// Adversarial is the number of stories taken from
	// vectors.GenerateStories; 0 means 16.
	Adversarial int
	// Seed seeds the generated stories.
	Seed int64
	// AllocRuns is the number of runs enc/7.3/2 averages allocations
	// over; 0 means 100.
	AllocRuns int
	// MaxBlockSize is the largest header block, in octets, an encoder may
	// write; a larger one is a breakdown of the encoder, graded fail. 0
	// means DefaultMaxBlockSize (1 MiB).
	MaxBlockSize int
	// MaxHeaderListSize is the largest header list, counted as name +
	// value + 32 octets per field, a block may decode to in any oracle
	// (a block whose fields sent are larger is allowed their size); past
	// it the oracles stop decoding, the HPACK-bomb defence of RFC 7541
	// §7.3. 0 means DefaultMaxHeaderListSize (64 KiB).
	MaxHeaderListSize int
	// Replay, when set, replaces the stories of every scenario: each
	// selected case judges exactly these blocks. Result.Replay of a failed
	// case, read back, replays that case's failure (hpackcert repro).
	Replay []*vectors.Story
	// MaxStoryFileSize is the largest story file read, in octets; a larger
	// one is an error before it is read. 0 means
	// vectors.DefaultMaxStoryFileSize (256 MiB).
	MaxStoryFileSize int64
}

func (o *Options) maxStoryFileSize() int64 {
	if o.MaxStoryFileSize > 0 {
		return o.MaxStoryFileSize
	}
	return vectors.DefaultMaxStoryFileSize
}

func (o *Options) limits() limits {
	lim := defaultLimits
	if o.MaxBlockSize > 0 {
		lim.maxBlock = o.MaxBlockSize
	}
	if o.MaxHeaderListSize > 0 {
		lim.maxList = o.MaxHeaderListSize
	}
	return lim
}

func (o *Options) adversarial() int {
	if o.Adversarial > 0 {
		return o.Adversarial
	}
	return 16
}

func (o *Options) allocRuns() int {
	if o.AllocRuns > 0 {
		return o.AllocRuns
	}
	return 100
}

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
		if rt, ok := t.(*recordedTarget); ok && rt.role != "" {
			d.coverage.applyReach(rt.role)
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

// What a target can do beyond Target, asked through small interfaces
// rather than by its concrete type; the exported ones let a source of
// another package declare it.
type (
	// recordings is implemented by targets that are recorded wire, not an
	// encoder: only the traffic scenario, their own stories, can run.
	recordings interface{ recordedStories() []story }

	// UTF8Only is implemented by targets whose transport may carry only
	// valid UTF-8 (hpack-stdio/1 without its binary form): UTF8Only
	// returns true when it can carry nothing else, and the certifier then
	// leaves out the octets valid UTF-8 never contains, saying so.
	UTF8Only interface{ UTF8Only() bool }

	// InProcess marks targets that run in this process, whose
	// allocations can be counted (engine.InProcess).
	InProcess = engine.InProcess

	// Live marks targets driven over a live HTTP/2 connection
	// (engine.Live).
	Live = engine.Live

	// Restarter is implemented by targets that start each scenario
	// afresh, such as a child process that is killed and started again:
	// Restart is called before each scenario.
	Restarter interface{ Restart() }

	// StderrTail is implemented by targets whose diagnostics are
	// captured: StderrTail returns the end of what they wrote since the
	// last Restart, for the report (engine.StderrTail).
	StderrTail = engine.StderrTail
)

// recordedWithoutWire says why recorded stories without any "wire" grade
// nothing.
func recordedWithoutWire(t Target) string {
	files := ""
	if w, ok := t.(interface{ storiesWithoutWire() []string }); ok {
		if names := w.storiesWithoutWire(); len(names) > 0 {
			files = fmt.Sprintf(" (%d files: %s ... %s)", len(names), names[0], names[len(names)-1])
		}
	}
	return "the story files hold header lists without any \"wire\"" + files + ": they record no encoder's output to grade; to encode them with an encoder, pass the directory as --testcases"
}

// describe says how a target is driven.
func describe(t Target) TargetInfo {
	info := TargetInfo{Reported: t.Name()}
	switch {
	case isRecorded(t):
		info.Kind = "recorded"
	case isInProcess(t):
		info.Kind = "in-process"
	default:
		info.Kind = "stdio"
		info.Binary = !isUTF8Only(t)
	}
	return info
}

func isRecorded(t Target) bool {
	_, ok := t.(recordings)
	return ok
}

func isInProcess(t Target) bool {
	_, ok := t.(InProcess)
	return ok
}

func isUTF8Only(t Target) bool {
	u, ok := t.(UTF8Only)
	return ok && u.UTF8Only()
}

// certify runs the cases against one target.
func (r *runner) certify(t Target, cases []Case) (map[string]*Result, []*transcript, error) {
	_, recorded := t.(recordings)
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
		lack := lacksOf(t).declares(c.ID)
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

// updateInstances are the instance kinds of the cases that judge the
// size updates an encoder writes.
var updateInstances = map[instanceKind]bool{instUpdateBlocks: true, instSizeUpdates: true, instResizeEvictions: true}

// blockedByMissingUpdates files, as consequences, the cases that judge
// size updates and judged none while the encoder failed to signal a
// lowered setting (enc/4.2/1 or enc/4.2/2): an encoder that writes no
// size update where one is required leaves the rules about size updates
// nothing to judge, and that defect is counted once, under the rule it
// breaks. A case its user declared keeps the declaration.
func blockedByMissingUpdates(results map[string]*Result) {
	var cause string
	for _, id := range []string{"enc/4.2/1", "enc/4.2/2"} {
		if res := results[id]; res != nil && res.Grade == Fail {
			cause = id
			break
		}
	}
	if cause == "" {
		return
	}
	for _, c := range allCases {
		res := results[c.ID]
		if res == nil || !updateInstances[c.instance] || res.Grade != Unsupported || res.Declared != "" || res.NotApplicable || len(res.CausedBy) > 0 || res.Evidence.Instances > 0 {
			continue
		}
		res.CausedBy = []string{cause}
		res.Detail += fmt.Sprintf("; the encoder signals no lowered table size where %s requires one (its failure), so no size update was written for this rule to judge", cause)
	}
}

// targetBreakdown describes the target's failure as a whole: its source's
// (WithBreakdown), or the first scenario the encoder broke down in, or "";
// with its reproduction and the encoder's stderr.
func targetBreakdown(t Target, played []*transcript) (text, repro, stderr string) {
	if err := engine.SourceBreakdown(t); err != nil {
		return err.Error(), "", ""
	}
	// The scenarios after the first breakdown are not played: there is
	// one at most.
	i := slices.IndexFunc(played, func(tr *transcript) bool { return tr.breakdown != nil })
	if i < 0 {
		return "", "", ""
	}
	first := played[i]
	text = fmt.Sprintf("%v (scenario %s, %s; no rule was graded from there on, and no later scenario was played)", first.breakdown, first.scenario, first.breakdownAt.where())
	// The reproduction's first line would say the breakdown again.
	_, repro, _ = strings.Cut(first.breakdownAt.repro(first.breakdown.Error()), "\n")
	return text, repro, first.stderr
}

// judge runs the case's check, after the checks every case shares: a
// scenario the target cannot run, and an encoder that broke down.
func (r *runner) judge(run *caseRun, unsupported []string) verdict {
	if len(run.notPlayed) > 0 {
		v := r.judgePlayed(run, unsupported)
		first := run.notPlayed[0]
		why := fmt.Sprintf("scenario %s was not played: the encoder broke down before, in scenario %s, %s (the target's breakdown)", first.scenario, first.afterBreakdown.scenario, first.afterBreakdown.breakdownAt.where())
		if v.grade == Unsupported && (v.evidence == nil || v.evidence.Instances == 0) || run.c.Violation == Info {
			// Nothing was judged, or a measurement would measure a part:
			// the case is the breakdown's consequence.
			return verdict{grade: Unsupported, detail: "no instance was judged: " + why, evidence: v.evidence, causedBy: []string{BreakdownCause}}
		}
		v.detail += "; " + why
		return v
	}
	return r.judgePlayed(run, unsupported)
}

// judgePlayed judges the case on the scenarios that were played.
func (r *runner) judgePlayed(run *caseRun, unsupported []string) verdict {
	if len(run.transcripts) == 0 {
		return verdict{grade: Unsupported, detail: strings.Join(unsupported, "; ")}
	}
	broke := ""
	for _, tr := range run.transcripts {
		if tr.breakdown != nil {
			if run.c.Violation == Info {
				// A measurement of a part of the stories measures nothing.
				return verdict{grade: Unsupported, detail: fmt.Sprintf("not measured: the encoder broke down in scenario %s, %s (the target's breakdown)", tr.scenario, tr.breakdownAt.where())}
			}
			if broke == "" {
				broke = fmt.Sprintf("; graded on the blocks before the encoder broke down in scenario %s, %s (the target's breakdown)", tr.scenario, tr.breakdownAt.where())
			}
		}
	}
	r.provide(run)
	v := run.c.check(run)
	if broke != "" && v.grade == Unsupported && (v.evidence == nil || v.evidence.Instances == 0) {
		// Nothing was judged before the breakdown: the case is its
		// consequence, accounted for by the target's one failure.
		return verdict{grade: Unsupported, detail: "no instance was judged" + strings.Replace(broke, "; graded on the blocks", " on the blocks", 1), evidence: v.evidence, causedBy: []string{BreakdownCause}}
	}
	v.detail += broke
	if v.grade != Pass {
		return v
	}
	var skipped []string
	for _, tr := range run.transcripts {
		skipped = append(skipped, tr.unsupportedBlocks...)
	}
	if len(skipped) > 0 {
		// What could be judged passed, but not everything could be sent.
		return verdict{grade: Unsupported, detail: fmt.Sprintf("%s; the encoder cannot express %d blocks, and the rest of their stories was not played (first: %s)", v.detail, len(skipped), skipped[0])}
	}
	return v
}

// provide computes what the case's check needs beyond its transcripts.
func (r *runner) provide(run *caseRun) {
	needs := run.c.needs
	if needs&needReference != 0 {
		run.reference = r.referenceTraffic(run.transcripts[0])
	}
	if needs&needReplay != 0 && !run.recorded {
		if run.targetBroke {
			run.replayErr = errNoReplayAfterBreakdown
		} else {
			run.replayed, run.replayErr = r.replay(run.target, scTraffic)
		}
	}
	if needs&needAllocRuns != 0 {
		run.allocRuns = r.opts.allocRuns()
	}
}

// playScenario plays a scenario through the target, or explains why it
// cannot run.
func (r *runner) playScenario(t Target, sc string) (*transcript, error) {
	if rt, ok := t.(*recordedTarget); ok && len(rt.generated) > 0 {
		stories := rt.storiesOf(sc)
		if len(stories) == 0 {
			what := "stories of real traffic"
			if sc == scGenerated {
				what = "stories of a generated schedule"
			}
			return &transcript{scenario: sc, unsupported: "the recording holds no " + what}, nil
		}
		return playRecorded(sc, stories, r.judging, inferredLists(t)), nil
	}
	if rec, ok := t.(recordings); ok {
		if sc != scTraffic {
			// One reason for every scenario, so that a case of several
			// says it once.
			return &transcript{scenario: sc, unsupported: "recorded stories carry only their own blocks; the generated and targeted scenarios need an encoder to drive"}, nil
		}
		stories := rec.recordedStories()
		if len(stories) == 0 {
			return &transcript{scenario: sc, unsupported: recordedWithoutWire(t)}, nil
		}
		return playRecorded(sc, stories, r.judging, inferredLists(t)), nil
	}
	stories, dropped, err := r.scenarioStories(sc, isUTF8Only(t), lacksOf(t))
	if err != nil {
		return nil, err
	}
	tr := play(t, sc, stories, r.judging)
	tr.dropped = dropped
	return tr, nil
}

// errNoReplayAfterBreakdown is the replay's error once the encoder broke
// down: nothing is played through it again.
var errNoReplayAfterBreakdown = errors.New("not replayed: the encoder broke down (the target's breakdown)")

// replay plays a scenario again, for the determinism check.
func (r *runner) replay(t Target, sc string) (*transcript, error) {
	stories, _, err := r.scenarioStories(sc, isUTF8Only(t), lacksOf(t))
	if err != nil {
		return nil, err
	}
	return play(t, sc, stories, r.judging), nil
}

// referenceTraffic plays the stories of like through the reference
// encoder once per run, for compression ratios.
func (r *runner) referenceTraffic(like *transcript) *transcript {
	var stories []story
	var key strings.Builder
	seen := map[*story]bool{}
	for _, b := range like.blocks {
		if !seen[b.story] {
			seen[b.story] = true
			st := story{Path: b.story.Path}
			for _, in := range b.story.Cases {
				st.Cases = append(st.Cases, block{TableSizes: in.AckedSizes(), Headers: in.Headers})
			}
			stories = append(stories, st)
			fmt.Fprintf(&key, "%s/%d;", st.Path, len(st.Cases))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if tr, ok := r.refTraffic[key.String()]; ok {
		return tr
	}
	ref := Func("ref", func() Encoder { return NewReference(encoder.Config{}) })
	tr := play(ref, scTraffic, stories, &judging{lim: r.judging.lim})
	if r.refTraffic == nil {
		r.refTraffic = map[string]*transcript{}
	}
	r.refTraffic[key.String()] = tr
	return tr
}
