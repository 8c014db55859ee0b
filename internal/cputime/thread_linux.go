package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID of <time.h>.
const clockThreadCPUTimeID = 3

// Thread returns the CPU time the calling OS thread has used, and
// whether it could be read. The caller holds its goroutine to the thread
// (runtime.LockOSThread), or the figure is another goroutine's too.
// (getrusage's per-thread times are sampled at the scheduler tick; this
// clock has nanosecond resolution.)
func Thread() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
