package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/vectors"
)

// Result is the outcome of one case for one encoder.
type Result struct {
	Grade Grade `json:"grade"`
	// Detail is one line saying what was found.
	Detail string `json:"detail"`
	// Repro is a self-contained reproduction of the first violation.
	Repro string `json:"repro,omitempty"`
	// At is where the first violation is, "story S, block B", for a case
	// graded fail or non-strict.
	At string `json:"at,omitempty"`
	// Duration is the time the case took, including playing the scenarios
	// it was the first to need.
	Duration time.Duration `json:"-"`
	// Expected is set when the case failed and the failure was listed as
	// expected: it does not fail the run.
	Expected bool `json:"expected_failure,omitempty"`
	// Stderr is what the encoder wrote to its standard error while the
	// scenarios of the case ran (stdio encoders only).
	Stderr string `json:"stderr,omitempty"`
	// Evidence counts what the case judged (a pass needs one instance).
	Evidence Evidence `json:"evidence"`
	// Consequences, on the case a divergence was filed under (its root
	// cause), lists what followed from it in the same stories: the blocks
	// no case judged after it, and the other cases whose rules also found
	// fault there. They fail no other case.
	Consequences []Consequence `json:"consequences,omitempty"`
	// CausedBy, on a case left with nothing to judge because every block
	// it would judge followed a divergence, names the cases those
	// divergences were filed under: the case is not ungraded, its blocks
	// are accounted for by their failures.
	CausedBy []string `json:"caused_by,omitempty"`
	// Declared is the reason the user declared the case cannot be graded
	// for this encoder (Options.Declared), on an unsupported case; a
	// declared case is neither a pass nor ungraded.
	Declared string `json:"declared,omitempty"`
	// NotApplicable, on an unsupported case, says the case does not apply
	// to this kind of target: it measures what only another kind has
	// (enc/7.3/2 counts the heap allocations of a Go encoder in this
	// process). The matrices show it "n/a"; it is not a lack.
	NotApplicable bool `json:"not_applicable,omitempty"`
	// Replay is the story of the first block at fault, cut after it, for
	// a case graded fail or non-strict: written with vectors.WriteStory
	// and passed back as Options.Replay (hpackcert repro), it replays
	// exactly that failure.
	Replay *vectors.Story `json:"-"`
}

// BreakdownCause is the Result.CausedBy of a case left with nothing to
// judge by the target's breakdown (TargetInfo.Breakdown).
const BreakdownCause = "the breakdown"

// Consequence is what followed from a root cause in the stories it broke:
// the later blocks no case judged (Case ""), or a case whose rule also
// found fault at the root block or after it.
type Consequence struct {
	// Case is the case id, or "" for the blocks judged by no case.
	Case string `json:"case,omitempty"`
	// Blocks and Stories count the blocks and the stories.
	Blocks  int `json:"blocks"`
	Stories int `json:"stories"`
	// First is where the first of them is: "story S, block B".
	First string `json:"first"`
	// Detail is what the case's rule found there first.
	Detail string `json:"detail,omitempty"`
}

// String describes the consequence in one line.
func (c Consequence) String() string {
	if c.Case == "" {
		return fmt.Sprintf("%s of %s after the divergence judged by no case (first: %s)", Plural(c.Blocks, "block", "blocks"), Plural(c.Stories, "story", "stories"), c.First)
	}
	return fmt.Sprintf("%s also found fault with %s of %s (first: %s: %s)", c.Case, Plural(c.Blocks, "block", "blocks"), Plural(c.Stories, "story", "stories"), c.First, c.Detail)
}

// Evidence counts what a case judged: the blocks and what they held. A
// case passes only on at least one judged instance of its rule
// (Instances); a case that judged none is unsupported, "not exercised",
// with the reason.
type Evidence struct {
	Blocks          int `json:"blocks"`
	Representations int `json:"representations"`
	Insertions      int `json:"insertions"`
	Evictions       int `json:"evictions"`
	SizeUpdates     int `json:"size_updates"`
	HuffmanStrings  int `json:"huffman_strings"`
	SensitiveFields int `json:"sensitive_fields"`
	// Instances is how many instances of the case's rule were judged,
	// and Of what they are: "insertions", "lowered settings", ...
	Instances int    `json:"instances"`
	Of        string `json:"of"`
	// NotJudged is how many blocks of the case's scenarios were not
	// judged: they came after the encoder's output diverged from what the
	// decoders saw in their story (consequences of a root cause), or the
	// encoder could not express them.
	NotJudged int `json:"not_judged,omitempty"`
}

// String says what the evidence counts, for the text formats: "judged
// 12 lowered settings in 3384 blocks (45012 representations, ...)".
func (e Evidence) String() string {
	if e.Blocks == 0 {
		s := "judged no block"
		if e.NotJudged > 0 {
			s += "; " + Plural(e.NotJudged, "block", "blocks") + " not judged"
		}
		return s
	}
	s := fmt.Sprintf("judged %s in %s (%s, %s, %s, %s, %s, %s)", InstancesOf(e.Instances, e.Of),
		Plural(e.Blocks, "block", "blocks"), Plural(e.Representations, "representation", "representations"),
		Plural(e.Insertions, "insertion", "insertions"), Plural(e.Evictions, "eviction", "evictions"),
		Plural(e.SizeUpdates, "size update", "size updates"), Plural(e.HuffmanStrings, "Huffman string", "Huffman strings"),
		Plural(e.SensitiveFields, "sensitive field", "sensitive fields"))
	if e.NotJudged > 0 {
		s += "; " + Plural(e.NotJudged, "block", "blocks") + " not judged"
	}
	return s
}

// Plural writes n and the noun in the number n takes.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// InstancesOf writes n and of, the plural noun phrase that names what a
// case judges ("blocks with size updates", "oversized integers
// refused"): for one, the phrase's first plural word, its noun, is made
// singular ("1 block with size updates", "1 oversized integer refused").
func InstancesOf(n int, of string) string {
	if n != 1 {
		return fmt.Sprintf("%d %s", n, of)
	}
	words := strings.Split(of, " ")
	for i, w := range words {
		if stem, ok := strings.CutSuffix(w, "ies"); ok {
			words[i] = stem + "y"
			break
		}
		if stem, ok := strings.CutSuffix(w, "s"); ok {
			words[i] = stem
			break
		}
	}
	return "1 " + strings.Join(words, " ")
}

// Add counts what o judged into e: its blocks and what they held, not its
// instances, which each side counts by its case's rule.
func (e *Evidence) Add(o Evidence) {
	e.Blocks += o.Blocks
	e.Representations += o.Representations
	e.Insertions += o.Insertions
	e.Evictions += o.Evictions
	e.SizeUpdates += o.SizeUpdates
	e.HuffmanStrings += o.HuffmanStrings
	e.SensitiveFields += o.SensitiveFields
}
