//go:build !unix

package live

import "os/exec"

// setProcessGroup does nothing where there are no Unix process groups.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the program alone.
func killProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// termProcessGroup kills the program alone: there is no gentler signal.
func termProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
