package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// The tests of the GitHub Action (action.yml and ci/action.sh) and of the
// YAML around it, run as a user's CI would run them.

// TestAction runs ci/action.sh as action.yml does on a GitHub runner,
// with the inputs as environment variables and GitHub's variables set: it
// builds hpackcert from the action's checkout, exits 0 for the reference
// encoder over stdio and 1 for one with a Huffman padding bug, writes the
// four reports, appends the Markdown report to the step summary and the
// outputs to GITHUB_OUTPUT, and leaves an installed libnghttp2 alone.
func TestAction(t *testing.T) {
	testenv.ChildProcesses(t, "the action's script and hpackcert")
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
				// One flag per line, spaces and colons kept: split into
				// words, a declaration would lose its reason (exit 2).
				"INPUT_DECLARE_UNSUPPORTED= enc/7.1.3/1: no never-index API: none \n\nenc/6.3/, enc/4.4/: sizes: none\n",
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
			if want := "building hpackcert from " + root + " "; !strings.Contains(stderr, want) {
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
	grades := reportGrades(t, data)
	if len(grades) != 1 {
		t.Fatalf("JSON report: %d encoders; want the one of the exec input", len(grades))
	}
	wantGrade := map[int]string{0: "pass", 1: "fail"}[status]
	for name, enc := range grades {
		if got := enc["enc/5.2/1"]; got != wantGrade {
			t.Errorf("JSON report: %s enc/5.2/1 graded %q; want %q", name, got, wantGrade)
		}
		if cases != nil {
			var ids []string
			for id := range enc {
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
// The flags the inputs make are hpackcert gate's to check, once built
// (TestGateArgumentErrors).
func TestActionInputErrors(t *testing.T) {
	root := moduleRoot(t)
	tests := []struct {
		label  string
		inputs []string
		want   string
	}{
		{"strict not a boolean", []string{"INPUT_EXEC=./enc", "INPUT_STRICT=yes"}, `action.sh: input strict is "yes"; want true or false`},
		{"nghttp2 not a boolean", []string{"INPUT_EXEC=./enc", "INPUT_NGHTTP2=1"}, `action.sh: input nghttp2 is "1"; want true or false`},
		{"unbalanced quote in args", []string{"INPUT_EXEC=./enc", "INPUT_ARGS=--timeout '10s"}, "action.sh: input args: cannot split it into words"},
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
