package stdio_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// hangingDecoder starts testdata/hang.sh, which answers hello and five
// requests and then hangs, logging to log, for the test's lifetime.
func hangingDecoder(t *testing.T, log string) certify.DecoderTarget {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		testenv.Missing(t, "no sh to run testdata/hang.sh: "+err.Error())
	}
	script, err := filepath.Abs(filepath.Join("testdata", "hang.sh"))
	if err != nil {
		t.Fatal(err)
	}
	target, err := stdio.ExecDecoder("'"+sh+"' '"+script+"' '"+log+"'", stdio.ExecOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	return target
}

// hangLog returns how many times hang.sh started and how many requests
// it read, from its log.
func hangLog(t *testing.T, log string) (starts, requests int) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "start" {
			starts++
		} else {
			requests++
		}
	}
	return starts, requests
}

// TestDecoderHangsOnce certifies a decoder program that answers hello and
// five requests, then stops answering (testdata/hang.sh): its first
// request not answered, the seventh, is the target's one breakdown, with
// the tail of its standard error in every format of the report; and no
// other story waits for a timeout of its own: the program is never
// started again, and no request is sent after the one it did not
// answer. It counts the requests the program read, not the time taken.
func TestDecoderHangsOnce(t *testing.T) {
	log := filepath.Join(t.TempDir(), "hang.log")
	target := hangingDecoder(t, log)
	rep, err := certify.RunDecoders([]certify.DecoderTarget{target}, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	if starts, requests := hangLog(t, log); starts != 1 || requests != 7 {
		t.Errorf("hang.sh started %d times and read %d requests; want 1 start and 7 requests (hello, five answered, the one it hung on)", starts, requests)
	}
	info := rep.Targets[rep.Encoders[0]]
	if n := strings.Count(info.Breakdown, "no answer to"); n != 1 || !strings.Contains(info.Breakdown, "at request 7:") {
		t.Errorf("breakdown %q; want the timeout of request 7, once", info.Breakdown)
	}
	const said = "hang.sh: hanging at request 7"
	if !strings.Contains(info.BreakdownStderr, said) {
		t.Errorf("breakdown stderr %q; want %q", info.BreakdownStderr, said)
	}
	for _, format := range []string{"text", "json", "junit", "html", "md"} {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), said) {
			t.Errorf("%s report: no %q in\n%s", format, said, buf.String())
		}
	}
	broken, ok := target.(interface{ Breakdown() error })
	if !ok || !errors.Is(broken.Breakdown(), certify.ErrTimeout) {
		t.Errorf("the target's Breakdown(): %v; want the timeout, matching certify.ErrTimeout", broken)
	}
	// Asked again, as a story after a restart would: nothing is sent.
	target.(certify.Restarter).Restart()
	if _, err := target.NewDecoder(); err == nil || !errors.Is(err, certify.ErrTimeout) {
		t.Errorf("NewDecoder after the timeout and a Restart: %v; want the timeout again, nothing sent", err)
	}
	if s := target.(certify.StderrTail).StderrTail(); !strings.Contains(s, said) {
		t.Errorf("StderrTail() after a Restart %q; want the tail of the program that hung, %q", s, said)
	}
	if starts, requests := hangLog(t, log); starts != 1 || requests != 7 {
		t.Errorf("after the run, a Restart and NewDecoder, hang.sh started %d times and read %d requests; want 1 and 7", starts, requests)
	}
}
