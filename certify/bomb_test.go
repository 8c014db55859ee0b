package certify_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/report"
)

// memoryBound is the peak resident memory hpackcert may reach whatever the
// encoder under test sends, as README states it. The tests below measure
// the peak (getrusage's maximum resident set size) of a whole default run
// against each bomb, in a child process of its own whose Go memory limit
// is under the bound (testenv.GoMemLimit): the peak is then what the
// certifier keeps, not how far the collector fell behind on a busy
// machine.
const memoryBound = 256 << 20

// bombs are hostile encoders and the case each must fail, with words the
// detail must hold; a bomb with no case is a breakdown of the encoder, the
// target's one failure, with those words.
var bombs = []struct {
	bug    broken.Bug
	stdio  string // bombenc's -bomb flag
	id     string
	detail string
}{
	{broken.BombIndexed, "indexed", "enc/3.2/1", "HPACK-bomb defence"},
	{broken.BombPerBlock, "per-block", "enc/3.2/1", "HPACK-bomb defence"},
	{broken.BombWire, "wire", "", "per-block limit"},
}

// TestMain lets testenv.MeasuredCommand re-execute the test binary to
// measure a child's peak RSS alone.
func TestMain(m *testing.M) {
	testenv.RunMeasured()
	os.Exit(m.Run())
}

// bombEnv names the bomb a child process of TestBombsInProcess runs.
const bombEnv = "HPACKCERT_BOMB_CHILD"

// TestBombChild is the child side of TestBombsInProcess: with bombEnv
// set, it certifies the named bomb in process with the default options,
// all cases and the full traffic, and prints the JSON report.
func TestBombChild(t *testing.T) {
	name := os.Getenv(bombEnv)
	if name == "" {
		return // run only as a child
	}
	bug, err := broken.ParseBug(name)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := certify.Run([]certify.Target{certifytest.BrokenTarget(bug)}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(os.Stdout, rep); err != nil {
		t.Fatal(err)
	}
}

// TestBombsInProcess certifies each bomb as a Go encoder in a child test
// process and checks that the run grades it fail with the reason, within
// the memory bound.
func TestBombsInProcess(t *testing.T) {
	skipBombs(t)
	for _, b := range bombs {
		t.Run(b.bug.String(), func(t *testing.T) {
			cmd, peak := testenv.MeasuredCommand(t, 0, os.Args[0], "-test.run=^TestBombChild$", "-test.count=1")
			cmd.Env = append(cmd.Env, bombEnv+"="+b.bug.String(), testenv.GoMemLimit(memoryBound))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			checkBombRun(t, b.id, b.detail, strings.TrimSuffix(string(out), "PASS\n"), peak)
		})
	}
}

// TestBombsStdio certifies each bomb over hpack-stdio with the hpackcert
// command: exit status 1, never 2 or a crash, the case failed with the
// reason, within the memory bound. The encoder is testdata/bombenc, which
// streams its answers, so that the peak measured (which counts the
// encoder too, as a child of hpackcert) is hpackcert's. The traffic is
// cut to four stories: every block costs its hex twice through JSON, and
// what the certifier keeps of a block does not grow with the bomb
// (TestBombsInProcess runs the whole traffic).
func TestBombsStdio(t *testing.T) {
	skipBombs(t)
	dir := testenv.BuildCommands(t, "certify/testdata/bombenc", "cmd/hpackcert")
	for _, b := range bombs {
		t.Run(b.bug.String(), func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.json")
			cmd, peak := testenv.MeasuredCommand(t, 0, filepath.Join(dir, "hpackcert"), "--exec", filepath.Join(dir, "bombenc")+" -bomb "+b.stdio, "--json", report, "--traffic-stories", "4")
			cmd.Env = append(cmd.Env, testenv.GoMemLimit(memoryBound))
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("hpackcert exit %v; want exit status 1\n%s", err, tail(out))
			}
			data, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			checkBombRun(t, b.id, b.detail, string(data), peak)
		})
	}
}

