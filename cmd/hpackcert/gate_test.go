package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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
	goTool, err := exec.LookPath(filepath.Join(runtime.GOROOT(), "bin", "go"))
	if err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			testenv.Missing(t, "the go command, for ci/gate.sh to build hpackcert with")
		}
	}
	return filepath.Dir(goTool)
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

// TestGateArgumentErrors checks that ci/gate.sh refuses a bad command line
// with exit 2 and one clear line, at once: before it builds, installs or
// runs anything.
func TestGateArgumentErrors(t *testing.T) {
	gate := filepath.Join(moduleRoot(t), "ci", "gate.sh")
	log := filepath.Join(t.TempDir(), "tools.log")
	fakes := fakeTools(t, log, map[string]string{"go": "", "hpackcert": "", "pkg-config": "", "apt-get": "", "sudo": ""})
	tests := []struct {
		label string
		args  []string
		env   string
		want  string
	}{
		{"no flags", nil, "", "name the encoder to certify"},
		{"no encoder", []string{"--cases", "enc/5.2/1"}, "", "name the encoder to certify"},
		{"value missing", []string{"--exec"}, "", "flag --exec needs a value"},
		{"last value missing", []string{"--exec", "./enc", "--timeout"}, "", "flag --timeout needs a value"},
		{"unknown flag", []string{"--exec", "./enc", "--nope", "1"}, "", "unknown flag --nope"},
		{"unknown single-dash flag", []string{"-execs=./enc"}, "", "unknown flag -execs=./enc"},
		{"positional argument", []string{"--exec", "./enc", "extra"}, "", `unexpected argument "extra"`},
		{"subcommand", []string{"run", "--exec", "./enc"}, "", `unexpected argument "run"`},
		{"report flag", []string{"--exec", "./enc", "--junit", "j.xml"}, "", "set HPACKCERT_OUT instead"},
		{"report flag inline", []string{"--exec", "./enc", "-md=s.md"}, "", "set HPACKCERT_OUT instead"},
		{"bad HPACKCERT_NGHTTP2", []string{"--exec", "./enc"}, "HPACKCERT_NGHTTP2=yes", `HPACKCERT_NGHTTP2 is "yes"`},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "report")
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+os.Getenv("PATH"), "HPACKCERT_OUT="+out)
		if tt.env != "" {
			env = append(env, tt.env)
		}
		start := time.Now()
		status, stdout, stderr := runScript(t, t.TempDir(), env, gate, tt.args...)
		elapsed := time.Since(start)
		if status != 2 {
			t.Errorf("%s: gate.sh %q: exit %d; want 2\n%s%s", tt.label, tt.args, status, stdout, stderr)
		}
		if !strings.HasPrefix(stderr, "gate.sh: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: gate.sh %q: stderr %q; want one line containing %q", tt.label, tt.args, stderr, tt.want)
		}
		if ran := readLog(t, log); len(ran) > 0 {
			t.Errorf("%s: gate.sh %q ran %q before refusing its arguments", tt.label, tt.args, ran)
			os.Remove(log)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: gate.sh %q created the report directory before refusing its arguments", tt.label, tt.args)
		}
		if elapsed > 5*time.Second {
			t.Errorf("%s: gate.sh %q took %v to refuse its arguments", tt.label, tt.args, elapsed)
		}
	}
}

