package hpackstdio

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/hpackcert/hpackcert/internal/cputime"
)

// maxQueueGrant bounds, in multiples of the timeout, how much longer than
// its timeout a request may wait because its program waited for a core:
// a machine so loaded that a program gets under a tenth of the time it is
// given is reported, not waited out for ever.
const maxQueueGrant = 9

// minQueueGrant is the least run-queue delay worth another wait.
const minQueueGrant = time.Millisecond

// deadline is the timeout of one request: its channel C fires once
// timeout has passed that the program did not spend waiting, runnable,
// for a core. On a busy machine a program that would answer in time may
// sit in the run queue behind other work (another test, a CI neighbour),
// and its answer arrives late through no fault of its own; a timeout that
// counted that wait would make the load of the machine a grade. The wait
// is read from the program's own threads (package cputime, Linux's
// schedstat), so a program that hangs, sleeps or spins on a core of its
// own still times out after timeout; where the wait cannot be read (no
// /proc), the deadline is timeout of wall time, as before. Only the
// program's process is read, not its descendants: a wrapper that starts
// the encoder as a child (a shell that does not exec) gets no grant.
type deadline struct {
	C       <-chan time.Time
	timeout time.Duration
	granted atomic.Int64 // nanoseconds added for the run-queue delay
	stop    chan struct{}
}

// newDeadline starts the deadline of a request of timeout to program
// pid. Call stop once the request is over.
func newDeadline(pid int, timeout time.Duration) *deadline {
	c := make(chan time.Time, 1)
	d := &deadline{C: c, timeout: timeout, stop: make(chan struct{})}
	base, known := cputime.Waiting(pid)
	go func() {
		t := time.NewTimer(timeout)
		defer t.Stop()
		for {
			select {
			case <-d.stop:
				return
			case now := <-t.C:
				if known {
					if extra, ok := d.moreTime(pid, base); ok {
						t.Reset(extra)
						continue
					}
				}
				c <- now
				return
			}
		}
	}()
	return d
}

// moreTime returns the run-queue delay program pid accrued since base and
// not granted yet, within maxQueueGrant, and whether it is worth waiting.
func (d *deadline) moreTime(pid int, base time.Duration) (time.Duration, bool) {
	now, ok := cputime.Waiting(pid)
	if !ok {
		return 0, false
	}
	granted := time.Duration(d.granted.Load())
	extra := min(now-base-granted, maxQueueGrant*d.timeout-granted)
	if extra < minQueueGrant {
		return 0, false
	}
	d.granted.Add(int64(extra))
	return extra, true
}

// within says how long the request was given, for a timeout's message:
// "within 5s". The run-queue delay granted is not named: it differs from
// one run to the next, and the message is the same on every machine.
func (d *deadline) within() string { return fmt.Sprintf("within %v", d.timeout) }

// end stops the deadline's timer.
func (d *deadline) end() { close(d.stop) }