// skipBombs skips the bomb tests in -short mode (three whole runs in
// child processes) and under -race, whose shadow memory makes the peak
// meaningless; the test command runs them without -race.
func skipBombs(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("three whole certifications in child processes; skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes the peak meaningless; run without -race")
	}
}

// checkBombRun checks a bomb's JSON report and the peak memory of the
// process that wrote it.
func checkBombRun(t *testing.T, id, detail, text string, peakKiB func() (int64, error)) {
	t.Helper()
	if i := strings.IndexByte(text, '{'); i > 0 {
		text = text[i:]
	}
	doc, err := report.ReadJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("report: %v\n%s", err, tail([]byte(text)))
	}
	if len(doc.Encoders) != 1 {
		t.Fatalf("report: %d encoders; want 1\n%s", len(doc.Encoders), tail([]byte(text)))
	}
	if !doc.Failed {
		t.Error("report: failed false; want true")
	}
	for _, enc := range doc.Encoders {
		if id == "" {
			if !strings.Contains(enc.Breakdown, detail) {
				t.Errorf("breakdown %q; want one naming %q", enc.Breakdown, detail)
			}
			continue
		}
		res, ok := enc.Cases[id]
		if !ok || res.Grade != certify.Fail || !strings.Contains(res.Detail, detail) {
			t.Errorf("%s: %s %q; want fail naming %q", id, res.Grade, res.Detail, detail)
		}
	}
	if peak, over := peakOver(t, peakKiB); over {
		t.Errorf("peak resident memory %d MiB; want at most %d MiB", peak>>20, memoryBound>>20)
	}
}

// peakOver returns the peak resident memory of a measured child, in
// octets, and whether it is over memoryBound.
func peakOver(t *testing.T, peakKiB func() (int64, error)) (int64, bool) {
	t.Helper()
	kib, err := peakKiB()
	if err != nil {
		t.Fatal(err)
	}
	peak := kib << 10
	t.Logf("peak resident memory %d MiB", peak>>20)
	return peak, peak > memoryBound
}

// leakEnv is the number of octets a child of TestBoundSeesLeak holds.
const leakEnv = "HPACKCERT_LEAK_CHILD"

// TestLeakChild is the child side of TestBoundSeesLeak: with leakEnv
// set, it allocates that many octets, writes every page and holds them
// to its end.
func TestLeakChild(t *testing.T) {
	size := os.Getenv(leakEnv)
	if size == "" {
		return // run only as a child
	}
	n, err := strconv.Atoi(size)
	if err != nil {
		t.Fatal(err)
	}
	held := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		held[i] = 1
	}
	runtime.KeepAlive(held)
}

// TestBoundSeesLeak: a child that holds 64 MiB more than memoryBound,
// measured as the bomb tests measure the certifier (the same Go memory
// limit), is over the bound: the limit makes the collector work harder
// and hides nothing a program keeps, so the bomb tests can fail.
func TestBoundSeesLeak(t *testing.T) {
	cmd, peakKiB := testenv.MeasuredCommand(t, 0, os.Args[0], "-test.run=^TestLeakChild$", "-test.count=1")
	cmd.Env = append(cmd.Env, leakEnv+"="+strconv.Itoa(memoryBound+64<<20), testenv.GoMemLimit(memoryBound))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, tail(out))
	}
	if peak, over := peakOver(t, peakKiB); !over {
		t.Errorf("a child holding %d MiB peaked at %d MiB; want over the %d MiB bound", (memoryBound+64<<20)>>20, peak>>20, memoryBound>>20)
	}
}

// tail returns the end of a long output for a message.
func tail(out []byte) string {
	const n = 2000
	if len(out) > n {
		return fmt.Sprintf("...%s", out[len(out)-n:])
	}
	return string(out)
}