// TestGateKnowsTheRunFlags keeps gate.sh's lists of hpackcert run flags
// in step with hpackcert's usage text: each flag there is passed through
// unchanged, or refused as a report flag, never called unknown.
func TestGateKnowsTheRunFlags(t *testing.T) {
	root := moduleRoot(t)
	gate := filepath.Join(root, "ci", "gate.sh")
	_, runSection, ok := strings.Cut(usage, "\nencoders")
	if !ok {
		t.Fatal(`usage has no "encoders" section`)
	}
	runSection, _, _ = strings.Cut(runSection, "\nexit status")
	var usageFlags []string
	for _, m := range regexp.MustCompile(`--([a-z][a-z-]*)`).FindAllStringSubmatch(runSection, -1) {
		if !slices.Contains(usageFlags, m[1]) {
			usageFlags = append(usageFlags, m[1])
		}
	}
	if len(usageFlags) < 15 {
		t.Fatalf("found %d flags in the usage text (%q); want the run flags", len(usageFlags), usageFlags)
	}

	script, err := os.ReadFile(gate)
	if err != nil {
		t.Fatal(err)
	}
	var gateFlags []string
	reports := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^(value|bool|report)_flags=" (.*) "$`).FindAllStringSubmatch(string(script), -1) {
		for _, name := range strings.Fields(m[2]) {
			gateFlags = append(gateFlags, name)
			reports[name] = m[1] == "report"
		}
	}
	slices.Sort(usageFlags)
	slices.Sort(gateFlags)
	if !slices.Equal(usageFlags, gateFlags) {
		t.Errorf("ci/gate.sh knows the flags %q; hpackcert's usage lists %q", gateFlags, usageFlags)
	}

	log := filepath.Join(t.TempDir(), "hpackcert.log")
	fake := filepath.Join(fakeTools(t, log, map[string]string{"hpackcert": "exit 0"}), "hpackcert")
	out := t.TempDir()
	for _, name := range usageFlags {
		os.Remove(log)
		flag := "--" + name + "=1"
		status, stdout, stderr := runScript(t, t.TempDir(), scriptEnv("HPACKCERT_BIN="+fake, "HPACKCERT_OUT="+out), gate, "--encoder", "builtin:ref", flag)
		if reports[name] {
			if status != 2 || !strings.Contains(stderr, "HPACKCERT_OUT") {
				t.Errorf("gate.sh %s: exit %d, stderr %q; want 2, refused as a report flag", flag, status, stderr)
			}
			continue
		}
		want := fmt.Sprintf("hpackcert run --encoder builtin:ref %s --repro %s/repro --json %s/report.json --junit %s/junit.xml --html %s/report.html --md %s/summary.md", flag, out, out, out, out, out)
		if ran := readLog(t, log); status != 0 || len(ran) != 1 || ran[0] != want {
			t.Errorf("gate.sh %s: exit %d, ran %q; want 0 and %q\n%s%s", flag, status, ran, want, stdout, stderr)
		}
	}
}

// TestGateBuildsFromCheckout runs ci/gate.sh from this checkout with no
// HPACKCERT_BIN: it builds hpackcert from the checkout, not the hpackcert
// on PATH, writes the reports, appends the Markdown to the job summary,
// and passes hpackcert's exit status through.
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
	if want := "building hpackcert from " + root + " (tags: none)"; !strings.Contains(stderr, want) {
		t.Errorf("gate.sh stderr lacks %q:\n%s", want, stderr)
	}
	if ran := readLog(t, log); len(ran) > 0 {
		t.Errorf("gate.sh ran the hpackcert on PATH (%q) instead of building the checkout's", ran)
	}
	for _, name := range reportFiles {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(summary); err != nil || string(got) != earlier+string(md) {
		t.Errorf("job summary is %q (%v); want the earlier step's text, then summary.md", got, err)
	}

	status, _, stderr = runScript(t, t.TempDir(), env, gate, "--encoder", "builtin:ref", "--cases", "enc/nope")
	if status != 2 || !strings.Contains(stderr, "no case id starts with") || !strings.Contains(stderr, "hpackcert could not run (exit 2)") {
		t.Errorf("gate.sh --cases enc/nope: exit %d; want hpackcert's 2 and its reason:\n%s", status, stderr)
	}
}

// TestGateOutsideCheckout runs a copy of ci/gate.sh alone, as a user's
// CI holds it: it runs the hpackcert on PATH, else installs one with go
// install, with -tags nghttp2 when libnghttp2 is found, and with
// HPACKCERT_NGHTTP2=true installs libnghttp2 first when it is missing.
func TestGateOutsideCheckout(t *testing.T) {
	repo := t.TempDir()
	script, err := os.ReadFile(filepath.Join(moduleRoot(t), "ci", "gate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(repo, "ci", "gate.sh")
	if err := os.MkdirAll(filepath.Dir(gate), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gate, script, 0o755); err != nil {
		t.Fatal(err)
	}
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

	t.Run("hpackcert on PATH", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "tools.log")
		fakes := fakeTools(t, log, map[string]string{"hpackcert": "exit 0", "go": ""})
		status, stdout, stderr := runScript(t, repo, scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system), gate, "--exec", "./enc")
		want := "hpackcert run --exec ./enc --repro hpackcert-report/repro --json hpackcert-report/report.json --junit hpackcert-report/junit.xml --html hpackcert-report/report.html --md hpackcert-report/summary.md"
		if ran := readLog(t, log); status != 0 || len(ran) != 1 || ran[0] != want {
			t.Errorf("exit %d, ran %q; want 0 and %q\n%s%s", status, ran, want, stdout, stderr)
		}
	})

	t.Run("go install", func(t *testing.T) {
		dir := t.TempDir()
		log := filepath.Join(dir, "tools.log")
		gopath := filepath.Join(dir, "gopath")
		installed := fakeTools(t, log, map[string]string{"hpackcert": "exit 1"})
		goBody := fmt.Sprintf(`case $1 in
env) echo %s ;;
install) mkdir -p %s && cp %s %s ;;
*) exit 1 ;;
esac`, shell.Quote(gopath), shell.Quote(filepath.Join(gopath, "bin")), shell.Quote(filepath.Join(installed, "hpackcert")), shell.Quote(filepath.Join(gopath, "bin", "hpackcert")))
		fakes := fakeTools(t, log, map[string]string{"go": goBody, "pkg-config": "exit 0", "apt-get": "", "sudo": ""})
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system, "HPACKCERT_VERSION=v1.2.3")
		status, stdout, stderr := runScript(t, repo, env, gate, "--exec", "./enc")
		want := []string{
			"pkg-config --exists libnghttp2",
			"go install -tags=nghttp2 github.com/hpackcert/hpackcert/cmd/hpackcert@v1.2.3",
			"go env GOPATH",
			"hpackcert run --exec ./enc --repro hpackcert-report/repro --json hpackcert-report/report.json --junit hpackcert-report/junit.xml --html hpackcert-report/report.html --md hpackcert-report/summary.md",
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
		env := scriptEnv("PATH="+fakes+string(os.PathListSeparator)+system, "HPACKCERT_NGHTTP2=true")
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

// TestAction runs ci/action.sh as action.yml does on a GitHub runner,
// with the inputs as environment variables and GitHub's variables set: it
// builds hpackcert from the action's checkout, exits 0 for the reference
// encoder over stdio and 1 for one with a Huffman padding bug, writes the
// four reports, appends the Markdown report to the step summary and the
// outputs to GITHUB_OUTPUT, and leaves an installed libnghttp2 alone.
func TestAction(t *testing.T) {
	root := moduleRoot(t)
	bin := testenv.BuildCommands(t, "certify/testdata/stdioenc", "cmd/hpackcert-stdio-ref")
	nghttp2 := "false"
	if exec.Command("pkg-config", "--exists", "libnghttp2").Run() == nil {
		nghttp2 = "true" // installed: the action must not run apt-get
	} else {
		t.Log("libnghttp2 not found: running the action with nghttp2 false")
	}
	tests := []struct {
		label  string
		inputs []string
		status int
		cases  []string // every case id in the JSON report; nil: all
	}{
		{
			label: "reference encoder",
			inputs: []string{
				"INPUT_EXEC=" + filepath.Join(bin, "hpackcert-stdio-ref"),
				"INPUT_STRICT=true",
				"INPUT_NGHTTP2=" + nghttp2,
			},
			status: 0,
		},
		{
			label: "zero Huffman padding",
			inputs: []string{
				"INPUT_EXEC=\n" + filepath.Join(bin, "stdioenc") + " -bug huffman-zero-padding\n",
				"INPUT_CASES= enc/5.2/1 \nenc/4.2/1,enc/4.2/2\n\n",
				"INPUT_STRICT=false",
				"INPUT_NGHTTP2=false",
			},
			status: 1,
			cases:  []string{"enc/4.2/1", "enc/4.2/2", "enc/5.2/1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			workspace, runnerTemp := t.TempDir(), t.TempDir()
			summary := filepath.Join(runnerTemp, "step_summary_1")
			output := filepath.Join(runnerTemp, "set_output_1")
			const earlierSummary, earlierOutput = "## an earlier step\n", "earlier=kept\n"
			if err := os.WriteFile(summary, []byte(earlierSummary), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(output, []byte(earlierOutput), 0o644); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(t.TempDir(), "tools.log")
			fakes := fakeTools(t, log, map[string]string{"apt-get": "", "sudo": ""})
			env := scriptEnv(append([]string{
				"PATH=" + strings.Join([]string{fakes, goDir(t), os.Getenv("PATH")}, string(os.PathListSeparator)),
				"GITHUB_ACTIONS=true",
				"GITHUB_ACTION_PATH=" + root,
				"GITHUB_WORKSPACE=" + workspace,
				"GITHUB_STEP_SUMMARY=" + summary,
				"GITHUB_OUTPUT=" + output,
				"RUNNER_TEMP=" + runnerTemp,
				"INPUT_STORIES=",
				"INPUT_EXPECT_FAIL=",
				`INPUT_ARGS=--traffic-stories 2 --traffic-blocks '30' --timeout "10s"`,
				"INPUT_OUT=hpackcert-report",
			}, tt.inputs...)...)

			status, stdout, stderr := runScript(t, workspace, env, filepath.Join(root, "ci", "action.sh"))
			if ran := readLog(t, log); len(ran) > 0 {
				t.Errorf("the action ran %q", ran)
			}
			if status != tt.status {
				t.Fatalf("exit %d; want %d\n%s%s", status, tt.status, stdout, stderr)
			}
			if want := "building hpackcert from " + root; !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}

			outputs := readOutputs(t, output)
			reports := filepath.Join(workspace, "hpackcert-report")
			want := map[string]string{
				"earlier":  "kept",
				"json":     filepath.Join(reports, "report.json"),
				"junit":    filepath.Join(reports, "junit.xml"),
				"html":     filepath.Join(reports, "report.html"),
				"markdown": filepath.Join(reports, "summary.md"),
				"status":   fmt.Sprint(tt.status),
			}
			if !maps.Equal(outputs, want) {
				t.Errorf("GITHUB_OUTPUT holds %v; want %v", outputs, want)
			}
			for _, name := range reportFiles {
				if _, err := os.Stat(filepath.Join(reports, name)); err != nil {
					t.Error(err)
				}
			}

			md, err := os.ReadFile(outputs["markdown"])
			if err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(summary); err != nil || string(got) != earlierSummary+string(md) {
				t.Errorf("step summary is %q (%v); want the earlier step's text, then the Markdown report", got, err)
			}
			checkActionReports(t, outputs, tt.status, tt.cases)
		})
	}
}

// checkActionReports checks the JSON and JUnit reports of a TestAction
// run: the grade of enc/5.2/1, and the case selection.
func checkActionReports(t *testing.T, outputs map[string]string, status int, cases []string) {
	t.Helper()
	data, err := os.ReadFile(outputs["json"])
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Encoders map[string]struct {
			Cases map[string]struct {
				Grade string `json:"grade"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JSON report: %v", err)
	}
	if len(doc.Encoders) != 1 {
		t.Fatalf("JSON report: %d encoders; want the one of the exec input", len(doc.Encoders))
	}
	wantGrade := map[int]string{0: "pass", 1: "fail"}[status]
	for name, enc := range doc.Encoders {
		if got := enc.Cases["enc/5.2/1"].Grade; got != wantGrade {
			t.Errorf("JSON report: %s enc/5.2/1 graded %q; want %q", name, got, wantGrade)
		}
		if cases != nil {
			var ids []string
			for id := range enc.Cases {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, cases) {
				t.Errorf("JSON report: cases %q; want %q (the cases input)", ids, cases)
			}
		}
	}
	data, err = os.ReadFile(outputs["junit"])
	if err != nil {
		t.Fatal(err)
	}
	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(data, &junit); err != nil {
		t.Fatalf("JUnit report: %v", err)
	}
	if junit.Tests == 0 || (junit.Failures > 0) != (status == 1) {
		t.Errorf("JUnit report: %d tests, %d failures; want tests, and failures exactly when the exit status is 1 (it is %d)", junit.Tests, junit.Failures, status)
	}
}

