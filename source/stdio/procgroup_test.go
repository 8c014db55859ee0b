package stdio_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// needProc skips a test that watches processes through /proc where there
// is none.
func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc on %s to watch processes in", runtime.GOOS)
	}
}

// sleeperAlive reports whether pid is a stdioenc sleeper still running:
// not a zombie, and with -sleeper on its command line, so that a reused
// pid is not taken for it.
func sleeperAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return err == nil && bytes.Contains(cmdline, []byte("-sleeper"))
}

// sleepers returns the pids stdioenc -pids wrote to path.
func sleepers(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// aliveSleepers returns those of pids still running.
func aliveSleepers(pids []int) []int {
	var alive []int
	for _, pid := range pids {
		if sleeperAlive(pid) {
			alive = append(alive, pid)
		}
	}
	return alive
}

// sleepersGone waits for every sleeper of pids to be gone, killed with
// the encoder's process group. The kill is sent before the call and takes
// no time the test could bound on a loaded machine: a sleeper that
// survives it is a hang, for go test's -timeout to catch and name.
func sleepersGone(pids []int) {
	for len(aliveSleepers(pids)) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestExecKillsProcessGroup runs encoders that leave two sleepers each
// holding their standard input, output and error, and checks that no
// sleeper survives a restart, Close, a timeout or a crash, that none of
// them keeps Close or a request from returning, and that errors say what
// happened: a timeout its own, a crash the exit status, not the end of
// the pipes the sleepers held.
func TestExecKillsProcessGroup(t *testing.T) {
	needProc(t)
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	start := func(t *testing.T, flags string, timeout time.Duration) (certify.Target, string) {
		t.Helper()
		pids := filepath.Join(t.TempDir(), "pids")
		target, err := stdio.ExecWith(fmt.Sprintf("'%s' -fork 2 -pids '%s' %s", enc, pids, flags), stdio.ExecOptions{Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			target.Close()
			sleepersGone(sleepers(t, pids))
		})
		return target, pids
	}
	t.Run("certification", func(t *testing.T) {
		target, pids := start(t, "", 10*time.Second)
		opts := certifytest.Quick()
		opts.Cases = []string{"enc/4.1/", "enc/4.4/", "enc/7.1.3/"}
		rep, err := certify.Run([]certify.Target{target}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if bad := certifytest.GradesWithout(rep, rep.Encoders[0]); len(bad) > 0 {
			t.Errorf("stdioenc with sleepers:\n%s", strings.Join(bad, "\n"))
		}
		all := sleepers(t, pids)
		if len(all) < 4 {
			t.Fatalf("%d sleepers started; want two for each of several programs", len(all))
		}
		// Only the program of the last scenario may still run, with its two.
		if alive := aliveSleepers(all); len(alive) > 2 {
			t.Errorf("%d sleepers alive after the run: %v; want the restarts to have killed all but the last program's", len(alive), alive)
		}
		target.Close()
		sleepersGone(all)
	})
	t.Run("close", func(t *testing.T) {
		target, pids := start(t, "", 10*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := enc.EncodeBlock(nil, []certify.Field{{Name: "a", Value: "b"}}); err != nil {
			t.Fatal(err)
		}
		if alive := aliveSleepers(sleepers(t, pids)); len(alive) != 2 {
			t.Fatalf("sleepers alive before Close: %v; want two", alive)
		}
		target.Close()
		sleepersGone(sleepers(t, pids))
	})
	t.Run("timeout", func(t *testing.T) {
		// The timeout covers hello too: 2s leaves a loaded machine the
		// time to start the program.
		target, pids := start(t, "-hang-after 0", 2*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := enc.EncodeBlock(nil, nil); !errors.Is(err, certify.ErrTimeout) || !strings.Contains(err.Error(), "no answer to encode within 2s") {
			t.Errorf("EncodeBlock of a hanging encoder: error %v; want a timeout naming it", err)
		}
		sleepersGone(sleepers(t, pids)) // before Close
	})
	t.Run("crash", func(t *testing.T) {
		target, pids := start(t, "-crash-after 0", 10*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		wire, err := enc.EncodeBlock(nil, nil)
		const want = "encoder broke hpack-stdio at request 3: the encoder exited (exit status 3) without answering encode"
		if err == nil || err.Error() != want {
			t.Errorf("EncodeBlock of an encoder that exits = %x, %v; want the error %q", wire, err, want)
		}
		sleepersGone(sleepers(t, pids)) // before Close
	})
}
