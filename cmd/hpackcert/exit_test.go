package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// smallReport grades the reference encoder on one case, on a few blocks.
func smallReport(t *testing.T) *certify.Report {
	t.Helper()
	enc, err := inprocess.Builtin("ref")
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	rep, err := certify.Run([]certify.Target{enc}, certify.Options{Cases: []string{"enc/4.1/1"}, TrafficStories: 1, TrafficBlocks: 5})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFinish checks the one way a grading command ends: the text report
// and every report file for a report, the exit status it gives (0 pass, 1
// a failure, 2 a run that could not happen), the reproductions' sentence
// when the run wrote any, and no report file left behind by a run that
// could not happen.
func TestFinish(t *testing.T) {
	passed := smallReport(t)
	failed := smallReport(t)
	enc := failed.Encoders[0]
	failed.Results[enc]["enc/4.1/1"].Grade = certify.Fail
	withRepro := smallReport(t)
	withRepro.Repro = &certify.Repro{Dir: "repro-dir"}
	// A live target that stopped before its schedule ended fails the run
	// by its breakdown alone, unless the breakdown is expected.
	brokeDown, brokeDownExpected := smallReport(t), smallReport(t)
	for i, rep := range []*certify.Report{brokeDown, brokeDownExpected} {
		info := rep.Targets[rep.Encoders[0]]
		info.Breakdown, info.BreakdownExpected = "target stopped at request 3 of 9", i == 1
		rep.Targets[rep.Encoders[0]] = info
	}
	broken := errors.New("the run broke")
	for _, tc := range []struct {
		name    string
		rep     *certify.Report
		runErr  error
		status  int
		written bool
		stdout  string
	}{
		{"pass", passed, nil, exitPass, true, "verdict: PASS"},
		{"fail", failed, nil, exitFail, true, "verdict: FAIL"},
		{"repro", withRepro, nil, exitPass, true, "reproductions: none to write to repro-dir"},
		{"breakdown", brokeDown, nil, exitFail, true, "verdict: FAIL"},
		{"expected breakdown", brokeDownExpected, nil, exitPass, true, "verdict: PASS"},
		{"no report", nil, broken, exitHarness, false, ""},
		{"report then error", failed, broken, exitHarness, false, "verdict: FAIL"},
	} {
		dir := t.TempDir()
		var f reportFlags
		for _, format := range reportFormats {
			f.set(format.kind, filepath.Join(dir, "report."+format.kind))
		}
		outputs, err := f.create()
		if err != nil {
			t.Fatal(err)
		}
		var stdout bytes.Buffer
		status, err := outputs.finish(&stdout, tc.rep, tc.runErr)
		outputs.close()
		if status != tc.status || (tc.runErr != nil) != (err != nil) {
			t.Errorf("%s: status %d, error %v; want %d", tc.name, status, err, tc.status)
		}
		if !strings.Contains(stdout.String(), tc.stdout) || (tc.stdout == "") != (stdout.Len() == 0) {
			t.Errorf("%s: stdout lacks %q:\n%s", tc.name, tc.stdout, stdout.String())
		}
		for _, format := range reportFormats {
			data, err := os.ReadFile(f.paths[format.kind])
			if tc.written && (err != nil || len(data) == 0) {
				t.Errorf("%s: the %s report: %d octets, %v; want it written", tc.name, format.kind, len(data), err)
			}
			if !tc.written && !os.IsNotExist(err) {
				t.Errorf("%s: the %s report is left behind (%v)", tc.name, format.kind, err)
			}
		}
	}
}

// TestReportFlagErrors checks that a report file that cannot be written
// stops run, decoders and live before anything runs, naming its flag.
func TestReportFlagErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing", "r")
	for _, args := range [][]string{
		{"run", "--encoder", "builtin:ref", "--md", missing},
		{"decoders", "--decoder", "builtin:strict", "--junit", missing},
		{"live", "--target", "go-server", "--html", missing},
	} {
		status, stdout, stderr := runCLI(t, args...)
		want := "--" + strings.TrimPrefix(args[len(args)-2], "--") + " " + missing + ": cannot write the report"
		if status != exitHarness || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing run, and %q", args, status, stdout, stderr, want)
		}
	}
}
