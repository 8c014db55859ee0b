// Package cputime reads the CPU time a thread or a process has used, as
// the kernel counts it: time spent waiting for a core on a busy machine
// is not in it, which makes it a steadier measure of work than wall time
// (bench's paired rows, dec/7.3/2).
//
// Files: cputime.go (Process and Waiting: a process's time on a core and
// waiting for one, from /proc/PID/task/TID/schedstat), thread_linux.go
// (Thread, the calling thread's time from CLOCK_THREAD_CPUTIME_ID) and
// thread_other.go (Thread elsewhere: always unknown).
package cputime

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// Process returns the CPU time process pid has used, the sum over
// its threads of the first field of /proc/PID/task/TID/schedstat (the
// nanoseconds the thread has run on a CPU), and whether it is known: not
// where there is no /proc or no schedstat, nor for a process that
// exited. A thread that ended is no longer counted, so a second reading
// can be lower than the first.
func Process(pid int) (time.Duration, bool) { return schedstat(pid, 0) }

// Waiting returns how long process pid's threads have waited, runnable,
// for a core, the sum of the second field of /proc/PID/task/TID/schedstat
// (the run-queue delay, in nanoseconds), and whether it is known, as
// Process. On a busy machine it grows while the program waits its turn:
// time no deadline on the program's answer should count (package
// hpackstdio's timeouts).
func Waiting(pid int) (time.Duration, bool) { return schedstat(pid, 1) }

// schedstat sums field (0: time on a CPU, 1: time waiting for one) of
// the schedstat files of process pid's threads.
func schedstat(pid, field int) (time.Duration, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil || len(tasks) == 0 {
		return 0, false
	}
	var sum time.Duration
	for _, task := range tasks {
		stat, err := os.ReadFile(dir + "/" + task.Name() + "/schedstat")
		if err != nil {
			return 0, false
		}
		ns, ok := parseSchedstat(stat, field)
		if !ok {
			return 0, false
		}
		sum += ns
	}
	return sum, true
}

// parseSchedstat reads a field of a schedstat file, "1234 56 7": the
// time on a CPU, the time waiting for one (both in nanoseconds), the
// count of time slices.
func parseSchedstat(stat []byte, field int) (time.Duration, bool) {
	fields := bytes.Fields(stat)
	if len(fields) <= field {
		return 0, false
	}
	ns, err := strconv.ParseInt(string(fields[field]), 10, 64)
	if err != nil || ns < 0 {
		return 0, false
	}
	return time.Duration(ns), true
}
