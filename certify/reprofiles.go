package certify

import (
	"fmt"
	"github.com/hpackcert/hpackcert/engine"
	"os"

	"github.com/hpackcert/hpackcert/vectors"
)

// WriteRepros writes the reproduction (Result.Replay) of every failed or
// non-strict case of rep, either side, to dir, one story file each at
// ReproPath, creating dir, and returns where they are: Repro.Replay, the
// command that replays one, is the caller's to fill, which knows how the
// target was named on its command line.
func WriteRepros(rep *Report, dir string) (Repro, error) {
	repro := Repro{Dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return repro, fmt.Errorf("reproductions: %w", err)
	}
	for _, name := range rep.Encoders {
		for _, c := range rep.Cases {
			res := rep.Results[name][c.ID]
			if res == nil || res.Replay == nil {
				continue
			}
			if err := vectors.WriteStory(ReproPath(dir, name, c.ID), res.Replay); err != nil {
				return repro, fmt.Errorf("reproductions: %w", err)
			}
			repro.Files++
		}
	}
	return repro, nil
}

// ReproPath is the file WriteRepros writes the reproduction of case id
// for the target named name to (engine.ReproPath).
func ReproPath(dir, name, id string) string { return engine.ReproPath(dir, name, id) }
