package certify

import (
	"github.com/hpackcert/hpackcert/engine"
	"slices"
	"time"
)

// Report holds the grades of a run: every selected case for every encoder.
type Report struct {
	// Encoders are the names of the targets, in the order they ran.
	Encoders []string
	// Cases are the cases that ran, sorted by id.
	Cases []Case
	// Results maps an encoder name and a case id to the result.
	Results map[string]map[string]*Result
	// Coverage maps an encoder name to what its wire exercised of RFC
	// 7541 in the scenarios that ran.
	Coverage map[string]*Coverage
	// Strict is set when non-strict grades were turned into failures.
	Strict bool
	// TrafficSource says where the traffic stories came from.
	TrafficSource string
	// StaleExpectations are the entries of Options.ExpectFail that matched
	// no failure: the encoder got better, and the list can shrink.
	StaleExpectations []string
	// Version is the hpackcert build that wrote the report (Version()),
	// and Catalogue the version of the case catalogue (CatalogueVersion()).
	Version, Catalogue string
	// Targets describes each encoder, by name: how it was driven and
	// what it said of itself.
	Targets map[string]TargetInfo
	// Started is when the run began, Elapsed how long it took.
	Started time.Time
	Elapsed time.Duration
	// Repro says where the reproductions of the run's failures were
	// written and how to replay one, when they were (run --repro, gate);
	// every report names both.
	Repro *Repro
	// Subject is "decoders" for a report of RunDecoders, whose Encoders
	// are then the decoders certified and whose cases are the dec/ ones;
	// "" for encoders.
	Subject string `json:"subject,omitempty"`
	// LiveSchedule describes the SETTINGS_HEADER_TABLE_SIZE schedule the
	// live targets were driven through; empty when none was live.
	LiveSchedule string
}

// TargetInfo describes one target of a run (engine.TargetInfo).
type TargetInfo = engine.TargetInfo

// LiveInfo describes a target captured live (engine.LiveInfo).
type LiveInfo = engine.LiveInfo

// Failed reports whether the run fails (exit status 1): a case failed
// for some encoder without the failure being expected, a target broke
// down, a MUST case was left ungraded for an encoder the certifier
// drives without being declared (Ungraded), or a target had no case
// judged at all without being declared to (NothingJudged).
func (r *Report) Failed() bool {
	for _, enc := range r.Encoders {
		if info := r.Targets[enc]; (info.Breakdown != "" && !info.BreakdownExpected) || len(r.Ungraded(enc)) > 0 {
			return true
		}
		if r.NothingJudged(enc) && !r.Targets[enc].NothingJudgedExpected {
			return true
		}
		for _, res := range r.Results[enc] {
			if res.Grade == Fail && !res.Expected {
				return true
			}
		}
	}
	return false
}

// NothingJudged reports whether the run judged no case for a target: no
// case passed, broke a SHOULD, failed or was measured (info: a user who
// asks for a measurement alone, --cases enc/2.2/1, has it), and the target
// did not break down (a breakdown is its one failure as a whole). A gate pointed at the wrong folder, or at recordings
// without their "wire", would otherwise pass on nothing; the run fails
// unless the target was declared to judge nothing
// (TargetInfo.NothingJudgedExpected).
func (r *Report) NothingJudged(encoder string) bool {
	if r.Targets[encoder].Breakdown != "" {
		return false
	}
	for _, res := range r.Results[encoder] {
		if res.Grade == Pass || res.Grade == NonStrict || res.Grade == Fail || res.Grade == Info {
			return false
		}
	}
	return true
}

// Ungraded is a MUST case a run did not grade for a target
// (engine.Ungraded).
type Ungraded = engine.Ungraded

// Ungraded returns the MUST cases (Violation Fail) graded unsupported for
// an encoder the certifier drives (in process, over stdio, live) and not
// declared (Options.Declared): each fails the run. A live target is held
// to the cases its captured traffic can carry; a recording, which cannot
// be driven, to none (NotExercised lists its cases instead).
func (r *Report) Ungraded(encoder string) []Ungraded {
	kind := r.Targets[encoder].Kind
	if kind == "recorded" {
		return nil
	}
	return r.mustUnsupported(encoder, kind == "live")
}

// NotExercised returns the MUST cases a recording's stories do not
// exercise: they do not fail the run, since a recording cannot be driven
// to exercise them, and the verdict line names them.
func (r *Report) NotExercised(encoder string) []Ungraded {
	if r.Targets[encoder].Kind != "recorded" {
		return nil
	}
	return r.mustUnsupported(encoder, false)
}

func (r *Report) mustUnsupported(encoder string, trafficOnly bool) []Ungraded {
	var out []Ungraded
	for _, c := range r.Cases {
		res := r.Results[encoder][c.ID]
		if c.Violation != Fail || res == nil || res.Grade != Unsupported || res.Declared != "" || res.NotApplicable || len(res.CausedBy) > 0 {
			continue
		}
		if trafficOnly && !slices.Contains(c.scenarios, scTraffic) {
			continue
		}
		out = append(out, Ungraded{Case: c.ID, Why: res.Detail})
	}
	return out
}

// Counts returns how many cases got each grade for an encoder.
func (r *Report) Counts(encoder string) map[Grade]int {
	out := map[Grade]int{}
	for _, res := range r.Results[encoder] {
		out[res.Grade]++
	}
	return out
}

// Repro says where a run wrote the reproductions of its failures
// (engine.Repro).
type Repro = engine.Repro
