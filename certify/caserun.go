package certify

import (
	"fmt"
	"strings"
)

// caseRun is one case being run against one target.
type caseRun struct {
	c *Case
	// ruleIndex is the index of c.rule in the run's rules, or -1.
	ruleIndex   int
	target      Target
	recorded    bool // the target is recorded stories, not an encoder
	transcripts []*transcript

	// What the case's needs asked for, provided by the engine: the
	// reference encoder's traffic transcript; the traffic replayed through
	// the target and the error that kept it from being played; the number
	// of runs of an allocation measure.
	reference, replayed *transcript
	// notPlayed are the case's scenarios left unplayed after the
	// encoder's breakdown.
	notPlayed []*transcript
	// targetBroke is set when the encoder broke down in any scenario:
	// nothing is played through it again (no replay).
	targetBroke bool
	replayErr   error
	allocRuns   int
}

// judges reports whether the case judges the block: every block the
// encoder produced before its story diverged, and the diverging block
// itself for the case that owns the divergence (diagnose.go).
func (c *caseRun) judges(b *playedBlock) bool {
	switch {
	case b.encErr != nil:
		return false
	case b.root == nil, b.problems == nil:
		// A block kept whole (a test of a rule on hand-built blocks) is
		// judged by every case.
		return true
	}
	return b.root == b && b.owner == c.c.ID
}

// judge applies f to every block the case judges and counts what they
// held; the verdict describes the first block f finds at fault, and is
// empty when there is none.
func (c *caseRun) judge(f blockRule) (verdict, Evidence) {
	ev := Evidence{Of: instanceNames[c.c.instance].noun}
	var v verdict
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.encErr != nil {
				continue
			}
			if !c.judges(b) {
				ev.NotJudged++
				continue
			}
			addJudged(&ev, b, c.c.instance)
			if v.detail != "" {
				continue
			}
			if problem, bad := f(b); bad {
				v = verdict{detail: fmt.Sprintf("%s: %s", b.where(), problem), repro: b.repro(problem), at: b}
			}
		}
	}
	return v, ev
}

// notExercised is the verdict of a case that judged no instance of its
// rule.
func (c *caseRun) notExercised(ev Evidence) verdict {
	// The case is a consequence only when the blocks it could not judge
	// held instances of its rule: a case with nothing to judge in them
	// either would have judged nothing anyway.
	if note := c.causesNote(ev); note != "" && ev.Instances == 0 && c.unjudgedInstances() > 0 {
		ids, _ := c.causes()
		return verdict{grade: Unsupported, detail: fmt.Sprintf("%s (%s)", note, ev), evidence: &ev, causedBy: ids}
	}
	return verdict{grade: Unsupported, detail: fmt.Sprintf("not exercised: %s (%s)", instanceNames[c.c.instance].notExercised, ev), evidence: &ev}
}

// unjudgedInstances counts the instances of the case's rule in the blocks
// of its scenarios that it did not judge (those after a divergence).
func (c *caseRun) unjudgedInstances() int {
	n := 0
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.encErr == nil && !c.judges(b) {
				n += b.ev.instances(c.c.instance, b)
			}
		}
	}
	return n
}

// leniencyNote says which oracles rejected blocks that the strict oracle
// decoded correctly, by a known leniency of theirs.
func (c *caseRun) leniencyNote() string {
	counts := map[string]int{}
	var order []string
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			for _, d := range b.decoded {
				if d.known != "" {
					key := fmt.Sprintf("%s (known leniency %q)", d.oracle, d.known)
					if counts[key] == 0 {
						order = append(order, key)
					}
					counts[key]++
				}
			}
		}
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s rejected %d blocks strict decoded", k, counts[k]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

// problem returns what the case's rule found in the block: as the run
// recorded it, or, for a block that was kept whole (tests), by applying
// the rule now.
func (c *caseRun) problem(b *playedBlock) (string, bool) {
	if b.root == b && b.owner == c.c.ID {
		return b.rootProblem, true
	}
	if c.c.rule == nil {
		return "", false
	}
	if b.problems != nil && c.ruleIndex >= 0 {
		p := b.problems[c.ruleIndex]
		return p, p != ""
	}
	return c.c.rule(b)
}

// everyBlock builds a check that grades the first block the case's rule
// finds at fault with the case's Violation.
func everyBlock(what string) func(c *caseRun) verdict {
	return func(c *caseRun) verdict {
		v, ev := c.judge(c.problem)
		v.evidence = &ev
		switch {
		case v.detail != "":
			v.grade = c.c.Violation
			return v
		case ev.Instances == 0:
			return c.notExercised(ev)
		}
		v = pass("%s: %d %s judged in %s%s", what, ev.Instances, ev.Of, plural(ev.Blocks, "block", "blocks"), c.leniencyNote())
		v.evidence = &ev
		return v
	}
}

// blockRule is a check of one block: it returns what is wrong and true,
// or "" and false.
type blockRule func(b *playedBlock) (string, bool)

// tablesCheck grades tablesAgree's findings, and does not pass a run in
// which no block left two tables to compare: after every oracle but one
// rejected the blocks, an encoder that does not show its table has
// nothing to be compared with.
func tablesCheck(c *caseRun) verdict {
	v := everyBlock("every table equal after every block")(c)
	if v.grade != Pass {
		return v
	}
	if alone := v.evidence.Blocks - v.evidence.Instances; alone > 0 {
		v.detail += fmt.Sprintf("; %s compared nothing, with one table left after the other oracles rejected earlier blocks", plural(alone, "block", "blocks"))
	}
	return v
}

// roundTrip is the rule that every oracle decodes the fields sent.
func roundTrip(b *playedBlock) (string, bool) {
	if e := b.roundTripError(); e != "" {
		return e, true
	}
	return "", false
}

// tablesAgree is the rule that the encoder's table and the oracles'
// tables are the same after the block.
func tablesAgree(b *playedBlock) (string, bool) {
	if b.tableDiff != "" {
		return "after the block, " + b.tableDiff, true
	}
	return "", false
}

// walked gives rule the walked representations of blocks the walker could
// split; a block it could not split is judged by none of these rules.
func walked(rule blockRule) blockRule {
	return func(b *playedBlock) (string, bool) {
		if b.walkErr != nil {
			// The block diverged: the case that owns the divergence
			// reports it (diagnose.go).
			return "", false
		}
		return rule(b)
	}
}
