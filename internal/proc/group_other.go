//go:build !unix

package proc

import "os/exec"

// sig is a signal Group sends; only killing exists here.
type sig int

const (
	kill sig = iota
	terminate
)

// ownGroup does nothing where there are no Unix process groups.
func ownGroup(cmd *exec.Cmd) {}

// signal kills the program alone, whatever s.
func signal(cmd *exec.Cmd, s sig) { cmd.Process.Kill() }
