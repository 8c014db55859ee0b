package cputime

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// spin keeps the CPU busy until the clock it reads has moved, so that a
// test waits for CPU time without bounding how long that takes.
func spin(clock func() (time.Duration, bool), from time.Duration) {
	for {
		if now, _ := clock(); now > from {
			return
		}
		for i := 0; i < 1e5; i++ {
			sink += i
		}
	}
}

var sink int

// checkClock checks that on Linux clock is known, positive and grows
// while this process works, and that elsewhere it is unknown; it reports
// whether it was on Linux.
func checkClock(t *testing.T, name string, clock func() (time.Duration, bool)) bool {
	t.Helper()
	start, ok := clock()
	if runtime.GOOS != "linux" {
		if ok {
			t.Errorf("%s known on %s; want unknown off Linux", name, runtime.GOOS)
		}
		return false
	}
	if !ok || start <= 0 {
		t.Fatalf("%s = %v, %v; want a positive time, known", name, start, ok)
	}
	spin(clock, start)
	return true
}

// TestThread: the calling thread's CPU time grows while it works.
func TestThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	checkClock(t, "Thread()", Thread)
}

// TestProcess: this process's CPU time grows while it works; that of a
// process that exited is unknown.
func TestProcess(t *testing.T) {
	if !checkClock(t, "Process(self)", func() (time.Duration, bool) { return Process(os.Getpid()) }) {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if d, ok := Process(cmd.Process.Pid); ok {
		t.Errorf("Process of an exited, reaped process = %v, known; want unknown", d)
	}
}

// TestParseSchedstat reads the first field of schedstat, and refuses
// what is not a count of nanoseconds.
func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"6035693 9074300 3\n", 6035693, true},
		{"0 0 0\n", 0, true},
		{"", 0, false},
		{"-5 1 1\n", 0, false},
		{"12x 1 1\n", 0, false},
		{"99999999999999999999 1 1\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSchedstat([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
