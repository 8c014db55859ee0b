//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a process group of its own,
// which the workers a server forks join.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to the process group cmd leads.
func killProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// termProcessGroup asks the process group cmd leads to stop (SIGTERM).
func termProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}
