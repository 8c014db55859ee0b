package certify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// for the target named name to: the name's letters, digits and -._ (64
// at most), then the case id with "_" for "/".
func ReproPath(dir, name, id string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
	if len(safe) > 64 {
		safe = safe[:64]
	}
	return filepath.Join(dir, safe+"--"+strings.ReplaceAll(id, "/", "_")+".json")
}
