package hpackstdio

import (
	"fmt"
	"syscall"
)

// signalNames are the names of the signals a program most often dies of,
// as a report names them.
var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGALRM: "SIGALRM", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL",
	syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGTERM: "SIGTERM",
	syscall.SIGTRAP: "SIGTRAP",
}

// signalName names s: SIGSEGV, or for a signal of no name here its
// number and description.
func signalName(s syscall.Signal) string {
	if name, ok := signalNames[s]; ok {
		return name
	}
	return fmt.Sprintf("%d (%v)", int(s), s)
}

// howExited says how the program exited, "exited (exit status 3)" or
// "was killed by signal SIGSEGV", and whether a signal killed it: a
// crash, after which no line it wrote counts. Call it once exited is
// closed.
func (p *process) howExited() (string, bool) {
	st := p.group.Cmd.ProcessState
	if st == nil {
		return "exited", false
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "was killed by signal " + signalName(ws.Signal()), true
	}
	return "exited (" + st.String() + ")", false
}
