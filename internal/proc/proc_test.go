//go:build unix

package proc

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startForker starts a shell that forks a sleeping child in its group,
// writes the child's pid to a file and sleeps, and returns the group and
// the child's pid.
func startForker(t *testing.T, ctx context.Context) (*Group, int) {
	t.Helper()
	pidFile := t.TempDir() + "/pid"
	g := Command(ctx, time.Second, "/bin/sh", "-c", "sleep 60 & echo $! >"+pidFile+"; sleep 60")
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, err := os.ReadFile(pidFile)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			return g, pid
		}
		if time.Now().After(deadline) {
			g.Kill()
			g.Wait()
			t.Fatal("the shell wrote no pid within 5s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gone reports whether pid exits within 5s (a zombie of init counts).
func gone(pid int) bool {
	for range 500 {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(data), ") Z ") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
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
	if !gone(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the forked child %d still runs after KillAll", child)
	}
	if n := Running(); n != 0 {
		t.Errorf("Running() = %d after Wait; want 0", n)
	}
}

func TestContextKillsGroup(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	g, child := startForker(t, ctx)
	start := time.Now()
	err := g.Wait()
	if err == nil {
		t.Error("Wait returned nil; want the kill at the deadline")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Wait took %v after the deadline; want the group killed at once", d)
	}
	if !gone(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the forked child %d still runs after the context ended", child)
	}
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
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !gone(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the child %d the program left behind still runs after Wait", child)
	}
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
