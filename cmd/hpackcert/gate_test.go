package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// The tests of the CI gate: ci/gate.sh, which users copy into their CI,
// and the GitHub Action (action.yml and ci/action.sh), each run as a
// user's CI would run it. Stand-ins for go, hpackcert, pkg-config,
// apt-get and sudo, put first on PATH, record what the scripts run.

// reportFiles are the files the gate writes into its report directory.
var reportFiles = []string{"report.json", "junit.xml", "report.html", "summary.md"}

// actionOutputs are the outputs action.yml declares and ci/action.sh writes.
var actionOutputs = []string{"html", "json", "junit", "markdown", "status"}

func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		testenv.Missing(t, "bash, to run the ci/ scripts")
	}
	return bash
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root := testenv.ModuleRoot()
	if root == "" {
		t.Fatal("no module root (go.mod) above the working directory")
	}
	return root
}

// goDir returns the directory of the go command the test runs with.
func goDir(t *testing.T) string {
	t.Helper()
	return filepath.Dir(testenv.GoTool(t, "for ci/gate.sh to build hpackcert with"))
}

// fakeTools writes a directory of sh scripts standing in for the named
// commands. Each appends "NAME ARGS" to log, then runs its body ("exit 1"
// when empty).
func fakeTools(t *testing.T, log string, tools map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range tools {
		if body == "" {
			body = "exit 1"
		}
		script := fmt.Sprintf("#!/bin/sh\necho %s \"$*\" >>%s\n%s\n", name, shell.Quote(log), body)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readLog returns the lines the stand-ins logged.
func readLog(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// scriptEnv returns the test's environment without what the gate and the
// action read, then extra (a later PATH replaces the test's).
func scriptEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "HPACKCERT_"), strings.HasPrefix(name, "GITHUB_"),
			strings.HasPrefix(name, "INPUT_"), strings.HasPrefix(name, "RUNNER_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// runScript runs a bash script in dir and returns its exit status and
// output.
func runScript(t *testing.T, dir string, env []string, script string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(needBash(t), append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("running %s: %v", script, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// TestGateArgumentErrors checks that hpackcert gate refuses a bad command
// line with exit 2 and one clear line, before it creates its report
// folder or starts anything: the encoder named, ./enc, does not exist,
// and starting it would be another error than the one wanted.
func TestGateArgumentErrors(t *testing.T) {
	tests := []struct {
		label string
		args  []string
		want  string
	}{
		{"no flags", nil, "name the encoder to certify"},
		{"no encoder", []string{"--cases", "enc/5.2/1"}, "name the encoder to certify"},
		{"value missing", []string{"--exec"}, "flag needs an argument: -exec"},
		{"last value missing", []string{"--exec", "./enc", "--timeout"}, "flag needs an argument: -timeout"},
		{"unknown flag", []string{"--exec", "./enc", "--nope", "1"}, "flag provided but not defined: -nope"},
		{"positional argument", []string{"--exec", "./enc", "extra"}, `unexpected argument "extra"`},
		{"report flag", []string{"--exec", "./enc", "--junit", "j.xml"}, "--junit: the gate writes every report into its --out folder"},
		{"report flag inline", []string{"--exec", "./enc", "-md=s.md"}, "--md: the gate writes every report into its --out folder"},
		{"repro flag", []string{"--exec", "./enc", "--repro", "r"}, "--repro: the gate writes every report"},
		{"unknown case", []string{"--exec", "./enc", "--cases", "enc/nope"}, "no case id starts with"},
		{"missing expect file", []string{"--exec", "./enc", "--expect-fail", "/nonexistent/expected.txt"}, "--expect-fail: open /nonexistent/expected.txt"},
		{"bad timeout", []string{"--exec", "./enc", "--timeout", "0s"}, "--timeout 0s: must be positive"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "report")
		status, stdout, stderr := runCLI(t, append([]string{"gate", "--out", out}, tt.args...)...)
		if status != 2 {
			t.Errorf("%s: gate %q: exit %d; want 2\n%s%s", tt.label, tt.args, status, stdout, stderr)
		}
		if !strings.HasPrefix(stderr, "hpackcert: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: gate %q: stderr %q; want one line containing %q", tt.label, tt.args, stderr, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: gate %q created the report folder before refusing its arguments", tt.label, tt.args)
		}
	}
}

// TestGateFlags keeps the gate's flags in step with run's: the gate takes
// every flag of run but the report files, which it refuses naming --out,
// and --out of its own.
func TestGateFlags(t *testing.T) {
	runFlags, gateFlags := runCommand.flagNames(), gateCommand.flagNames()
	if len(runFlags) < 18 {
		t.Fatalf("run has the flags %q; want its 18 or more", runFlags)
	}
	var want []string
	for _, name := range runFlags {
		if !slices.Contains(reportFlagNames, name) {
			want = append(want, name)
		}
	}
	want = append(want, "out")
	slices.Sort(want)
	if !slices.Equal(gateFlags, want) {
		t.Errorf("gate has the flags %q; want run's but the reports, and out: %q", gateFlags, want)
	}
	for _, name := range reportFlagNames {
		if !slices.Contains(runFlags, name) {
			t.Errorf("run lacks the report flag --%s the gate refuses", name)
		}
		if _, ok := gateCommand.Refused[name]; !ok {
			t.Errorf("the gate does not explain why it refuses --%s", name)
		}
	}
}

// TestGateBuildsFromCheckout runs ci/gate.sh from this checkout with no
// HPACKCERT_BIN: it builds hpackcert from the checkout into the report
// folder's bin/, not the hpackcert on PATH, writes the reports, appends the
// Markdown to the job summary, and passes hpackcert's exit status through.
func TestGateBuildsFromCheckout(t *testing.T) {
	root := moduleRoot(t)
	gate := filepath.Join(root, "ci", "gate.sh")
	log := filepath.Join(t.TempDir(), "tools.log")
	fakes := fakeTools(t, log, map[string]string{"hpackcert": "exit 3"})
	path := strings.Join([]string{fakes, goDir(t), os.Getenv("PATH")}, string(os.PathListSeparator))
	out := filepath.Join(t.TempDir(), "report")
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	const earlier = "## an earlier step\n"
	if err := os.WriteFile(summary, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	env := scriptEnv("PATH="+path, "HPACKCERT_OUT="+out, "HPACKCERT_NGHTTP2=false", "GITHUB_STEP_SUMMARY="+summary)

	status, stdout, stderr := runScript(t, t.TempDir(), env, gate, append([]string{"--encoder", "builtin:ref", "--cases", "enc/5.2/1"}, quick...)...)
	if status != 0 {
		t.Fatalf("gate.sh: exit %d; want 0\n%s%s", status, stdout, stderr)
	}
	if want := "building hpackcert from " + root + " (tags: none) into " + filepath.Join(out, "bin"); !strings.Contains(stderr, want) {
		t.Errorf("gate.sh stderr lacks %q:\n%s", want, stderr)
	}
	if ran := readLog(t, log); len(ran) > 0 {
		t.Errorf("gate.sh ran the hpackcert on PATH (%q) instead of building the checkout's", ran)
	}
	for _, name := range append(reportFiles, "bin/hpackcert", "repro") {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(stdout, "reproductions: none to write to "+filepath.Join(out, "repro")) {
		t.Errorf("gate.sh output does not name the repro folder:\n%s", stdout)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(summary); err != nil || string(got) != earlier+string(md) {
		t.Errorf("job summary is %q (%v); want the earlier step's text, then summary.md", got, err)
	}

	status, _, stderr = runScript(t, t.TempDir(), env, gate, "--encoder", "builtin:ref", "--cases", "enc/nope")
	if status != 2 || !strings.Contains(stderr, "no case id starts with") {
		t.Errorf("gate.sh --cases enc/nope: exit %d; want hpackcert's 2 and its reason:\n%s", status, stderr)
	}
}

// copyGate copies ci/gate.sh alone into a new directory, as a user's
// repository holds it, and returns the directory and the copy's path.
func copyGate(t *testing.T) (repo, gate string) {
	t.Helper()
	repo = t.TempDir()
	script, err := os.ReadFile(filepath.Join(moduleRoot(t), "ci", "gate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	gate = filepath.Join(repo, "ci", "gate.sh")
	if err := os.MkdirAll(filepath.Dir(gate), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gate, script, 0o755); err != nil {
		t.Fatal(err)
	}
	return repo, gate
}

// TestGateOutsideCheckout runs a copy of ci/gate.sh alone, as a user's
// CI holds it: with none of HPACKCERT_BIN, HPACKCERT_SRC and
// HPACKCERT_VERSION it says which to set; it runs HPACKCERT_BIN; it
// installs HPACKCERT_VERSION with go install into the report folder's bin/,
// with -tags nghttp2 when libnghttp2 is found, and with
// HPACKCERT_NGHTTP2=true installs libnghttp2 first when it is missing.
func TestGateOutsideCheckout(t *testing.T) {
	repo, gate := copyGate(t)
	// PATH holds the stand-ins and the basic tools the scripts use, linked
	// into a directory of their own: no go, no hpackcert.
	system := t.TempDir()
	for _, tool := range []string{"awk", "cat", "cp", "dirname", "env", "grep", "head", "id", "mkdir", "mktemp", "rm", "sed", "sh", "true", "wc"} {
		target, err := exec.LookPath(tool)
		if err != nil {
			testenv.Missing(t, tool+", which ci/gate.sh uses")
		}
		if err := os.Symlink(target, filepath.Join(system, tool)); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(repo, "hpackcert-report")

	t.Run("refusals", func(t *testing.T) {
		tests := []struct {
			label string
			env   []string
			want  string
		}{
			{"no source", nil, "set HPACKCERT_SRC=/path/to/hpackcert (a checkout to build it from), HPACKCERT_VERSION=vX.Y.Z (a published version to go install) or HPACKCERT_BIN="},
			{"source not a checkout", []string{"HPACKCERT_SRC=" + repo}, "HPACKCERT_SRC=" + repo + " is not a checkout of github.com/hpackcert/hpackcert"},
			{"no such binary", []string{"HPACKCERT_BIN=/nonexistent/hpackcert"}, "HPACKCERT_BIN=/nonexistent/hpackcert: no such program"},
			{"bad HPACKCERT_NGHTTP2", []string{"HPACKCERT_VERSION=v1.2.3", "HPACKCERT_NGHTTP2=yes"}, `HPACKCERT_NGHTTP2 is "yes"`},
		}
		for _, tt := range tests {
			log := filepath.Join(t.TempDir(), "tools.log")
			fakes := fakeTools(t, log, map[string]string{"go": "", "hpackcert": "", "pkg-config": "", "apt-get": "", "sudo": ""})
			env := scriptEnv(append([]string{"PATH=" + fakes + string(os.PathListSeparator) + system}, tt.env...)...)
			status, stdout, stderr := runScript(t, repo, env, gate, "--exec", "./enc")
			if status != 2 || !strings.HasPrefix(stderr, "gate.sh: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("%s: exit %d, stderr %q; want 2 and one line containing %q\n%s", tt.label, status, stderr, tt.want, stdout)
			}
			if ran := readLog(t, log); len(ran) > 0 {
				t.Errorf("%s: gate.sh ran %q before refusing", tt.label, ran)
			}
			if _, err := os.Stat(report); err == nil {
				t.Errorf("%s: gate.sh created %s before refusing", tt.label, report)
				os.RemoveAll(report)
			}
		}
	})

	t.Run("HPACKCERT_BIN", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "tools.log")
		fakes := fakeTools(t, log, map[string]string{"hpackcert": "exit 0", "go": ""})
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system, "HPACKCERT_BIN="+filepath.Join(fakes, "hpackcert"))
		status, stdout, stderr := runScript(t, repo, env, gate, "--exec", "./enc")
		want := "hpackcert gate --out hpackcert-report --exec ./enc"
		if ran := readLog(t, log); status != 0 || len(ran) != 1 || ran[0] != want {
			t.Errorf("exit %d, ran %q; want 0 and %q\n%s%s", status, ran, want, stdout, stderr)
		}
	})

	t.Run("go install", func(t *testing.T) {
		dir := t.TempDir()
		log := filepath.Join(dir, "tools.log")
		installed := fakeTools(t, log, map[string]string{"hpackcert": "exit 1"})
		goBody := fmt.Sprintf(`case $1 in
install) echo "GOBIN=$GOBIN" >>%s && mkdir -p "$GOBIN" && cp %s "$GOBIN/hpackcert" ;;
*) exit 1 ;;
esac`, shell.Quote(log), shell.Quote(filepath.Join(installed, "hpackcert")))
		fakes := fakeTools(t, log, map[string]string{"go": goBody, "pkg-config": "exit 0", "apt-get": "", "sudo": ""})
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system, "HPACKCERT_VERSION=v1.2.3")
		defer os.RemoveAll(report)
		status, stdout, stderr := runScript(t, repo, env, gate, "--exec", "./enc")
		want := []string{
			"pkg-config --exists libnghttp2",
			"go install -tags=nghttp2 github.com/hpackcert/hpackcert/cmd/hpackcert@v1.2.3",
			"GOBIN=" + filepath.Join(report, "bin"),
			"hpackcert gate --out hpackcert-report --exec ./enc",
		}
		if ran := readLog(t, log); status != 1 || !slices.Equal(ran, want) {
			t.Errorf("exit %d, ran\n\t%s\nwant 1 (the installed hpackcert's) and\n\t%s\n%s%s", status, strings.Join(ran, "\n\t"), strings.Join(want, "\n\t"), stdout, stderr)
		}
	})

	t.Run("HPACKCERT_NGHTTP2=true installs libnghttp2", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "tools.log")
		fakes := fakeTools(t, log, map[string]string{
			"go":         "",
			"pkg-config": "exit 1",
			"apt-get":    "exit 0",
			"sudo":       `[ "$1" = -n ] && shift; exec "$@"`,
		})
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system, "HPACKCERT_NGHTTP2=true", "HPACKCERT_VERSION=v1.2.3")
		status, _, stderr := runScript(t, repo, env, gate, "--exec", "./enc")
		ran := readLog(t, log)
		if status != 2 || !strings.Contains(stderr, "libnghttp2 still not found") {
			t.Errorf("exit %d; want 2, libnghttp2 still missing after the install:\n%s", status, stderr)
		}
		if !slices.Contains(ran, "apt-get install -y -qq libnghttp2-dev pkg-config") {
			t.Errorf("ran %q; want apt-get install of libnghttp2-dev and pkg-config", ran)
		}
		if slices.ContainsFunc(ran, func(s string) bool { return strings.HasPrefix(s, "go ") }) {
			t.Errorf("ran %q: go install after libnghttp2 could not be installed", ran)
		}
	})
}

// TestGateHelp checks that ci/gate.sh --help prints the script's header
// and runs nothing.
func TestGateHelp(t *testing.T) {
	gate := filepath.Join(moduleRoot(t), "ci", "gate.sh")
	log := filepath.Join(t.TempDir(), "tools.log")
	fakes := fakeTools(t, log, map[string]string{"go": "", "hpackcert": ""})
	for _, flag := range []string{"-h", "--help"} {
		status, stdout, stderr := runScript(t, t.TempDir(), scriptEnv("PATH="+fakes+string(os.PathListSeparator)+os.Getenv("PATH")), gate, "--exec", "./enc", flag)
		if status != 0 || !strings.HasPrefix(stdout, "HPACK conformance gate") || !strings.Contains(stdout, "HPACKCERT_NGHTTP2") || stderr != "" {
			t.Errorf("gate.sh %s: exit %d, stdout %q, stderr %q; want 0 and the header of the script", flag, status, stdout, stderr)
		}
	}
	if ran := readLog(t, log); len(ran) > 0 {
		t.Errorf("gate.sh --help ran %q", ran)
	}
}

// TestGateSummaryLimit checks that a Markdown report over GitHub's 1 MiB
// step-summary limit is cut short, at a line end, with a note saying
// where the whole report is, and that a shorter one is appended whole.
func TestGateSummaryLimit(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "summary.md")
	line := strings.Repeat("x", 99)
	if err := os.WriteFile(md, []byte(strings.Repeat(line+"\n", 15000)), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "step_summary.md")
	if err := appendStepSummary(summary, md, stepSummaryLimit); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	note := "*(cut short: the whole report is in " + md + ")*\n"
	body, found := strings.CutSuffix(string(got), "\n\n"+note)
	if len(got) > stepSummaryLimit || !found {
		t.Fatalf("step summary: %d octets ending %q; want at most %d, ending with the note %q", len(got), got[max(0, len(got)-120):], stepSummaryLimit, note)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) < 9000 || len(lines) >= 15000 {
		t.Errorf("step summary holds %d lines of the report's 15000; want most of them, not all", len(lines))
	}
	for i, l := range lines {
		if l != line {
			t.Fatalf("step summary line %d is %q; want whole lines of the report", i+1, l)
		}
	}

	if err := os.WriteFile(md, []byte("short\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendStepSummary(summary, md, stepSummaryLimit); err != nil {
		t.Fatal(err)
	}
	if again, err := os.ReadFile(summary); err != nil || string(again) != string(got)+"short\n" {
		t.Errorf("a short report was not appended whole after the first (%v)", err)
	}
	if err := appendStepSummary(summary, filepath.Join(dir, "never-written.md"), stepSummaryLimit); err != nil {
		t.Errorf("a report never written: %v; want nothing appended, no error", err)
	}
}
