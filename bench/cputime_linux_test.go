package bench

import (
	"runtime"
	"testing"
	"time"
)

func TestThreadCPUTime(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPUTime()
	if !ok {
		t.Fatal("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
	}
	deadline := time.Now().Add(20 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	end, _ := threadCPUTime()
	if used := end - start; used <= 0 || used > time.Second {
		t.Errorf("a 20ms busy loop used %v of thread CPU time; want more than 0 and less than 1s", used)
	}
}