// readOutputs parses a GITHUB_OUTPUT file: name=value lines, or
// name<<DELIMITER, value lines, DELIMITER.
func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outputs := map[string]string{}
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		if name, value, ok := strings.Cut(line, "="); ok && !strings.Contains(name, "<<") {
			outputs[name] = value
			continue
		}
		name, delimiter, ok := strings.Cut(line, "<<")
		if !ok {
			t.Fatalf("%s: line %q is not name=value nor name<<DELIMITER", file, line)
		}
		var value []string
		for scanner.Scan() && scanner.Text() != delimiter {
			value = append(value, scanner.Text())
		}
		outputs[name] = strings.Join(value, "\n")
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return outputs
}

// TestActionInputErrors checks that the action refuses bad inputs with
// exit 2, one clear line and the status output, before building anything.
func TestActionInputErrors(t *testing.T) {
	root := moduleRoot(t)
	tests := []struct {
		label  string
		inputs []string
		want   string
	}{
		{"no encoder", nil, "gate.sh: name the encoder to certify"},
		{"strict not a boolean", []string{"INPUT_EXEC=./enc", "INPUT_STRICT=yes"}, `action.sh: input strict is "yes"; want true or false`},
		{"nghttp2 not a boolean", []string{"INPUT_EXEC=./enc", "INPUT_NGHTTP2=1"}, `action.sh: input nghttp2 is "1"; want true or false`},
		{"unbalanced quote in args", []string{"INPUT_EXEC=./enc", "INPUT_ARGS=--timeout '10s"}, "action.sh: input args: cannot split it into words"},
		{"unknown flag in args", []string{"INPUT_EXEC=./enc", "INPUT_ARGS=--stirct"}, "gate.sh: unknown flag --stirct"},
	}
	for _, tt := range tests {
		runnerTemp := t.TempDir()
		output := filepath.Join(runnerTemp, "set_output_1")
		log := filepath.Join(runnerTemp, "tools.log")
		fakes := fakeTools(t, log, map[string]string{"go": "", "pkg-config": "", "apt-get": "", "sudo": ""})
		env := scriptEnv(append([]string{
			"PATH=" + fakes + string(os.PathListSeparator) + os.Getenv("PATH"),
			"GITHUB_ACTION_PATH=" + root,
			"GITHUB_OUTPUT=" + output,
			"RUNNER_TEMP=" + runnerTemp,
		}, tt.inputs...)...)
		status, stdout, stderr := runScript(t, t.TempDir(), env, filepath.Join(root, "ci", "action.sh"))
		if status != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d; want 2 and %q\n%s%s", tt.label, status, tt.want, stdout, stderr)
		}
		if ran := readLog(t, log); len(ran) > 0 {
			t.Errorf("%s: the action ran %q before refusing its inputs", tt.label, ran)
		}
		if got := readOutputs(t, output)["status"]; got != "2" {
			t.Errorf("%s: status output %q; want 2", tt.label, got)
		}
	}
}

