package certify

import (
	"fmt"
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

// TargetInfo describes one encoder of a run.
type TargetInfo struct {
	// Kind is how the encoder was driven: "in-process", "stdio",
	// "recorded" or "live".
	Kind string
	// Reported is the name (and version) the encoder gave for itself, the
	// answer to hello for a stdio encoder; for others, Target.Name.
	Reported string
	// Binary is set for a stdio encoder that offered the binary form.
	Binary bool
	// Lacks lists what the encoder declared its library cannot express
	// (Lacks.String), "" for nothing.
	Lacks string
	// Elapsed is how long its cases took.
	Elapsed time.Duration
	// Breakdown, when set, is the target's one failure as a whole: the
	// encoder broke the protocol, crashed or timed out ("encoder broke
	// hpack-stdio at request N: ..."), or a live target stopped before its
	// schedule ended. No rule is graded from the story it happened in on;
	// the run fails.
	Breakdown string
	// BreakdownRepro reproduces the breakdown, the blocks up to the one it
	// happened on, and BreakdownStderr is the end of what the encoder
	// wrote to its standard error by then (stdio encoders).
	BreakdownRepro, BreakdownStderr string
	// BreakdownExpected is set when the breakdown was listed as expected
	// ("NAME breakdown" in an expect file, Options.ExpectFail): a known
	// finding, reported as such, that does not fail the run.
	BreakdownExpected bool
	// NothingJudgedExpected is set when the run judged nothing for the
	// target (Report.NothingJudged) and it was declared to ("NAME
	// nothing-judged" in an expect file): the run does not fail for it.
	NothingJudgedExpected bool
	// Live describes a target whose blocks were captured live over
	// HTTP/2 (hpackcert live); nil for the others.
	Live *LiveInfo
}

// LiveInfo describes a target captured live: a server, proxy or client
// whose header blocks hpackcert read off the wire. Its strings come from
// the target and its catalogue entry; the report writers escape them.
type LiveInfo struct {
	// Version is the target's version, when known: "1.22.1".
	Version string
	// Role is "server", "proxy" or "client".
	Role string
	// Encoder says whose HPACK encoder the target uses, when known.
	Encoder string
	// Where is the URL or command captured.
	Where string
	// Transport is "h2c" (prior knowledge) or "TLS".
	Transport string
	// Transform is what the target was declared to do to the header
	// lists; Declared is set when it declares anything (a client with no
	// transformation declares nothing).
	Transform string
	Declared  bool
	// Blocks and Conns count the header blocks and connections captured.
	Blocks, Conns int
	// Notes say what went wrong or was left out, one line each.
	Notes []string
	// Elapsed is how long the capture took.
	Elapsed time.Duration
}

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

// Ungraded is a MUST case a run did not grade for an encoder.
type Ungraded struct {
	Case string
	// Why is the case's detail: why it could not be graded.
	Why string
}

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

// Repro says where a run wrote the reproductions of its failures (story
// files that hpackcert repro replays) and how to replay the first one.
// Every report names both, so that whoever reads a failed gate's report
// can replay the failure.
type Repro struct {
	// Dir is the folder of the story files.
	Dir string
	// Files is how many story files were written: one per failed or
	// non-strict case of each encoder.
	Files int
	// Replay is a shell command replaying the first failure; empty when
	// no story file was written.
	Replay string
}

// Text returns the sentence every report prints of r, in plain text; each
// format escapes it as it escapes any other text.
func (r Repro) Text() string {
	if r.Files == 0 {
		return fmt.Sprintf("reproductions: none to write to %s (no case failed)", r.Dir)
	}
	files := "1 story file"
	if r.Files != 1 {
		files = fmt.Sprintf("%d story files", r.Files)
	}
	return fmt.Sprintf("reproductions: %s in %s; replay one with\n  %s", files, r.Dir, r.Replay)
}
