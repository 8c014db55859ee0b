//go:build unix

package hpackstdio

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a process group of its own, which its
// descendants join unless they leave it on purpose (setsid, setpgid).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group that cmd leads: the
// program and every descendant still in the group.
func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