// TestActionWiring checks action.yml against ci/action.sh: every input is
// used, every INPUT_ variable the step sets is read by the script and the
// other way round, and the outputs are the ones the script writes.
func TestActionWiring(t *testing.T) {
	root := moduleRoot(t)
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "ci", "action.sh"))
	if err != nil {
		t.Fatal(err)
	}
	section := func(name string) []string {
		_, body, ok := strings.Cut(string(action), "\n"+name+":\n")
		if !ok {
			t.Fatalf("action.yml has no %s section", name)
		}
		var keys []string
		for _, m := range regexp.MustCompile(`(?m)^  ([a-z][a-z0-9-]*):$|^\S`).FindAllStringSubmatch(body, -1) {
			if m[1] == "" {
				break // the next top-level key
			}
			keys = append(keys, m[1])
		}
		return keys
	}

	inputs := section("inputs")
	if len(inputs) < 9 {
		t.Fatalf("action.yml inputs: %q; want exec, stories, strict, expect-fail, cases, args, out, go-version, nghttp2", inputs)
	}
	for _, in := range inputs {
		if !strings.Contains(string(action), "inputs."+in+" ") {
			t.Errorf("action.yml never uses its input %s", in)
		}
	}
	var set []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(INPUT_[A-Z0-9_]+):`).FindAllStringSubmatch(string(action), -1) {
		set = append(set, m[1])
	}
	read := regexp.MustCompile(`INPUT_[A-Z0-9_]+`).FindAllString(string(script), -1)
	slices.Sort(set)
	slices.Sort(read)
	set, read = slices.Compact(set), slices.Compact(read)
	if !slices.Equal(set, read) {
		t.Errorf("action.yml sets %q; ci/action.sh reads %q", set, read)
	}

	outputs := section("outputs")
	slices.Sort(outputs)
	if !slices.Equal(outputs, actionOutputs) {
		t.Errorf("action.yml outputs: %q; want %q, which ci/action.sh writes", outputs, actionOutputs)
	}
	for _, out := range outputs {
		if !strings.Contains(string(action), "${{ steps.gate.outputs."+out+" }}") {
			t.Errorf("action.yml output %s is not the gate step's %s", out, out)
		}
	}
}

// TestLintYAML runs ci/lint-yaml.sh: yamllint on action.yml and the CI
// examples, and a check that every repository file they name exists. It
// also checks that the script fails on a missing file and on bad YAML.
func TestLintYAML(t *testing.T) {
	root := moduleRoot(t)
	if _, err := exec.LookPath("yamllint"); err != nil && !testenv.Required() {
		// In CI the script installs it; elsewhere a test does not run apt-get.
		testenv.Missing(t, "yamllint, to lint action.yml and the CI examples (apt-get install yamllint, or run ci/lint-yaml.sh, which installs it)")
	}
	status, stdout, stderr := runScript(t, root, scriptEnv(), filepath.Join(root, "ci", "lint-yaml.sh"))
	if status != 0 {
		t.Fatalf("ci/lint-yaml.sh: exit %d\n%s%s", status, stdout, stderr)
	}

	// A copy of what the script reads, to break.
	files := []string{"action.yml", "ci/lint-yaml.sh", "ci/yamllint.yml", "ci/apt-install.sh", "ci/action.sh", "ci/gate.sh", "ci/example-workflow.yml", "ci/example-gitlab-ci.yml"}
	copyTree := func(t *testing.T) string {
		dir := t.TempDir()
		for _, name := range files {
			data, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	appendTo := func(t *testing.T, file, text string) {
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		label, file, text, want string
	}{
		{"the copy as it is", "", "", ""},
		{"a missing file", "ci/example-gitlab-ci.yml", "# see ci/nope.sh\n", "ci/example-gitlab-ci.yml: names ci/nope.sh, which the repository does not have"},
		{"a missing file of the action", "action.yml", "# runs $GITHUB_ACTION_PATH/tools/run.sh\n", "action.yml: names tools/run.sh"},
		{"bad YAML", "ci/example-workflow.yml", "bad: [unclosed\n", "syntax error"},
		{"a long line", "ci/example-gitlab-ci.yml", "# " + strings.Repeat("long ", 40) + "\n", "line too long"},
	}
	for _, tt := range tests {
		dir := copyTree(t)
		if tt.file != "" {
			appendTo(t, filepath.Join(dir, tt.file), tt.text)
		}
		status, stdout, stderr := runScript(t, dir, scriptEnv(), filepath.Join(dir, "ci", "lint-yaml.sh"))
		if tt.want == "" {
			if status != 0 {
				t.Errorf("%s: exit %d; want 0\n%s%s", tt.label, status, stdout, stderr)
			}
			continue
		}
		if status == 0 || !strings.Contains(stdout+stderr, tt.want) {
			t.Errorf("%s: exit %d; want a failure saying %q\n%s%s", tt.label, status, tt.want, stdout, stderr)
		}
	}
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
// where the whole report is.
func TestGateSummaryLimit(t *testing.T) {
	gate := filepath.Join(moduleRoot(t), "ci", "gate.sh")
	log := filepath.Join(t.TempDir(), "hpackcert.log")
	line := strings.Repeat("x", 99)
	// The last argument is the Markdown report's path.
	writeMD := fmt.Sprintf(`for md; do :; done
i=0
while [ $i -lt 15000 ]; do echo %s; i=$((i + 1)); done >"$md"`, line)
	fake := filepath.Join(fakeTools(t, log, map[string]string{"hpackcert": writeMD}), "hpackcert")
	out := t.TempDir()
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	status, stdout, stderr := runScript(t, t.TempDir(), scriptEnv("HPACKCERT_BIN="+fake, "HPACKCERT_OUT="+out, "GITHUB_STEP_SUMMARY="+summary), gate, "--exec", "./enc")
	if status != 0 {
		t.Fatalf("exit %d; want 0\n%s%s", status, stdout, stderr)
	}
	got, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	note := "*(cut short: the whole report is in " + out + "/summary.md)*\n"
	body, found := strings.CutSuffix(string(got), "\n\n"+note)
	if len(got) > limit || !found {
		t.Fatalf("step summary: %d octets ending %q; want at most %d, ending with the note %q", len(got), got[max(0, len(got)-120):], limit, note)
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
}
