package live

import (
	"os/exec"
	"sync"
)

// started holds every program a target start or CaptureClient started that
// still runs, for KillTargets.
var started struct {
	sync.Mutex
	cmds map[*exec.Cmd]bool
}

// Track records a started program for KillTargets until Untrack.
func Track(cmd *exec.Cmd) {
	started.Lock()
	defer started.Unlock()
	if started.cmds == nil {
		started.cmds = map[*exec.Cmd]bool{}
	}
	started.cmds[cmd] = true
}

// Untrack forgets a program that exited.
func Untrack(cmd *exec.Cmd) {
	started.Lock()
	defer started.Unlock()
	delete(started.cmds, cmd)
}

// KillTargets kills every server, proxy and client program hpackcert live
// started and that still runs, each with its process group. It only sends
// signals, so a signal handler about to exit may call it: the programs run
// in process groups of their own, which the terminal's interrupt does not
// reach.
func KillTargets() {
	started.Lock()
	defer started.Unlock()
	for cmd := range started.cmds {
		KillProcessGroup(cmd)
	}
}
