package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/vectors"
)

// quick cuts the traffic stories so that runs stay short under -race.
var quick = []string{"--traffic-stories", "2", "--traffic-blocks", "20"}

func runCLI(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestHarnessErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "flag provided but not defined"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"run", "extra"}, "unexpected argument"},
		{[]string{"--cases", "enc/9"}, "no case id starts with"},
		{[]string{"--stories", filepath.Join(dir, "missing")}, "--stories"},
		{[]string{"--stories", dir}, "no *.json story"},
		{[]string{"--encoder", "builtin:nope"}, "no built-in encoder"},
		{[]string{"--expect-fail", filepath.Join(dir, "missing.txt")}, "--expect-fail: open " + filepath.Join(dir, "missing.txt")},
		{[]string{"repro", "--story", filepath.Join(dir, "missing.json")}, "--story: open " + filepath.Join(dir, "missing.json")},
		{[]string{"encode", "--stories", filepath.Join(dir, "missing"), "--out", dir}, "--stories: stat " + filepath.Join(dir, "missing")},
		{[]string{"decoders", "--decoder", "builtin:nope"}, `--decoder builtin:nope: no built-in decoder "nope"`},
		{[]string{"--timeout", "0s"}, "must be positive"},
		{[]string{"--exec", "/nonexistent/encoder"}, "starting /nonexistent/encoder"},
		{[]string{"--exec", "sh -c 'exit 3'"}, `--exec "sh -c 'exit 3'": sh: encoder broke hpack-stdio at request 1: the encoder exited (exit status 3) without answering hello`},
		{[]string{"--testcases", dir}, "no *.json story"},
		{[]string{"--testcases", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"encode"}, "needs --stories DIR and --out DIR"},
		{[]string{"list", "--cases", "nope"}, "no case id starts with"},
		{[]string{"list", "--cases", "enc/4.1,nope"}, `no case id starts with "nope"`},
		{[]string{"--html", filepath.Join(dir, "missing", "r.html")}, "--html " + filepath.Join(dir, "missing", "r.html") + ": cannot write the report"},
		{[]string{"--max-block", "0"}, "--max-block 0: must be positive"},
		// run and decoders check the flags they share alike.
		{[]string{"--traffic-stories", "-1"}, "--traffic-stories and --traffic-blocks must not be negative"},
		{[]string{"decoders", "--traffic-blocks", "-1"}, "--traffic-stories and --traffic-blocks must not be negative"},
		{[]string{"decoders", "--timeout", "0s"}, "--timeout 0s: must be positive"},
		{[]string{"decoders", "--expect-fail", filepath.Join(dir, "missing.txt")}, "--expect-fail: open " + filepath.Join(dir, "missing.txt")},
		{[]string{"targets", "extra"}, `unexpected argument "extra"`},
	}
	if !slices.Contains(inprocess.BuiltinNames(), "nghttp2") {
		tests = append(tests, struct {
			args []string
			want string
		}{[]string{"--encoder", "builtin:nghttp2"}, "build with -tags nghttp2"})
	}
	for _, tt := range tests {
		status, _, stderr := runCLI(t, tt.args...)
		if status != 2 {
			t.Errorf("%q: exit %d; want 2", tt.args, status)
		}
		if !strings.HasPrefix(stderr, "hpackcert: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: stderr %q; want one line containing %q", tt.args, stderr, tt.want)
		}
		// The message is the tool's: no Go package speaks in it.
		for _, pkg := range []string{"certify: ", "vectors: ", "inprocess: ", "hpackstdio: "} {
			if strings.Contains(stderr, pkg) {
				t.Errorf("%q: stderr %q carries the Go package prefix %q", tt.args, stderr, pkg)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"list", "-h"}} {
		status, out, _ := runCLI(t, args...)
		if status != 0 || !strings.Contains(out, "usage:") {
			t.Errorf("%q: exit %d, output %q; want 0 and the usage", args, status, out)
		}
	}
}

// TestDefaultEncoders runs without --encoder: the built-in encoders form
// the matrix.
func TestDefaultEncoders(t *testing.T) {
	status, out, stderr := runCLI(t, quick...)
	if status != 0 {
		t.Fatalf("exit %d; stderr %s\n%s", status, stderr, out)
	}
	header := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "case ") {
			header = line
			break
		}
	}
	for _, name := range []string{"ref", "x/net"} {
		if !strings.Contains(header, name) {
			t.Errorf("matrix header %q lacks %s", header, name)
		}
	}
}

