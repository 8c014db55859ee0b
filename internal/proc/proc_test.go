//go:build unix

package proc

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// startForker starts a shell that forks a sleeping child in its group,
// writes the child's pid to a file and sleeps, and returns the group and
// the child's pid. It waits for the pid as long as the shell runs, with
// no deadline: a shell that hangs is left to go test's -timeout.
func startForker(t *testing.T, ctx context.Context) (*Group, int) {
	t.Helper()
	pidFile := t.TempDir() + "/pid"
	g := Command(ctx, time.Second, "/bin/sh", "-c", "sleep 60 & echo $! >"+pidFile+"; sleep 60")
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if pids := testenv.ReadPids(t, pidFile); len(pids) > 0 {
			return g, pids[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKillAllKillsDescendants(t *testing.T) {
	g, child := startForker(t, context.Background())
	if n := Running(); n != 1 {
		t.Errorf("Running() = %d after Start; want 1", n)
	}
	KillAll()
	if err := g.Wait(); err == nil {
		t.Error("Wait after KillAll returned nil; want the kill")
	}
	testenv.WaitGone(child) // the forked child, killed with its group
	if n := Running(); n != 0 {
		t.Errorf("Running() = %d after Wait; want 0", n)
	}
}

func TestContextKillsGroup(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	g, child := startForker(t, ctx)
	err := g.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("Wait: %v; want the program killed (SIGKILL)", err)
	}
	if ctx.Err() == nil {
		t.Error("Wait returned before the context ended; want the kill at its deadline")
	}
	testenv.WaitGone(child) // the forked child, killed with its group
}

func TestWaitKillsLeftovers(t *testing.T) {
	pidFile := t.TempDir() + "/pid"
	g := Command(context.Background(), time.Second, "/bin/sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $! >"+pidFile)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("Wait: %v; want the shell's clean exit", err)
	}
	children := testenv.ReadPids(t, pidFile)
	if len(children) != 1 {
		t.Fatalf("the shell wrote the pids %v; want its child's", children)
	}
	// The child the program left behind, killed by Wait.
	testenv.WaitGone(children[0])
	g.Kill() // after Wait: must not signal a reused id, nor panic
}

func TestTerminate(t *testing.T) {
	g := Command(context.Background(), time.Second, "/bin/sh", "-c", "trap 'exit 7' TERM; sleep 60 & wait")
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	g.Terminate()
	if err := g.Wait(); err == nil {
		t.Error("Wait after Terminate returned nil; want exit status 7 or the signal")
	}
}
