package hpackstdio

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/cputime"
)

// runSlowHello is the helper "slow-hello": it works for the CPU time its
// argument gives before it answers hello, then answers new and encode as
// the echo encoder would not need to: the test only says hello.
func runSlowHello(work string) int {
	need, err := time.ParseDuration(work)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	runtime.LockOSThread()
	for {
		if used, ok := cputime.Thread(); !ok || used >= need {
			break
		}
		for i := 0; i < 1e5; i++ {
			spinSink += i
		}
	}
	fmt.Println(`{"name":"slow"}`)
	// Then it waits for the end of its input, as any program between
	// requests does.
	buf := make([]byte, 4096)
	for {
		if _, err := os.Stdin.Read(buf); err != nil {
			return 0
		}
	}
}

// runSpinner is the helper "spinner": it keeps a core busy until killed.
func runSpinner() int {
	for {
		spinSink++
	}
}

var spinSink int

// TestDeadlineNotCountingTheQueue: a program that needs 600ms of CPU time
// for its answer, given 1s, answers in time although a spinner shares
// its one core and it waits about as long as it works: the time it spent
// waiting for the core is not counted against it (deadline). Whatever
// else the machine does only adds to that wait. Both programs are pinned
// to core 0 with taskset.
func TestDeadlineNotCountingTheQueue(t *testing.T) {
	if _, ok := cputime.Waiting(os.Getpid()); !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("the run-queue delay is unknown on Linux")
		}
		return // elsewhere the deadline is wall time, as before
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Fatalf("taskset (util-linux) not found: %v", err)
	}
	spinner := exec.Command(taskset, "-c", "0", os.Args[0], "spinner")
	if err := spinner.Start(); err != nil {
		t.Fatal(err)
	}
	defer spinner.Wait()
	defer spinner.Process.Kill()
	c, err := Start([]string{taskset, "-c", "0", os.Args[0], "slow-hello", "600ms"}, Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("a program that worked 600ms of CPU time for its hello, sharing its core: %v; want its answer", err)
	}
	defer c.Close()
	if c.Name() != "slow" {
		t.Errorf("name %q; want slow", c.Name())
	}
}

// TestDeadlineWithin: a timeout's message says what the request was
// given, never the run-queue delay granted, which varies from run to run.
func TestDeadlineWithin(t *testing.T) {
	d := &deadline{timeout: 5 * time.Second}
	d.granted.Store(int64(1234 * time.Millisecond))
	if got := d.within(); got != "within 5s" {
		t.Errorf("within() = %q; want %q", got, "within 5s")
	}
}
