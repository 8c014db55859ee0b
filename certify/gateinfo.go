package certify

import (
	"fmt"
	"sync"
)

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
	return fmt.Sprintf("reproductions: %d story files in %s; replay one with\n  %s", r.Files, r.Dir, r.Replay)
}

// repros holds the Repro of each Report given one, until Report carries
// it in a field of its own: Report's declaration is being moved with the
// writers that print it.
var repros sync.Map // *Report to Repro

// SetRepro records where the run's reproductions are, for the writers.
func (r *Report) SetRepro(repro Repro) { repros.Store(r, repro) }

// ReproInfo returns what SetRepro recorded, and whether it was called.
func (r *Report) ReproInfo() (Repro, bool) {
	v, ok := repros.Load(r)
	if !ok {
		return Repro{}, false
	}
	return v.(Repro), true
}
