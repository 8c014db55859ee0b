package certify

import (
	"fmt"

	"github.com/hpackcert/hpackcert/engine"
)

// What a target can do beyond Target, asked through small interfaces
// rather than by its concrete type; the exported ones let a source of
// another package declare it.
type (
	// UTF8Only is implemented by targets whose transport may carry only
	// valid UTF-8 (hpack-stdio/1 without its binary form): UTF8Only
	// returns true when it can carry nothing else, and the certifier then
	// leaves out the octets valid UTF-8 never contains, saying so.
	UTF8Only interface{ UTF8Only() bool }

	// InProcess marks targets that run in this process, whose
	// allocations can be counted (engine.InProcess).
	InProcess = engine.InProcess

	// Live marks targets driven over a live HTTP/2 connection
	// (engine.Live).
	Live = engine.Live

	// Restarter is implemented by targets that start each scenario
	// afresh, such as a child process that is killed and started again:
	// Restart is called before each scenario.
	Restarter interface{ Restart() }

	// StderrTail is implemented by targets whose diagnostics are
	// captured: StderrTail returns the end of what they wrote since the
	// last Restart, for the report (engine.StderrTail).
	StderrTail = engine.StderrTail
)

// recordedWithoutWire says why recorded stories without any "wire" grade
// nothing.
func recordedWithoutWire(names []string) string {
	files := ""
	if len(names) > 0 {
		files = fmt.Sprintf(" (%d files: %s ... %s)", len(names), names[0], names[len(names)-1])
	}
	return "the story files hold header lists without any \"wire\"" + files + ": they record no encoder's output to grade; to encode them with an encoder, pass the directory as --testcases"
}

// describe says how a target is driven.
func describe(t Target) TargetInfo {
	info := TargetInfo{Reported: t.Name()}
	switch {
	case isRecorded(t):
		info.Kind = "recorded"
	case isInProcess(t):
		info.Kind = "in-process"
	default:
		info.Kind = "stdio"
		info.Binary = !isUTF8Only(t)
	}
	return info
}

// isRecorded reports whether t's source plays scenarios itself (a
// Player): recorded wire, not an encoder the engine drives.
func isRecorded(t Target) bool {
	_, ok := t.(Player)
	return ok
}

func isInProcess(t Target) bool {
	_, ok := t.(InProcess)
	return ok
}

func isUTF8Only(t Target) bool {
	u, ok := t.(UTF8Only)
	return ok && u.UTF8Only()
}
