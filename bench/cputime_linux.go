package bench

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID of <time.h>.
const clockThreadCPUTimeID = 3

// threadCPUTime returns the CPU time the calling OS thread has used, and
// whether it could be read. Time the thread spends waiting while other
// processes run is not counted, which makes it a steadier measure than
// wall time on a shared machine. (getrusage's per-thread times are
// sampled at the scheduler tick; this clock has nanosecond resolution.)
func threadCPUTime() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
