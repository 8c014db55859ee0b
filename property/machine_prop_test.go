package property

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter/commands"
)

// TestStateMachine drives the encoder with generated command sequences and
// checks it after every command against the model and every oracle. A
// failing sequence is shrunk and written as a regression story.
func TestStateMachine(t *testing.T) {
	p := params(t, propConfig{runs: 3000, maxSize: 40})
	var last *failedRun
	m := &machine{onFailure: func(initial *connState, history []commands.Command, failure string) {
		last = &failedRun{initial, history, failure}
	}}
	res := check(t, p, commands.Prop(m))
	if !res.Passed() {
		if last != nil {
			reportFailedRun(t, fmt.Sprintf("statemachine-%d", p.Seed()), last)
		}
		return
	}
	// The generators must reach every feature the checks are about; a
	// change of weights that starves one shows here. Few runs may miss
	// some by chance, so this needs the default count or more.
	t.Logf("coverage: %v", m.coverage)
	if p.MinSuccessfulTests < 300 {
		return
	}
	for _, f := range coverageFeatures {
		if m.coverage[f] == 0 {
			t.Errorf("%d runs never exercised %q; the generators need a look", p.MinSuccessfulTests, f)
		}
	}
}

// coverageFeatures are what TestStateMachine must exercise in a full run.
var coverageFeatures = []string{
	"reset", "pool round trip", "sizes acked", "empty block",
	"two size updates", "down then up with entries left", "x/net sits out",
	"sensitive field", "never indexed by policy", "indexed field", "giant field", "eviction",
}

// failedRun is the last failing command sequence gopter ran: after
// shrinking, the shrunk one.
type failedRun struct {
	initial *connState
	history []commands.Command
	failure string
}

// reportFailedRun prints the shrunk sequence and writes it as a story.
func reportFailedRun(t *testing.T, name string, r *failedRun) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "shrunk to %d commands (%s):\n", len(r.history), configString(r.initial.cfg))
	for i, c := range r.history {
		fmt.Fprintf(&b, "  %d. %v\n", i+1, c)
	}
	fmt.Fprintf(&b, "  failure: %s\n", r.failure)
	path, again, err := writeRegression(name, r, r.failure)
	switch {
	case err != nil:
		fmt.Fprintf(&b, "  regression story: %v", err)
	case again == "":
		fmt.Fprintf(&b, "  wrote %s, but replaying it passes (the story format lost something)", path)
	default:
		fmt.Fprintf(&b, "  wrote %s; TestRegressionStories replays it: %s", path, again)
	}
	t.Error(b.String())
}
