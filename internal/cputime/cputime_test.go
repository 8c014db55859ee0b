package cputime

import (
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
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

// TestParseSchedstat reads the field asked of schedstat, and refuses
// what is not a count of nanoseconds.
func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		in    string
		field int
		want  time.Duration
		ok    bool
	}{
		{"6035693 9074300 3\n", 0, 6035693, true},
		{"6035693 9074300 3\n", 1, 9074300, true},
		{"0 0 0\n", 0, 0, true},
		{"", 0, 0, false},
		{"5\n", 1, 0, false},
		{"-5 1 1\n", 0, 0, false},
		{"1 -5 1\n", 1, 0, false},
		{"12x 1 1\n", 0, 0, false},
		{"99999999999999999999 1 1\n", 0, 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSchedstat([]byte(tt.in), tt.field)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseSchedstat(%q, %d) = %v, %v; want %v, %v", tt.in, tt.field, got, ok, tt.want, tt.ok)
		}
	}
}

// TestWaiting: threads kept from their core by each other wait, and
// Waiting counts it. The child spins two threads pinned to one core
// (taskset), so one of them always waits for the other, whatever else
// the machine does or how many cores it has.
func TestWaiting(t *testing.T) {
	if _, ok := Waiting(os.Getpid()); !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("Waiting(self) unknown on Linux")
		}
		return
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Fatalf("taskset (util-linux) not found: %v", err)
	}
	cmd := exec.Command(taskset, "-c", "0", os.Args[0], "-test.run=^TestWaitingChild$")
	cmd.Env = append(os.Environ(), waitingChildEnv+"=1", "GOMAXPROCS=2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	// A hang here (no wait ever counted) is left to the test's -timeout.
	for {
		if w, ok := Waiting(cmd.Process.Pid); ok && w > 0 {
			return
		}
		runtime.Gosched()
	}
}

// waitingChildEnv makes TestWaitingChild spin, for TestWaiting.
const waitingChildEnv = "CPUTIME_WAITING_CHILD"

// TestWaitingChild spins two threads until it is killed, when TestWaiting
// starts it; otherwise it does nothing.
func TestWaitingChild(t *testing.T) {
	if os.Getenv(waitingChildEnv) == "" {
		return
	}
	for range 2 {
		go func() {
			runtime.LockOSThread()
			for {
				sink2.Add(1)
			}
		}()
	}
	select {}
}

var sink2 atomic.Int64
