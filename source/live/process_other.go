//go:build !unix

package live

import "os/exec"

// SetProcessGroup does nothing where there are no Unix process groups.
func SetProcessGroup(cmd *exec.Cmd) {}

// KillProcessGroup kills the program alone.
func KillProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// TermProcessGroup kills the program alone: there is no gentler signal.
func TermProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
