package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestGateInNewProject uses the gate as a new user would: a project of its
// own outside this repository, with an encoder of its own (testdata/enc.py,
// in Python), ci/gate.sh copied in and pointed at this checkout with
// HPACKCERT_SRC, and no network (GOPROXY=off). The gate fails the broken
// encoder with exit 1 and writes the reports and the reproduction; the
// replay command it printed works after it exited, from another
// directory, and passes once the encoder is fixed; the fixed encoder
// passes the gate.
func TestGateInNewProject(t *testing.T) {
	testenv.ChildProcesses(t, "the gate script, go build and the user's encoder")
	root := moduleRoot(t)
	needBash(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		testenv.Missing(t, "python3, to run the user's encoder of the gate's test")
	}
	project := t.TempDir()
	if strings.HasPrefix(project, root+string(filepath.Separator)) {
		t.Fatalf("the project %s is inside the repository %s", project, root)
	}
	source, err := os.ReadFile(filepath.Join("testdata", "enc.py"))
	if err != nil {
		t.Fatal(err)
	}
	encoder := filepath.Join(project, "enc.py")
	if err := os.WriteFile(encoder, source, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "ci", "gate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(project, "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "ci", "gate.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	path := strings.Join([]string{goDir(t), filepath.Dir(python), os.Getenv("PATH")}, string(os.PathListSeparator))
	env := scriptEnv("PATH="+path, "HPACKCERT_SRC="+root, "HPACKCERT_NGHTTP2=false",
		"GOFLAGS=-mod=mod", "GOPROXY=off", "GITHUB_STEP_SUMMARY="+summary)
	args := append([]string{"--cases", "enc/7.1.3,enc/5.2/1,enc/6.3"}, quick...)

	status, stdout, stderr := runScript(t, project, env, "ci/gate.sh", append([]string{"--exec", "python3 enc.py --bug"}, args...)...)
	if status != 1 {
		t.Fatalf("gate.sh with the broken encoder: exit %d; want 1\n%s%s", status, stdout, stderr)
	}
	reports := filepath.Join(project, "hpackcert-report")
	bin := filepath.Join(reports, "bin", "hpackcert")
	story := filepath.Join(reports, "repro", "enc.py--enc_7.1.3_1.json")
	for _, file := range append(reportFiles, "bin/hpackcert", "repro/enc.py--enc_7.1.3_1.json") {
		if _, err := os.Stat(filepath.Join(reports, file)); err != nil {
			t.Error(err)
		}
	}
	_, replay, found := strings.Cut(stdout, "replay one with\n  ")
	replay, _, _ = strings.Cut(replay, "\n")
	want := "cd " + shell.Quote(project) + " && " + shell.Quote(bin) + " repro --story " + shell.Quote(story) + " --cases enc/7.1.3/1 --exec 'python3 enc.py --bug'"
	if !found || replay != want {
		t.Fatalf("gate.sh printed the replay command %q; want %q\n%s", replay, want, stdout)
	}
	checkUserReports(t, reports, summary)

	// After the gate: the replay command, from elsewhere, as a shell runs
	// it, fails the same case; once the user fixes the encoder, it passes.
	replayed := func() (int, string) {
		cmd := exec.Command("sh", "-c", replay)
		cmd.Dir = t.TempDir()
		cmd.Env = scriptEnv("PATH=" + path)
		out, err := cmd.CombinedOutput()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("running the replay command: %v", err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if status, out := replayed(); status != 1 || !strings.Contains(out, "enc/7.1.3/1  fail") {
		t.Errorf("the replay command: exit %d; want 1 and enc/7.1.3/1 failing\n%s", status, out)
	}
	fixed := strings.Replace(string(source), `BUG = "--bug" in sys.argv`, "BUG = False", 1)
	if fixed == string(source) {
		t.Fatal("testdata/enc.py no longer sets BUG from --bug")
	}
	if err := os.WriteFile(encoder, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if status, out := replayed(); status != 0 || !strings.Contains(out, "enc/7.1.3/1  pass") {
		t.Errorf("the replay command after the fix: exit %d; want 0\n%s", status, out)
	}

	// The fixed encoder never Huffman-codes: enc/5.2/1, a MUST about
	// Huffman strings, is not applicable to it, which passes the gate
	// without a declaration and says why; a declaration changes nothing.
	status, stdout, stderr = runScript(t, project, env, "ci/gate.sh", append([]string{"--exec", "python3 enc.py --bug"}, args...)...)
	if status != 0 || !strings.Contains(stdout, "enc.py enc/5.2/1 n/a: not applicable: the encoder Huffman-coded none of the") ||
		!strings.Contains(stdout, "reproductions: none to write to "+filepath.Join(reports, "repro")) || strings.Contains(stdout, "not graded") {
		t.Errorf("gate.sh with the fixed encoder: exit %d; want 0, enc/5.2/1 not applicable, no reproduction\n%s%s", status, stdout, stderr)
	}
	declared := append([]string{"--exec", "python3 enc.py --bug", "--declare-unsupported", "enc/5.2/1: enc.py never Huffman-codes"}, args...)
	status, stdout, stderr = runScript(t, project, env, "ci/gate.sh", declared...)
	if status != 0 || !strings.Contains(stdout, "enc.py enc/5.2/1 n/a: not applicable") || strings.Contains(stdout, "1 declared") {
		t.Errorf("gate.sh with the fixed encoder, enc/5.2/1 declared: exit %d; want 0, enc/5.2/1 still not applicable, not declared\n%s%s", status, stdout, stderr)
	}

	// Declaring in its hello that it has no never-index API, the encoder
	// is sent no sensitive field: enc/7.1.3/1, a MUST, judges nothing,
	// and the gate fails naming it until the user declares it too.
	status, stdout, stderr = runScript(t, project, env, "ci/gate.sh", append([]string{"--exec", "python3 enc.py --no-never-index"}, args...)...)
	if status != 1 || !strings.Contains(stdout, "MUST case not graded for enc.py: enc/7.1.3/1") {
		t.Errorf("gate.sh without never-index, enc/7.1.3/1 undeclared: exit %d; want 1 naming enc/7.1.3/1 not graded\n%s%s", status, stdout, stderr)
	}
	declared = append([]string{"--exec", "python3 enc.py --no-never-index", "--declare-unsupported", "enc/7.1.3/1: enc.py has no never-index API"}, args...)
	status, stdout, stderr = runScript(t, project, env, "ci/gate.sh", declared...)
	if status != 0 || !strings.Contains(stdout, "reproductions: none to write to "+filepath.Join(reports, "repro")) || !strings.Contains(stdout, "declared") {
		t.Errorf("gate.sh without never-index, enc/7.1.3/1 declared: exit %d; want 0, no reproduction, enc/7.1.3/1 declared\n%s%s", status, stdout, stderr)
	}
}

// checkUserReports checks the reports of TestGateInNewProject's failing
// gate: enc/7.1.3/1 failed in JSON and JUnit, the HTML written, and the
// Markdown appended to the job summary.
func checkUserReports(t *testing.T, reports, summary string) {
	t.Helper()
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(reports, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if got := reportGrades(t, read("report.json"))["enc.py"]["enc/7.1.3/1"]; got != "fail" {
		t.Errorf("report.json: enc.py enc/7.1.3/1 graded %q; want fail", got)
	}
	var junit struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(read("junit.xml"), &junit); err != nil || junit.Failures == 0 {
		t.Errorf("junit.xml: %d failures (%v); want some", junit.Failures, err)
	}
	if html := read("report.html"); !strings.Contains(string(html), "enc/7.1.3/1") {
		t.Error("report.html does not name enc/7.1.3/1")
	}
	md := read("summary.md")
	if got, err := os.ReadFile(summary); err != nil || string(got) != string(md) {
		t.Errorf("the job summary is not summary.md (%v)", err)
	}
	// Every report names the reproductions' folder and the command that
	// replays one, with the binary the gate kept.
	dir := filepath.Join(reports, "repro")
	bin := filepath.Join(reports, "bin", "hpackcert")
	if rp := readReport(t, read("report.json")).Repro; rp == nil || rp.Dir != dir || !strings.HasPrefix(rp.Replay, "cd ") || !strings.Contains(rp.Replay, bin+" repro --story ") {
		t.Errorf("report.json: repro %+v; want the folder %s and a command that goes there (cd) and runs %s repro --story", rp, dir, bin)
	}
	for _, tt := range []struct{ file, want string }{
		{"junit.xml", `<property name="hpackcert.repro.dir" value="` + dir + `">`},
		{"junit.xml", `name="hpackcert.repro.replay"`},
		{"report.html", "<code>" + dir + "</code>"},
		{"summary.md", "**Reproductions:** 1 story file in "},
	} {
		if got := string(read(tt.file)); !strings.Contains(got, tt.want) {
			t.Errorf("%s lacks %q", tt.file, tt.want)
		}
	}
	for _, file := range []string{"junit.xml", "report.html", "summary.md"} {
		if got := string(read(file)); !strings.Contains(got, bin+" repro --story ") {
			t.Errorf("%s does not name the replay command %s repro --story ...", file, bin)
		}
	}
}
