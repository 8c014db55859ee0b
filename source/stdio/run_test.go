package stdio_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// TestStdioReference certifies the reference encoder over hpack-stdio/1:
// it must pass everything strictly, as it does in process.
func TestStdioReference(t *testing.T) {
	dir := stdioBinaries(t)
	target := execTarget(t, filepath.Join(dir, "hpackcert-stdio-ref"), 10*time.Second)
	opts := certifytest.Quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := rep.Encoders[0]
	if !strings.HasPrefix(enc, "hpackcert-stdio-ref") {
		t.Errorf("encoder name %q; want the answer to hello", enc)
	}
	if bad := certifytest.GradesWithout(rep, enc); len(bad) > 0 {
		t.Errorf("stdio reference with Strict:\n%s", strings.Join(bad, "\n"))
	}
	if got := rep.Results[enc]["enc/7.3/2"].Grade; got != certify.Unsupported {
		t.Errorf("enc/7.3/2 over stdio graded %s; want unsupported", got)
	}
}

// TestPlantedBugsStdio runs the table of planted bugs over hpack-stdio:
// stdioenc -bug B, which shows no table, fails exactly the cases the bug
// fails in process (certifytest.PlantedBugs).
func TestPlantedBugsStdio(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	var targets []certify.Target
	for _, p := range certifytest.PlantedBugs {
		targets = append(targets, execTarget(t, enc+" -bug "+p.Bug.String(), 10*time.Second))
	}
	rep, err := certify.Run(targets, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range certifytest.PlantedBugs {
		certifytest.CheckPlanted(t, rep, rep.Encoders[i], p)
		// Allocations are a Go encoder's in this process: not applicable
		// over stdio, shown n/a, not a lack.
		if res := rep.Results[rep.Encoders[i]]["enc/7.3/2"]; res.Grade != certify.Unsupported || !res.NotApplicable {
			t.Errorf("%s: enc/7.3/2 %v, not applicable %v; want unsupported and not applicable", rep.Encoders[i], res.Grade, res.NotApplicable)
		}
	}
}

// TestStdioMisbehaving drives encoders that hang, crash, flood stderr,
// print garbage or lie, and checks that each gets its verdict, a hang
// the timeout's, and that the run goes on: an encoder that breaks the protocol,
// hangs or crashes is one failure, the target's breakdown, with the
// encoder's stderr and a reproduction, and fails no case.
func TestStdioMisbehaving(t *testing.T) {
	dir := stdioBinaries(t)
	enc := filepath.Join(dir, "stdioenc")
	const timeout = time.Second
	tests := []struct {
		name   string
		args   string
		cases  []string
		id     string // "" for a breakdown
		grade  certify.Grade
		detail string // in the detail, or in the breakdown
		stderr string // in the captured stderr, when set
	}{
		{"hang", "-hang-after 3", []string{"enc/4.1/", "enc/5.2/3"}, "", certify.Fail, "within 1s", "stdioenc: hanging"},
		{"crash", "-crash-after 2", []string{"enc/4.4/1"}, "", certify.Fail, "exit status 3", "simulated crash"},
		{"garbage", "-garbage", []string{"enc/4.3/1"}, "", certify.Fail, `encoder broke hpack-stdio at request 3: the answer to encode is not JSON (at octet 2): "this is not JSON"`, ""},
		{"lie", "-lie", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "decoded other fields", ""},
		{"noisy", "-noisy", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Pass, "", ""},
		{"overhead-31 without a table to read", "-bug overhead-31", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Fail, "oracle strict", ""},
		{"index-not-inserted without a table to read", "-bug index-not-inserted", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "", ""},
		{"zero padding", "-bug huffman-zero-padding", []string{"enc/5.2/1"}, "enc/5.2/1", certify.Fail, "not a prefix of EOS", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := execTarget(t, enc+" "+tt.args, timeout)
			opts := certifytest.Quick()
			opts.Cases = tt.cases
			rep, err := certify.Run([]certify.Target{target}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.id == "" {
				info := rep.Targets[rep.Encoders[0]]
				if !strings.Contains(info.Breakdown, tt.detail) || strings.Count(info.Breakdown, "encoder broke") > 1 {
					t.Errorf("breakdown %q; want one, containing %q", info.Breakdown, tt.detail)
				}
				if !strings.Contains(info.BreakdownStderr, tt.stderr) {
					t.Errorf("breakdown stderr %q; want it to contain %q", info.BreakdownStderr, tt.stderr)
				}
				if info.BreakdownRepro == "" {
					t.Error("breakdown without a reproduction")
				}
				if !rep.Failed() {
					t.Error("Failed() = false after a breakdown")
				}
				for _, c := range rep.Cases {
					if res := rep.Results[rep.Encoders[0]][c.ID]; res.Grade == certify.Fail {
						t.Errorf("%s: fail %q; want the breakdown to be the one failure", c.ID, res.Detail)
					}
				}
				return
			}
			res := rep.Results[rep.Encoders[0]][tt.id]
			if res.Grade != tt.grade || !strings.Contains(res.Detail, tt.detail) {
				t.Errorf("%s: %s %q; want %s containing %q", tt.id, res.Grade, res.Detail, tt.grade, tt.detail)
			}
			if !strings.Contains(res.Stderr, tt.stderr) {
				t.Errorf("%s stderr %q; want it to contain %q", tt.id, res.Stderr, tt.stderr)
			}
			if tt.grade == certify.Fail && res.Repro == "" {
				t.Errorf("%s: failure without a reproduction", tt.id)
			}
			// Every selected case got a verdict: the first bad answer did
			// not end the run.
			for _, c := range rep.Cases {
				if rep.Results[rep.Encoders[0]][c.ID] == nil {
					t.Errorf("%s: no result", c.ID)
				}
			}
		})
	}
}

// TestStdioNoHello checks that an encoder that never answers hello is a
// harness error, the timeout's: a hang would be go test's -timeout.
func TestStdioNoHello(t *testing.T) {
	dir := stdioBinaries(t)
	target, err := stdio.Exec(filepath.Join(dir, "stdioenc")+" -no-hello", 200*time.Millisecond)
	if err == nil {
		target.Close()
		t.Fatal("Exec of an encoder that never answers: no error")
	}
	if !strings.Contains(err.Error(), "no answer to hello within 200ms") {
		t.Errorf("error %q; want the timeout of hello", err)
	}
}

func TestExecBadCommand(t *testing.T) {
	tests := []struct{ command, want string }{
		{"", "empty encoder command"},
		{"'unterminated", "unterminated"},
		{"/nonexistent/encoder", "starting /nonexistent/encoder"},
	}
	for _, tt := range tests {
		_, err := stdio.Exec(tt.command, time.Second)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Exec(%q) error %v; want one containing %q", tt.command, err, tt.want)
		}
	}
}
