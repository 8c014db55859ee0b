//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// sig is a signal Group sends.
type sig = syscall.Signal

const (
	kill      = syscall.SIGKILL
	terminate = syscall.SIGTERM
)

// ownGroup makes cmd the leader of a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signal sends s to the process group cmd leads: the program and every
// descendant still in the group.
func signal(cmd *exec.Cmd, s sig) {
	syscall.Kill(-cmd.Process.Pid, s)
}
