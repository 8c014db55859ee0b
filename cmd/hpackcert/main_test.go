package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
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

func TestList(t *testing.T) {
	status, out, _ := runCLI(t, "list")
	if status != 0 {
		t.Fatalf("list: exit %d", status)
	}
	for _, c := range certify.Cases() {
		if !strings.Contains(out, c.ID+" ") {
			t.Errorf("list lacks %s", c.ID)
		}
	}
	status, out, _ = runCLI(t, "list", "--cases", "enc/4.2")
	if lines := strings.Count(out, "\n"); status != 0 || lines != 5 {
		t.Errorf("list --cases enc/4.2: exit %d, %d lines; want 0, a header and 4 cases:\n%s", status, lines, out)
	}
	// The comma lists run accepts.
	status, out, _ = runCLI(t, "list", "--cases", "enc/4.1, enc/5.1")
	if lines := strings.Count(out, "\n"); status != 0 || lines != 3 {
		t.Errorf("list --cases 'enc/4.1, enc/5.1': exit %d, %d lines; want 0, a header and 2 cases:\n%s", status, lines, out)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/list.golden")

// TestListGolden keeps the case list, with the RFC text of each case, in
// testdata/list.golden: a change to a case shows up in review.
func TestListGolden(t *testing.T) {
	status, out, _ := runCLI(t, "list", "-v")
	if status != 0 {
		t.Fatalf("list -v: exit %d", status)
	}
	golden := filepath.Join("testdata", "list.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("list -v differs from %s (run go test -update if the change is meant):\n%s", golden, out)
	}
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

func TestReports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	args := append([]string{"--encoder", "builtin:ref", "--encoder", "builtin:xnet", "--strict", "--cases", "enc/4.1,enc/4.4,enc/7.1.3/1"}, quick...)
	for _, kind := range []string{"json", "junit", "html", "md"} {
		files[kind] = filepath.Join(dir, "report."+kind)
		args = append(args, "--"+kind, files[kind])
	}
	status, out, stderr := runCLI(t, args...)
	if status != 0 {
		t.Fatalf("exit %d; stderr %s\n%s", status, stderr, out)
	}
	read := func(kind string) []byte {
		data, err := os.ReadFile(files[kind])
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var doc struct {
		Encoders map[string]struct {
			Cases map[string]map[string]any `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal(read("json"), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Encoders["x/net"].Cases["enc/4.4/1"]["grade"]; got != "pass" {
		t.Errorf(`JSON .encoders["x/net"].cases["enc/4.4/1"].grade = %v; want "pass"`, got)
	}
	var junit struct {
		Tests int `xml:"tests,attr"`
	}
	if n := len(doc.Encoders["ref"].Cases); n == 0 || xml.Unmarshal(read("junit"), &junit) != nil || junit.Tests != 2*n {
		t.Errorf("JUnit: %d tests; want %d", junit.Tests, 2*n)
	}
	if html := read("html"); !bytes.Contains(html, []byte("<table>")) {
		t.Error("HTML report has no table")
	}
	if md := read("md"); !bytes.Contains(md, []byte("| `enc/4.4/1` |")) {
		t.Error("Markdown report has no row for enc/4.4/1")
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

// TestRepro writes the reproductions of a broken encoder's failures with
// --repro and replays one with hpackcert repro: the same case fails
// against the same encoder, passes against a fixed one, and a recorded
// failure replays from its file alone.
func TestRepro(t *testing.T) {
	dir := stdioEncoders(t)
	broken := filepath.Join(dir, "stdioenc") + " -bug huffman-zero-padding"
	repro := t.TempDir()
	status, out, stderr := runCLI(t, append([]string{"--exec", broken, "--cases", "enc/5.2/1", "--repro", repro}, quick...)...)
	if status != 1 {
		t.Fatalf("broken encoder: exit %d; want 1\n%s%s", status, out, stderr)
	}
	story := filepath.Join(repro, "stdioenc_huffman-zero-padding--enc_5.2_1.json")
	if !strings.Contains(out, "hpackcert repro --story "+story+" --cases enc/5.2/1 --exec ") {
		t.Errorf("the report does not say how to replay %s:\n%s", story, out)
	}
	status, out, stderr = runCLI(t, "repro", "--story", story, "--cases", "enc/5.2/1", "--exec", broken)
	if status != 1 || !strings.Contains(out, "not a prefix of EOS") {
		t.Errorf("repro against the broken encoder: exit %d; want 1 naming the padding\n%s%s", status, out, stderr)
	}
	status, out, stderr = runCLI(t, "repro", "--story", story, "--cases", "enc/5.2/1", "--exec", filepath.Join(dir, "stdioenc"))
	if status != 0 {
		t.Errorf("repro against the fixed encoder: exit %d; want 0\n%s%s", status, out, stderr)
	}
	if status, _, stderr = runCLI(t, "repro", "--cases", "enc/5.2/1"); status != 2 || !strings.Contains(stderr, "needs --story") {
		t.Errorf("repro without --story: exit %d, %q; want 2 asking for --story", status, stderr)
	}

	// Recorded wire: the reproduction carries it, and replays alone.
	recorded := t.TempDir()
	s := &vectors.Story{Cases: []vectors.Case{{Wire: []byte{0x82}, Headers: []vectors.Field{{Name: ":method", Value: "POST"}}}}}
	if err := vectors.WriteStory(filepath.Join(recorded, "story_0.json"), s); err != nil {
		t.Fatal(err)
	}
	repro = t.TempDir()
	if status, out, _ = runCLI(t, "run", "--stories", recorded, "--cases", "enc/3.2/1", "--repro", repro); status != 1 {
		t.Fatalf("recorded wire decoding to other fields: exit %d; want 1\n%s", status, out)
	}
	files, _ := filepath.Glob(filepath.Join(repro, "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d reproductions of a recorded failure; want 1", len(files))
	}
	if status, out, _ = runCLI(t, "repro", "--story", files[0], "--cases", "enc/3.2/1"); status != 1 || !strings.Contains(out, `"POST"`) {
		t.Errorf("repro of recorded wire: exit %d; want 1 naming the field\n%s", status, out)
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

// reportGrades returns the grades of a JSON report, by encoder and case.
func reportGrades(t *testing.T, data []byte) map[string]map[string]string {
	t.Helper()
	var rep struct {
		Encoders map[string]struct {
			Cases map[string]struct {
				Grade string `json:"grade"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("the JSON report: %v", err)
	}
	out := map[string]map[string]string{}
	for enc, e := range rep.Encoders {
		out[enc] = map[string]string{}
		for id, c := range e.Cases {
			out[enc][id] = c.Grade
		}
	}
	return out
}

// TestNothingJudgedFails points run at story files without "wire": no case
// has anything to judge, and the run fails saying so, unless the expect
// file declares the recording as judging nothing.
func TestNothingJudgedFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lists")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	story := `{"cases":[{"seqno":0,"headers":[{":method":"GET"},{":path":"/"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonPath, junitPath := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "r.xml")
	status, out, stderr := runCLI(t, "run", "--stories", dir, "--json", jsonPath, "--junit", junitPath)
	verdict, _, _ := strings.Cut(out, "\n")
	if status != 1 || !strings.HasPrefix(verdict, "verdict: FAIL: nothing judged for ") || !strings.Contains(verdict, `without any "wire"`) {
		t.Errorf("run --stories (no wire): exit %d, verdict %q; want 1 and nothing judged, with the reason\n%s", status, verdict, stderr)
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"nothing_judged": "enc/`) || !strings.Contains(string(raw), `"failed": true`) {
		t.Errorf("the JSON report does not say nothing was judged:\n%s", raw)
	}
	if raw, err = os.ReadFile(junitPath); err != nil {
		t.Fatal(err)
	}
	if _, after, ok := strings.Cut(string(raw), `<testcase name="nothing judged" classname="hpackcert.recorded:lists"`); !ok || !strings.Contains(after, `<failure message="nothing judged: enc/`) {
		t.Errorf("the JUnit report has no failed testcase \"nothing judged\":\n%s", raw)
	}
	expect := filepath.Join(t.TempDir(), "expect.txt")
	if err := os.WriteFile(expect, []byte("recorded:lists nothing-judged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, stderr = runCLI(t, "run", "--stories", dir, "--expect-fail", expect)
	verdict, _, _ = strings.Cut(out, "\n")
	if status != 0 || !strings.Contains(verdict, "1 target expected to judge nothing") || strings.Contains(out, "did not fail") {
		t.Errorf("run --stories with \"recorded:lists nothing-judged\" expected: exit %d, verdict %q; want 0, the declaration counted and not stale\n%s", status, verdict, stderr)
	}
}

// TestTextEntryLayout reads x/net's non-strict results in the text
// report: each line of an entry is written once (the detail is not
// repeated by its reproduction), and every block's wire and the oracles'
// verdicts on it are indented under the block, the failing one's too.
func TestTextEntryLayout(t *testing.T) {
	status, out, stderr := runCLI(t, append([]string{"run", "--encoder", "builtin:xnet"}, quick...)...)
	if status != 0 {
		t.Fatalf("exit %d; want 0 (x/net breaks SHOULD rules only)\n%s", status, stderr)
	}
	_, section, ok := strings.Cut(out, "\nnon-strict:\n")
	section, _, _ = strings.Cut(section, "\n\n")
	if !ok || !strings.Contains(section, "enc/7.1.3/2") {
		t.Fatalf("no non-strict section with enc/7.1.3/2:\n%s", out)
	}
	for _, entry := range strings.Split(section, "\n  x/net ")[1:] {
		var seen []string
		for _, line := range strings.Split(entry, "\n") {
			text := strings.TrimLeft(line, " ")
			// A detail may add to its reproduction's first line ("; 4
			// blocks not judged ..."): that line is written once.
			for _, earlier := range seen {
				if len(text) > 40 && strings.HasPrefix(earlier, text) {
					t.Errorf("line written twice: %q in\n%s", line, entry)
				}
			}
			seen = append(seen, text)
			if strings.HasPrefix(text, "wire") || strings.HasPrefix(text, "oracle ") {
				if indent := len(line) - len(text); indent != 8 {
					t.Errorf("%q indented %d; want 8, under its block", line, indent)
				}
			}
		}
	}
}
