//go:build !unix

package hpackstdio

import "os/exec"

// ownGroup does nothing where there are no Unix process groups: the
// program's descendants are not tracked.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the program alone; descendants holding its pipes are
// left to run, and its pipes are closed under them by kill.
func killGroup(cmd *exec.Cmd) {
	cmd.Process.Kill()
}
