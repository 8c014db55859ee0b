package stdio_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/stdioschema"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// qpackSession is an example session of docs/STDIO.md: the arguments of
// hpackcert-stdio-ref it shows, and its requests and answers in order.
type qpackSession struct {
	args              []string
	requests, answers []string
}

// docQPACKSessions returns the example sessions of the QPACK mode in
// docs/STDIO.md, each a code block after a "<!-- qpack session: ARGS -->"
// marker, of "> request" and "< answer" lines.
func docQPACKSessions(t *testing.T) []qpackSession {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "docs", "STDIO.md"))
	if err != nil {
		t.Fatal(err)
	}
	var sessions []qpackSession
	blocks := strings.Split(string(text), "\n<!-- qpack session: ")
	for _, block := range blocks[1:] {
		args, rest, ok := strings.Cut(block, " -->\n```\n")
		body, _, ok2 := strings.Cut(rest, "\n```\n")
		if !ok || !ok2 {
			t.Fatalf("docs/STDIO.md: a qpack session marker without its code block: %.80s", block)
		}
		s := qpackSession{args: strings.Fields(args)}
		for _, line := range strings.Split(body, "\n") {
			switch {
			case strings.HasPrefix(line, "> "):
				s.requests = append(s.requests, line[2:])
			case strings.HasPrefix(line, "< "):
				s.answers = append(s.answers, line[2:])
			default:
				t.Errorf("docs/STDIO.md: a session line that is neither a request nor an answer: %s", line)
			}
		}
		if len(s.requests) == 0 || len(s.requests) != len(s.answers) {
			t.Errorf("docs/STDIO.md: a session of %d requests and %d answers", len(s.requests), len(s.answers))
		}
		sessions = append(sessions, s)
	}
	if len(sessions) != 2 {
		t.Fatalf("docs/STDIO.md: %d QPACK example sessions; want the encoder's and the decoder's", len(sessions))
	}
	return sessions
}

// TestDocQPACKSessions checks the example sessions of the QPACK mode in
// docs/STDIO.md: every request and every answer matches the QPACK
// schema's definition for it, and hpackcert-stdio-ref, run with the
// session's arguments on its requests, answers exactly the session's
// answers.
func TestDocQPACKSessions(t *testing.T) {
	sch, err := stdioschema.LoadQPACK()
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(stdioBinaries(t), "hpackcert-stdio-ref")
	for _, s := range docQPACKSessions(t) {
		for i, req := range s.requests {
			var r struct{ Op string }
			if err := json.Unmarshal([]byte(req), &r); err != nil {
				t.Errorf("%v: request %d: %v", s.args, i+1, err)
			}
			if err := sch.Validate("request", req); err != nil {
				t.Errorf("%v: request %s does not match the schema: %v", s.args, req, err)
			}
			if i < len(s.answers) {
				if def := stdioschema.QPACKAnswerDef(r.Op); sch.Validate(def, s.answers[i]) != nil {
					t.Errorf("%v: the answer %s to %s does not match %q", s.args, s.answers[i], req, def)
				}
			}
		}
		cmd := exec.Command(ref, s.args...)
		cmd.Stdin = strings.NewReader(strings.Join(s.requests, "\n") + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%v: %v", s.args, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(s.answers, "\n") {
			t.Errorf("%v: the program answers\n%s\nthe document says\n%s", s.args, strings.Join(got, "\n"), strings.Join(s.answers, "\n"))
		}
	}
}
