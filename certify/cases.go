package certify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/engine"
)

// Case is one graded check.
type Case struct {
	// ID is the case's identifier, enc/<RFC 7541 section>/<n>.
	ID string
	// Section is the RFC 7541 section the case checks, such as "4.2".
	Section string
	// Title says in a few words what the case checks.
	Title string
	// RFC is the text of the RFC the case checks (or, for info cases, what
	// it measures).
	RFC string
	// Violation is the grade an encoder gets when it breaks the rule:
	// Fail for a MUST, NonStrict for a SHOULD or an efficiency rule, Info
	// for a measurement.
	Violation Grade

	// spec is the RFC the case's text is from, "" for RFC 7541 (the
	// QPACK cases cite RFC 9204).
	spec      string
	scenarios []string
	// rule, when set, judges each block; the run applies it as the block
	// is decoded and keeps what it found (playedBlock.problems).
	rule  blockRule
	check func(c *caseRun) verdict
	// needs is what check reads beyond the transcripts of its scenarios;
	// the engine provides it before the check runs (runner.provide).
	needs need
	// instance is what the case counts as one judged instance of its
	// rule: it passes only on at least one.
	instance instanceKind
}

// Rule is the RFC text the case checks as reports print it, citing RFC
// 7541 once: a text that starts with the section it quotes (not always
// the case's own) or an appendix gets "RFC 7541 " before it; one that
// starts with "And " or "With " adds a citation to the case's section
// ("RFC 7541 §4.2 and RFC 9113 §4.3.1: ..."); any other text follows
// the case's section.
func (c Case) Rule() string {
	spec := c.spec
	if spec == "" {
		spec = "RFC 7541"
	}
	if strings.HasPrefix(c.RFC, "§") || strings.HasPrefix(c.RFC, "Appendix ") {
		return spec + " " + c.RFC
	}
	for _, joint := range []string{"And ", "With "} {
		if rest, ok := strings.CutPrefix(c.RFC, joint); ok {
			return spec + " §" + c.Section + " " + strings.ToLower(joint) + rest
		}
	}
	return spec + " §" + c.Section + ": " + c.RFC
}

// need is something a check reads that the engine computes for it.
type need uint8

const (
	// needReference: the reference encoder's transcript of the same
	// traffic stories (caseRun.reference).
	needReference need = 1 << iota
	// needReplay: the traffic stories played again through the target in
	// fresh contexts (caseRun.replayed), for an encoder, not recordings.
	needReplay
	// needAllocRuns: the number of calls to measure allocations over
	// (caseRun.allocRuns).
	needAllocRuns
)

// verdict is a case's outcome before strictness and expected failures.
type verdict struct {
	grade  Grade
	detail string
	repro  string
	// at is the block at fault, for Result.Replay.
	at *playedBlock
	// evidence is what the case judged, when the check counted it.
	evidence *Evidence
	// causedBy lists the root causes that left the case nothing to judge.
	causedBy []string
	// notApplicable marks an unsupported verdict on a case that does not
	// apply to the kind of target (Result.NotApplicable).
	notApplicable bool
}

func pass(format string, args ...any) verdict {
	return verdict{grade: Pass, detail: fmt.Sprintf(format, args...)}
}

// Cases returns every case, sorted by id.
func Cases() []Case {
	out := slices.Clone(allCases)
	slices.SortFunc(out, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	return out
}

// compareIDs orders case ids (engine.CompareIDs).
func compareIDs(a, b string) int { return engine.CompareIDs(a, b) }

// SelectCases returns the cases whose id starts with one of prefixes (all
// cases when there are none), or an error naming a prefix no case has.
func SelectCases(prefixes []string) ([]Case, error) {
	all := Cases()
	if len(prefixes) == 0 {
		return all, nil
	}
	var out []Case
	for _, p := range prefixes {
		found := false
		for _, c := range all {
			if strings.HasPrefix(c.ID, p) {
				found = true
				if !slices.ContainsFunc(out, func(o Case) bool { return o.ID == c.ID }) {
					out = append(out, c)
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no case id starts with %q (see hpackcert list)", p)
		}
	}
	slices.SortFunc(out, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	return out, nil
}