// stdioEncoders builds the stdio encoders the tests drive, and this
// command, once per test binary.
func stdioEncoders(t *testing.T) string {
	t.Helper()
	return testenv.BuildCommands(t, "certify/testdata/stdioenc", "cmd/hpackcert-stdio-ref", "cmd/hpackcert")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// TestExecExitStatus checks the gate: 0 for a passing stdio encoder, 1 for
// a failing one, 0 again when its failure is listed as expected.
func TestExecExitStatus(t *testing.T) {
	bin := stdioEncoders(t)
	ref := filepath.Join(bin, "hpackcert-stdio-ref")
	bad := filepath.Join(bin, "stdioenc") + " -bug huffman-zero-padding"
	cases := []string{"--cases", "enc/5.2/1,enc/4.2/1,enc/4.2/2,enc/4.2/3"}

	status, out, stderr := runCLI(t, append(append([]string{"--exec", ref, "--strict", "--timeout", "10s"}, cases...), quick...)...)
	if status != 0 {
		t.Errorf("reference over stdio: exit %d; stderr %s\n%s", status, stderr, out)
	}
	status, out, _ = runCLI(t, append(append([]string{"--exec", bad, "--timeout", "10s"}, cases...), quick...)...)
	if status != 1 || !strings.Contains(out, "first failure: stdioenc huffman-zero-padding enc/5.2/1") {
		t.Errorf("zero-padding encoder: exit %d; want 1 and the first failure:\n%s", status, out)
	}
	expect := filepath.Join(t.TempDir(), "expect-fail.txt")
	if err := os.WriteFile(expect, []byte("# known\nenc/5.2/1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, _ = runCLI(t, append(append([]string{"--exec", bad, "--timeout", "10s", "--expect-fail", expect}, cases...), quick...)...)
	if status != 0 || !strings.Contains(out, "fail (expected)") {
		t.Errorf("zero-padding encoder with --expect-fail: exit %d; want 0:\n%s", status, out)
	}
}

// TestExecMisbehaving checks the CLI's verdicts on stdio encoders that
// hang, crash or never answer hello: a grade or a harness error, the
// reason naming the timeout where the encoder hung, and the encoder's
// process group gone (each encoder starts a sleeper holding its pipes).
// A run that never ends is left to go test's -timeout.
func TestExecMisbehaving(t *testing.T) {
	enc := filepath.Join(stdioEncoders(t), "stdioenc")
	tests := []struct {
		flags  string
		status int
		want   string
	}{
		{"-hang-after 1", 1, "no answer to encode within 1s"},
		{"-crash-after 1", 1, "exit status 3"},
		{"-no-hello", 2, "no answer to hello within 1s"},
	}
	for _, tt := range tests {
		pids := filepath.Join(t.TempDir(), "pids")
		command := fmt.Sprintf("'%s' -fork 1 -pids '%s' %s", enc, pids, tt.flags)
		status, out, stderr := runCLI(t, append([]string{"--exec", command, "--timeout", "1s", "--cases", "enc/4.1/1,enc/4.4/1"}, quick...)...)
		if status != tt.status || !strings.Contains(out+stderr, tt.want) {
			t.Errorf("%s: exit %d; want %d and %q in the output:\n%s%s", tt.flags, status, tt.status, tt.want, out, stderr)
		}
		sleepers := testenv.ReadPids(t, pids)
		if len(sleepers) == 0 {
			t.Errorf("%s: the encoder started no sleeper", tt.flags)
		}
		testenv.WaitGone(sleepers...)
	}
}

// TestEncodeThenGradeStories writes the reference encoder's output with
// encode, grades it with run --stories, then grades a corrupted copy.
func TestEncodeThenGradeStories(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	for i, s := range vectors.GenerateStories(3, 3) {
		s.Cases = s.Cases[:20]
		if err := vectors.WriteStory(filepath.Join(in, "story_"+string(rune('0'+i))+".json"), s); err != nil {
			t.Fatal(err)
		}
	}
	status, stdout, stderr := runCLI(t, "encode", "--stories", in, "--out", out)
	if status != 0 || !strings.Contains(stdout, "wrote 3 stories (60 blocks)") {
		t.Fatalf("encode: exit %d, %q, %q", status, stdout, stderr)
	}
	status, stdout, stderr = runCLI(t, "run", "--stories", out, "--strict")
	if status != 0 {
		t.Fatalf("run --stories of the reference's output: exit %d; stderr %s\n%s", status, stderr, stdout)
	}
	if !strings.Contains(stdout, "enc/5.2/3    unsupported") {
		t.Errorf("a case needing a live encoder is not unsupported:\n%s", stdout)
	}

	path := filepath.Join(out, "story_0.json")
	s, err := vectors.ReadStory(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Cases[5].Headers[0].Value += "-changed"
	if err := vectors.WriteStory(path, s); err != nil {
		t.Fatal(err)
	}
	status, stdout, _ = runCLI(t, "run", "--stories", out, "--cases", "enc/3.2/1")
	if status != 1 || !strings.Contains(stdout, "block 5") {
		t.Errorf("corrupted story: exit %d; want 1 naming block 5:\n%s", status, stdout)
	}
}

// TestGateScript runs ci/gate.sh, the script users copy into their CI,
// with the hpackcert built here: it writes the four reports and passes
// hpackcert's exit status through.
func TestGateScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		testenv.Missing(t, "bash, to run ci/gate.sh")
	}
	bin := stdioEncoders(t)
	tests := []struct {
		args   []string
		status int
	}{
		{[]string{"--encoder", "builtin:ref", "--cases", "enc/5.2/1"}, 0},
		{[]string{"--exec", filepath.Join(bin, "stdioenc") + " -bug huffman-zero-padding", "--cases", "enc/5.2/1"}, 1},
		{[]string{"--cases", "enc/nope"}, 2},
	}
	for _, tt := range tests {
		out := t.TempDir()
		cmd := exec.Command(bash, append([]string{"../../ci/gate.sh"}, append(tt.args, quick...)...)...)
		cmd.Env = append(os.Environ(), "HPACKCERT_BIN="+filepath.Join(bin, "hpackcert"), "HPACKCERT_OUT="+out, "GITHUB_STEP_SUMMARY=")
		output, _ := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != tt.status {
			t.Errorf("gate.sh %q: exit %d; want %d\n%s", tt.args, got, tt.status, output)
			continue
		}
		if tt.status == 2 {
			continue
		}
		for _, name := range []string{"report.json", "junit.xml", "report.html", "summary.md"} {
			if _, err := os.Stat(filepath.Join(out, name)); err != nil {
				t.Errorf("gate.sh %q: %v", tt.args, err)
			}
		}
	}
}

// TestRecordedHpackTestCase grades every folder of hpack-test-case with
// --stories, as a user would: each is graded (exit 0 or 1), never a
// harness error. raw-data holds header lists without wire: every case is
// unsupported, with the reason.
func TestRecordedHpackTestCase(t *testing.T) {
	root := testenv.TestCaseDir(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	dirs := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dirs++
		dir := filepath.Join(root, e.Name())
		status, out, stderr := runCLI(t, "run", "--stories", dir)
		if status != 0 && status != 1 {
			t.Errorf("--stories %s: exit %d; want 0 or 1; stderr %s", dir, status, stderr)
			continue
		}
		if e.Name() == "raw-data" && (status != 1 || !strings.HasPrefix(out, "verdict: FAIL: nothing judged for recorded:raw-data (") || !strings.Contains(out, "no encoder's output to grade")) {
			t.Errorf("--stories %s: exit %d; want 1, nothing judged and why:\n%s", dir, status, out)
		}
	}
	if dirs < 4 {
		t.Errorf("%s: %d folders; want raw-data and at least three encoders' recordings", root, dirs)
	}
}

// TestInterruptKillsEncoders interrupts hpackcert while its encoder (which
// started two sleepers holding its pipes) hangs: hpackcert exits with
// status 2 and leaves no process of the encoder's group behind.
func TestInterruptKillsEncoders(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc to look for processes in")
	}
	dir := stdioEncoders(t)
	pids := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(filepath.Join(dir, "hpackcert"), "--exec", fmt.Sprintf("'%s' -fork 2 -pids '%s' -hang-after 0", filepath.Join(dir, "stdioenc"), pids), "--timeout", "60s")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The sleepers are started before hello: once they are, the run is
	// under way. Waiting for them has no deadline; go test's -timeout
	// bounds a hang.
	var sleepers []int
	for len(sleepers) < 2 {
		select {
		case err := <-done:
			t.Fatalf("hpackcert ended (%v) before the encoder started its 2 sleepers", err)
		case <-time.After(20 * time.Millisecond):
		}
		sleepers = testenv.ReadPids(t, pids)
	}
	cmd.Process.Signal(os.Interrupt)
	err := <-done
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("hpackcert after an interrupt: %v; want exit status 2", err)
	}
	testenv.WaitGone(sleepers...)
}
