package testenv

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// WaitGone waits until every process of pids has exited: it no longer
// exists, or it is a zombie (dead, its exit status left for a parent to
// reap). It sets no deadline of its own: a process that never goes is a
// hang, which go test's -timeout reports with the stack of this wait,
// and a test that waits so asserts what the code guarantees (the process
// is killed) and nothing of how fast the machine is.
func WaitGone(pids ...int) {
	for _, pid := range pids {
		for alive(pid) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// alive reports whether pid runs: it exists and is no zombie, the state
// of /proc/PID/stat after the command name, where there is a /proc.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	if end := bytes.LastIndexByte(stat, ')'); end >= 0 {
		if fields := bytes.Fields(stat[end+1:]); len(fields) > 0 && string(fields[0]) == "Z" {
			return false
		}
	}
	return true
}

// ReadPids returns the process ids written to path, one a line, those
// whose line is whole; none when the file does not exist yet.
func ReadPids(t testing.TB, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data[:bytes.LastIndexByte(data, '\n')+1])) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pids = append(pids, pid)
	}
	return pids
}
