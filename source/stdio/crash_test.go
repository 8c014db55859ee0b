package stdio_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// crashScript is an hpack-stdio program, run as `sh crash.sh ROLE MODE`,
// of ROLE (encoder or decoder) that answers hello and new well and every
// block as MODE says, then dies of SIGSEGV, as a crashing C program does:
// "partial" writes the start of an answer; "unterminated" writes a whole
// answer without its line feed; "next" answers the program's first block
// and dies at the next. It says that it crashes on its standard error.
const crashScript = `role=$1 mode=$2 blocks=0
if [ "$role" = decoder ]; then
	hello='{"name":"crasher","decoder":true}'
	answer='{"headers":[[":method","GET"]],"never_indexed":[false]}'
	start='{"headers":[["a'
else
	hello='{"name":"crasher"}'
	answer='{"wire":"82"}'
	start='{"wire":"8'
fi
while IFS= read -r line; do
	case $line in
	*'"op":"hello"'*) printf '%s\n' "$hello"; continue ;;
	*'"op":"new"'*) printf '%s\n' '{}'; continue ;;
	esac
	blocks=$((blocks + 1))
	case $mode in
	partial) printf '%s' "$start" ;;
	unterminated) printf '%s' "$answer" ;;
	next) if [ $blocks -eq 1 ]; then printf '%s\n' "$answer"; continue; fi ;;
	esac
	echo "crasher: crashing on block $blocks" >&2
	kill -SEGV $$
done
`

// crashCommand writes crashScript to a file of the test's and returns
// the command that runs it as role in mode.
func crashCommand(t *testing.T, role, mode string) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("no sh to run the crashing program: %v", err)
	}
	script := filepath.Join(t.TempDir(), "crash.sh")
	if err := os.WriteFile(script, []byte(crashScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("'%s' '%s' %s %s", sh, script, role, mode)
}

// TestCrashReported certifies an encoder and a decoder program that die
// of SIGSEGV in the middle of an answer, after a whole answer without its
// line feed, and after a whole answer, at the next block: each is the
// target's breakdown, the signal named, the start of a line quoted as a
// partial answer and never judged as one, in every format of the report,
// with what the program wrote on its standard error, under its role. The whole answer
// before a crash is judged: its block, always 82 (:method GET), fails
// the first case that expected other fields.
func TestCrashReported(t *testing.T) {
	tests := []struct {
		mode   string
		want   []string // in the breakdown, in every format
		judged bool     // whether an answer was judged, and failed
	}{
		{"partial", []string{"killed by signal SIGSEGV in the middle of its answer", "a partial answer"}, false},
		{"unterminated", []string{"killed by signal SIGSEGV in the middle of its answer", "a partial answer"}, false},
		{"next", []string{"killed by signal SIGSEGV without answering"}, true},
	}
	for _, role := range []string{"encoder", "decoder"} {
		for _, tt := range tests {
			t.Run(role+" "+tt.mode, func(t *testing.T) {
				rep := runCrasher(t, role, crashCommand(t, role, tt.mode))
				name := rep.Encoders[0]
				info := rep.Targets[name]
				for _, want := range tt.want {
					if !strings.Contains(info.Breakdown, want) {
						t.Errorf("breakdown %q; want it to say %q", info.Breakdown, want)
					}
				}
				if !strings.Contains(info.BreakdownStderr, "crasher: crashing on block") {
					t.Errorf("breakdown stderr %q; want what the program wrote", info.BreakdownStderr)
				}
				var failed []string
				for _, c := range rep.Cases {
					if res := rep.Results[name][c.ID]; res.Grade == certify.Fail || res.Grade == certify.NonStrict {
						failed = append(failed, fmt.Sprintf("%s: %s %q", c.ID, res.Grade, res.Detail))
					}
				}
				// A decoder program's one answer is not to a block but to a
				// setting: its breakdown then ends its stories (no story is
				// played after it, the program restarted), and no block of
				// it is judged.
				want := tt.judged && role == "encoder"
				if judged := len(failed) > 0; judged != want {
					t.Errorf("an answer judged %t; want %t: cases failed:\n%s", judged, want, strings.Join(failed, "\n"))
				}
				for _, format := range []string{"text", "json", "junit", "html", "md"} {
					var buf bytes.Buffer
					if err := report.Write(&buf, format, rep); err != nil {
						t.Fatal(err)
					}
					want := append(tt.want, "SIGSEGV", "crasher: crashing on block")
					if format != "json" { // where the stderr is a member of its own
						want = append(want, role+" stderr:")
					}
					for _, want := range want {
						if !strings.Contains(buf.String(), want) {
							t.Errorf("%s report: no %q in\n%s", format, want, buf.String())
						}
					}
					if strings.Contains(buf.String(), "not JSON") {
						t.Errorf("%s report judges the partial line as an answer (not JSON):\n%s", format, buf.String())
					}
				}
			})
		}
	}
}

// runCrasher certifies the program command as role, over a few cases
// for an encoder and every dec/ case for a decoder, and returns the
// report.
func runCrasher(t *testing.T, role, command string) *certify.Report {
	t.Helper()
	if role == "encoder" {
		target := execTarget(t, command, 30*time.Second)
		opts := certifytest.Quick()
		opts.Cases = []string{"enc/3.2/1", "enc/4.1/1"}
		rep, err := certify.Run([]certify.Target{target}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	target, err := stdio.ExecDecoder(command, stdio.ExecOptions{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	rep, err := certify.RunDecoders([]certify.DecoderTarget{target}, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
