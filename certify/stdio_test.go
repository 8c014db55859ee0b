package certify_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// stdioBinaries builds testdata/stdioenc and cmd/hpackcert-stdio-ref once
// per test binary and returns the directory holding them.
func stdioBinaries(t *testing.T) string {
	t.Helper()
	return testenv.BuildCommands(t, "certify/testdata/stdioenc", "cmd/hpackcert-stdio-ref")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

func execTarget(t *testing.T, command string, timeout time.Duration) certify.Target {
	t.Helper()
	target, err := certify.Exec(command, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	return target
}

// TestStdioReference certifies the reference encoder over hpack-stdio/1:
// it must pass everything strictly, as it does in process.
func TestStdioReference(t *testing.T) {
	dir := stdioBinaries(t)
	target := execTarget(t, filepath.Join(dir, "hpackcert-stdio-ref"), 10*time.Second)
	opts := quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := rep.Encoders[0]
	if !strings.HasPrefix(enc, "hpackcert-stdio-ref") {
		t.Errorf("encoder name %q; want the answer to hello", enc)
	}
	if bad := gradesWithout(rep, enc); len(bad) > 0 {
		t.Errorf("stdio reference with Strict:\n%s", strings.Join(bad, "\n"))
	}
	if got := rep.Results[enc]["enc/7.3/2"].Grade; got != certify.Unsupported {
		t.Errorf("enc/7.3/2 over stdio graded %s; want unsupported", got)
	}
}

// TestStdioMisbehaving drives encoders that hang, crash, flood stderr,
// print garbage or lie, and checks that each gets a per-case verdict
// within the timeout and that the run goes on.
func TestStdioMisbehaving(t *testing.T) {
	dir := stdioBinaries(t)
	enc := filepath.Join(dir, "stdioenc")
	const timeout = 2 * time.Second
	tests := []struct {
		name   string
		args   string
		cases  []string
		id     string
		grade  certify.Grade
		detail string // in the detail
		stderr string // in the captured stderr, when set
	}{
		{"hang", "-hang-after 3", []string{"enc/4.1/", "enc/5.2/3"}, "enc/4.1/1", certify.Fail, "within 2s", "stdioenc: hanging"},
		{"crash", "-crash-after 2", []string{"enc/4.4/1"}, "enc/4.4/1", certify.Fail, "exit status 3", "simulated crash"},
		{"garbage", "-garbage", []string{"enc/4.3/1"}, "enc/4.3/1", certify.Fail, "not a JSON object", ""},
		{"lie", "-lie", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "decoded other fields", ""},
		{"noisy", "-noisy", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Pass, "", ""},
		{"overhead-31 without a table to read", "-bug overhead-31", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Fail, "oracle strict", ""},
		{"index-not-inserted without a table to read", "-bug index-not-inserted", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "", ""},
		{"zero padding", "-bug huffman-zero-padding", []string{"enc/5.2/1"}, "enc/5.2/1", certify.Fail, "not a prefix of EOS", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := execTarget(t, enc+" "+tt.args, timeout)
			opts := quick()
			opts.Cases = tt.cases
			start := time.Now()
			rep, err := certify.Run([]certify.Target{target}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if elapsed := time.Since(start); elapsed > 30*time.Second {
				t.Errorf("run took %v", elapsed)
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
// harness error, reported within the timeout.
func TestStdioNoHello(t *testing.T) {
	dir := stdioBinaries(t)
	start := time.Now()
	target, err := certify.Exec(filepath.Join(dir, "stdioenc")+" -no-hello", 200*time.Millisecond)
	if err == nil {
		target.Close()
		t.Fatal("Exec of an encoder that never answers: no error")
	}
	if !strings.Contains(err.Error(), "hello") {
		t.Errorf("error %q does not mention hello", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("Exec took %v with a 200ms timeout", elapsed)
	}
}

func TestExecBadCommand(t *testing.T) {
	tests := []struct{ command, want string }{
		{"", "empty encoder command"},
		{"'unterminated", "unterminated"},
		{"/nonexistent/encoder", "starting /nonexistent/encoder"},
	}
	for _, tt := range tests {
		_, err := certify.Exec(tt.command, time.Second)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Exec(%q) error %v; want one containing %q", tt.command, err, tt.want)
		}
	}
}
