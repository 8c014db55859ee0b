package engine

import (
	"fmt"
	"runtime/debug"
)

// Version returns the hpackcert build: the module version and, for a
// build from a checkout, the commit and whether the tree was modified, as
// the Go toolchain recorded them; "unknown" without build information.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if revision != "" {
		v += fmt.Sprintf(" %.12s%s", revision, modified)
	}
	return v
}
