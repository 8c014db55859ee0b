package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestQPACKCommands runs the two QPACK commands as a user would: the
// defaults pass (the reference encoder; the strict decoder), quic-go's
// encoder fails the cases it breaks, and bad flags are the harness's
// errors (exit status 2) naming what was wrong.
func TestQPACKCommands(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(testenv.BuildCommands(t, "cmd/hpackcert-stdio-ref"), "hpackcert-stdio-ref")
	for _, tc := range []struct {
		args    []string
		status  int
		subject string
		grades  map[string]map[string]string // target → case → grade, where known
		err     string
	}{
		{args: []string{"qpack"}, status: 0, subject: "QPACK encoders",
			grades: map[string]map[string]string{"ref": {"qenc/2.1/1": "pass", "qenc/4.4.3/1": "pass", "qenc/7.1.3/1": "pass"}}},
		{args: []string{"qpack", "--encoder", "builtin:quicgo"}, status: 1, subject: "QPACK encoders",
			grades: map[string]map[string]string{"quic-go/qpack": {"qenc/2.1/1": "pass", "qenc/4.4.1/1": "fail", "qenc/7.1.3/1": "fail", "qenc/3.2/1": "non-strict"}}},
		{args: []string{"qpack", "--cases", "qenc/4.4", "--encoder", "builtin:quicgo", "--expect-fail", writeFile(t, dir, "x", "quic-go/qpack qenc/4.4.1/1\nquic-go/qpack qenc/4.4.3/1\n")}, status: 0, subject: "QPACK encoders"},
		{args: []string{"qpack-decoders"}, status: 0, subject: "QPACK decoders",
			grades: map[string]map[string]string{"strict": {"qdec/2.2/1": "pass", "qdec/4.5.1.1/2": "pass"}}},
		{args: []string{"qpack", "--exec", ref + " -qpack-encoder", "--encoder", "builtin:ref"}, status: 0, subject: "QPACK encoders",
			grades: map[string]map[string]string{"hpackcert-stdio-ref qpack encoder (capacity 4096)": {"qenc/2.1/1": "pass", "qenc/4.4.1/1": "pass"}}},
		{args: []string{"qpack-decoders", "--exec", ref + " -qpack-decoder"}, status: 0, subject: "QPACK decoders",
			grades: map[string]map[string]string{"hpackcert-stdio-ref qpack decoder (qstrict)": {"qdec/2.2.1/1": "pass"}}},
		{args: []string{"qpack", "--exec", ref}, status: 2, err: "the program speaks HPACK, not QPACK"},
		{args: []string{"qpack", "--cases", "qenc/9"}, status: 2, err: `no QPACK encoder case id starts with "qenc/9"`},
		{args: []string{"qpack", "--encoder", "builtin:nope"}, status: 2, err: `no built-in QPACK encoder "nope"`},
		{args: []string{"qpack", "--recorded", filepath.Join(dir, "missing")}, status: 2, err: "--recorded"},
		{args: []string{"qpack", "--live", "nope"}, status: 2, err: "--live nope"},
		{args: []string{"qpack-decoders", "--decoder", "builtin:ref"}, status: 2, err: `no built-in QPACK decoder "ref"`},
	} {
		path := filepath.Join(dir, "r.json")
		os.Remove(path)
		args := append(tc.args[:len(tc.args):len(tc.args)], "--json", path)
		if tc.status == 2 {
			args = tc.args
		}
		var out, errOut bytes.Buffer
		status := run(args, &out, &errOut)
		if status != tc.status {
			t.Errorf("%v: exit status %d, want %d\n%s%s", tc.args, status, tc.status, out.String(), errOut.String())
			continue
		}
		if tc.err != "" && !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%v: stderr %q, want it to say %q", tc.args, errOut.String(), tc.err)
		}
		if tc.status == 2 {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if rep := readReport(t, raw); rep.Subject != tc.subject {
			t.Errorf("%v: subject %q, want %q", tc.args, rep.Subject, tc.subject)
		}
		got := reportGrades(t, raw)
		for target, cases := range tc.grades {
			for id, want := range cases {
				if got[target][id] != want {
					t.Errorf("%v: %s %s is %q, want %q", tc.args, target, id, got[target][id], want)
				}
			}
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
