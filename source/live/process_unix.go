//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// SetProcessGroup makes cmd the leader of a process group of its own,
// which the workers a server forks join.
func SetProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillProcessGroup sends SIGKILL to the process group cmd leads.
func KillProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// TermProcessGroup asks the process group cmd leads to stop (SIGTERM).
func TermProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}
