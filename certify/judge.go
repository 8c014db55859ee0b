package certify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/engine"
)

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
// (Recording.Breakdown), or the first scenario the encoder broke down in, or "";
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
