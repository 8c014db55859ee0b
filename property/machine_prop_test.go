package property

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter/commands"
)

// TestStateMachine drives the encoder with generated command sequences and
// checks it after every command against the model and every oracle.
func TestStateMachine(t *testing.T) {
	p := params(t, propConfig{runs: 150, maxSize: 40})
	var last *failedRun
	m := &machine{onFailure: func(initial *connState, history []commands.Command, failure string) {
		last = &failedRun{initial, history, failure}
	}}
	if res := check(t, p, commands.Prop(m)); !res.Passed() && last != nil {
		reportFailedRun(t, p.Seed(), last)
	}
}

// failedRun is the last failing command sequence gopter ran: after
// shrinking, the shrunk one.
type failedRun struct {
	initial *connState
	history []commands.Command
	failure string
}

func reportFailedRun(t *testing.T, seed int64, r *failedRun) {
	t.Helper()
	t.Errorf("shrunk to %d commands (capacity %d, index-all %v):\n%s", len(r.history), r.initial.configCapacity, r.initial.indexAll, historyString(r.history))
}

func historyString(h []commands.Command) string {
	s := ""
	for i, c := range h {
		s += fmt.Sprintf("  %d. %v\n", i+1, c)
	}
	return s
}
