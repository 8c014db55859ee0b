// Package proc starts programs each in a process group of its own, so
// that what they fork can be stopped with them, and keeps a registry of
// the groups still running, so that a program about to exit (on an
// interrupt, say) can kill them all: groups of their own no longer hear
// the terminal's interrupt.
//
// Where there are no Unix process groups, a program is started alone and
// only it is signalled; its descendants are not tracked.
//
// Files: proc.go (Group, Command, KillAll and the registry), group_unix.go
// (a program made the leader of its own group, signals sent to the group)
// and group_other.go (where there are no process groups: the program
// alone, killed).
package proc

import (
	"context"
	"os/exec"
	"sync"
	"time"
)

// Group is one started program, the leader of a process group of its
// own, which its descendants join unless they leave it on purpose
// (setsid, setpgid).
type Group struct {
	// Cmd is the program; set its Dir, Env and standard files before
	// Start, leave SysProcAttr, Cancel and WaitDelay as Command set them.
	Cmd *exec.Cmd

	mu     sync.Mutex // guards reaped: a reaped group id is never signalled
	reaped bool
}

// running holds the groups started and not yet reaped, for KillAll.
var running struct {
	sync.Mutex
	groups map[*Group]struct{}
}

// Command returns a Group for name and args, not started. When ctx ends
// before the program exits, the whole group is killed (Cmd.Cancel), and
// Wait then waits at most waitDelay for the program's pipes to close
// (Cmd.WaitDelay) before closing them under whoever holds them; 0 means
// no bound, for programs whose pipes are *os.File the caller closes.
func Command(ctx context.Context, waitDelay time.Duration, name string, args ...string) *Group {
	g := &Group{Cmd: exec.CommandContext(ctx, name, args...)}
	ownGroup(g.Cmd)
	g.Cmd.Cancel = func() error {
		g.Kill()
		return nil
	}
	g.Cmd.WaitDelay = waitDelay
	return g
}

// Start starts the program and registers its group for KillAll until
// Wait reaps it. Each started Group must be waited for.
func (g *Group) Start() error {
	if err := g.Cmd.Start(); err != nil {
		return err
	}
	running.Lock()
	if running.groups == nil {
		running.groups = map[*Group]struct{}{}
	}
	running.groups[g] = struct{}{}
	running.Unlock()
	return nil
}

// Wait waits for the program to exit, as exec.Cmd.Wait does, and then
// kills whatever it left in its process group: descendants that would
// otherwise hold its pipes open and outlive the caller.
func (g *Group) Wait() error {
	err := g.Cmd.Wait()
	g.mu.Lock()
	// The group id is the reaped program's pid; it cannot be reused while
	// the group has members, and this is the last time it is signalled.
	signal(g.Cmd, kill)
	g.reaped = true
	g.mu.Unlock()
	running.Lock()
	delete(running.groups, g)
	running.Unlock()
	return err
}

// Kill kills the process group (SIGKILL), unless the program was reaped
// already (Wait killed the group then).
func (g *Group) Kill() { g.send(kill) }

// Terminate asks the process group to stop (SIGTERM), unless the
// program was reaped already. Where there are no process groups it kills
// the program: there is no gentler signal.
func (g *Group) Terminate() { g.send(terminate) }

func (g *Group) send(s sig) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.reaped {
		signal(g.Cmd, s)
	}
}

// KillAll kills every group started by this process and not yet reaped.
// It only sends signals: it is safe to call from any goroutine at any
// time, in particular from a signal handler about to exit.
func KillAll() {
	running.Lock()
	defer running.Unlock()
	for g := range running.groups {
		g.Kill()
	}
}

// Running returns how many groups are started and not yet reaped.
func Running() int {
	running.Lock()
	defer running.Unlock()
	return len(running.groups)
}
