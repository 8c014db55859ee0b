package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The words that, after a target's name on an expect-file line, expect
// something of the target as a whole rather than of one case.
const (
	// BreakdownKey expects the target's breakdown: "NAME breakdown".
	BreakdownKey = "breakdown"
	// NothingJudgedKey expects the run to judge nothing for the target:
	// "NAME nothing-judged".
	NothingJudgedKey = "nothing-judged"
)

// TargetExpectation reports whether word, after a target's name on an
// expect-file line, expects something of the target as a whole.
func TargetExpectation(word string) bool {
	return word == BreakdownKey || word == NothingJudgedKey
}

// Expectations is a run's list of expected failures (an expect file's
// lines, Options.ExpectFail), checked against the run and told which of
// its entries a finding met; entries no finding met are stale. It is
// safe for targets graded at once.
type Expectations struct {
	entries []string
	want    map[string]bool
	mu      sync.Mutex
	met     map[string]bool
}

// NewExpectations checks entries against the run: each is a case id
// (known reports whether the side's catalogue has it), "TARGET CASE",
// "TARGET breakdown" or "TARGET nothing-judged", and a TARGET must be one
// of names, the run's targets; side ("encoder" or "decoder") words the
// error, which names the entry.
func NewExpectations(entries []string, side string, names []string, known func(id string) bool) (*Expectations, error) {
	e := &Expectations{entries: entries, want: map[string]bool{}, met: map[string]bool{}}
	for _, entry := range entries {
		id, target := entry, ""
		if i := strings.LastIndexByte(entry, ' '); i >= 0 {
			id, target = entry[i+1:], entry[:i]
		}
		if !known(id) && (!TargetExpectation(id) || target == "") {
			return nil, fmt.Errorf("expected failure %q: no case %q (see hpackcert list)", entry, id)
		}
		if target != "" && !slices.Contains(names, target) {
			return nil, fmt.Errorf("expected failure %q: no %s %q in this run (have %q)", entry, side, target, names)
		}
		e.want[entry] = true
	}
	return e, nil
}

// meet reports whether key is expected, recording that it was met.
func (e *Expectations) meet(key string) bool {
	if e == nil || !e.want[key] {
		return false
	}
	e.mu.Lock()
	e.met[key] = true
	e.mu.Unlock()
	return true
}

// Failure reports whether a failure of case id for target is expected:
// the entry names the case for every target or for this one. Both
// entries, when both are there, are met.
func (e *Expectations) Failure(target, id string) bool {
	every := e.meet(id)
	one := e.meet(target + " " + id)
	return every || one
}

// Breakdown reports whether the breakdown of target is expected.
func (e *Expectations) Breakdown(target string) bool {
	return e.meet(target + " " + BreakdownKey)
}

// NothingJudged reports whether target was declared to give no case
// anything to judge.
func (e *Expectations) NothingJudged(target string) bool {
	return e.meet(target + " " + NothingJudgedKey)
}

// Stale returns the entries no finding met, once each, in their order:
// the target got better, and the list can shrink.
func (e *Expectations) Stale() []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, entry := range e.entries {
		if !e.met[entry] && !slices.Contains(out, entry) {
			out = append(out, entry)
		}
	}
	return out
}
