package hpackstdio

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// provokeTimeout is the timeout of the requests provoke makes after
// hello, short for the tests of a hanging encoder.
const provokeTimeout = 300 * time.Millisecond

// slowTimeout is the timeout of the cases that do not test one: a helper
// that writes a line of megabytes on a loaded machine can take more than
// provokeTimeout to write it, and the case would fail with a timeout
// instead of the error it tests.
const slowTimeout = 20 * time.Second

// earlyTimeout is the timeout of the requests to a helper that answers
// before reading the whole request: the answer must come within it, and
// the helper be scheduled to write it, on a loaded machine too.
const earlyTimeout = 2 * time.Second

// caseTimeout is the timeout for a case whose helper does action: short
// where the case tests a timeout, or a program that outlives its closed
// pipe for as long, long where it does not.
func caseTimeout(action string) time.Duration {
	switch {
	case action == "early":
		return earlyTimeout
	case strings.Contains(action, "hang") || strings.HasPrefix(action, "close-"):
		return provokeTimeout
	}
	return slowTimeout
}

// provoke starts a helper that answers op as action says (see runScript)
// and the other requests well, and makes the requests hello, new, encode
// and encode until one fails. It returns the client, nil when Start
// failed, and the error. The encode requests carry one field, of 1 MiB
// for the action "early", more than a pipe holds.
func provoke(t *testing.T, op, action string, timeout time.Duration) (*Client, error) {
	t.Helper()
	answers := map[string]string{OpHello: `{"name":"x"}`, OpNew: `{}`, OpEncode: `{"wire":"82"}`}
	answers[op] = action
	opts := Options{Timeout: timeout}
	if op != OpHello || !strings.Contains(action, "hang") {
		opts = startOptions(opts)
	}
	c, err := Start(scriptArgs(answers[OpHello], answers[OpNew], answers[OpEncode]), opts)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Close() })
	c.timeout = timeout
	if err := c.New(); err != nil {
		return c, err
	}
	fields := []Field{{Name: "a", Value: "b"}}
	if action == "early" {
		fields[0].Value = strings.Repeat("v", 1<<20)
	}
	for range 2 {
		if _, err := c.Encode(nil, nil, fields); err != nil {
			return c, err
		}
	}
	return c, nil
}

// TestBreakdowns drives programs that break the protocol in every way it
// can be broken after they started, and checks the whole error, its
// parts, and that the program was stopped; and the answers that are no
// breakdown: an error answer and an unsupported block.
func TestBreakdowns(t *testing.T) {
	const (
		request1 = "encoder broke hpack-stdio at request 1: "
		request2 = "encoder broke hpack-stdio at request 2: "
		request3 = "encoder broke hpack-stdio at request 3: "
		request4 = "encoder broke hpack-stdio at request 4: "
	)
	longError := strings.Repeat("e", 1500)
	tests := []struct {
		op, action string
		want       string // the whole error
		request    int    // the request the error names
		kind       string // "breakdown", "answer" (*AnswerError) or "unsupported"
		reason     string
	}{
		// The answer to hello.
		{OpHello, `{}`, request1 + `the answer to hello has no "name": "{}"`, 1, "breakdown", "a name is required"},
		{OpHello, `{"name":""}`, request1 + `the answer to hello has an empty "name": "{\"name\":\"\"}"`, 1, "breakdown", "the name names the encoder in reports"},
		{OpHello, `{"name":5}`, request1 + `the "name" of the answer to hello is a number, not a string: "{\"name\":5}"`, 1, "breakdown", "a member of the wrong type"},
		{OpHello, `{"name":"x","binary":"yes"}`, request1 + `the "binary" of the answer to hello is a string, not a boolean: "{\"name\":\"x\",\"binary\":\"yes\"}"`, 1, "breakdown", "binary is a boolean"},
		{OpHello, `{"name":"x","wire":"82"}`, request1 + `the answer to hello has "wire", a member of the answer to encode: "{\"name\":\"x\",\"wire\":\"82\"}"`, 1, "breakdown", "a member of another answer"},
		{OpHello, `{"name":"x","error":"no"}`, request1 + `the answer to hello has both "name" and "error": "{\"name\":\"x\",\"error\":\"no\"}"`, 1, "breakdown", "an error answer has error alone"},
		{OpHello, `["x"]`, request1 + `the answer to hello is a JSON array, not a JSON object: "[\"x\"]"`, 1, "breakdown", "an answer is an object"},
		{OpHello, `{"name":"x","lacks":"never-index"}`, request1 + `the "lacks" of the answer to hello is a string, not an array: "{\"name\":\"x\",\"lacks\":\"never-index\"}"`, 1, "breakdown", "lacks is a list"},
		{OpHello, `{"name":"x","lacks":[1]}`, request1 + `the "lacks" of the answer to hello has a number at index 0, not a string: "{\"name\":\"x\",\"lacks\":[1]}"`, 1, "breakdown", "a lack is named"},
		{OpHello, `{"name":"x","lacks":["never-index","sensitive"]}`, request1 + `the "lacks" of the answer to hello has "sensitive" at index 1, not a lack hpack-stdio/1 defines (never-index, pseudo-first, one-size-update, empty-block, uppercase-names, empty-name, grouped-names, pseudo-order, token-names, request-head): "{\"name\":\"x\",\"lacks\":[\"never-index\",\"sensitive\"]}"`, 1, "breakdown", "an unknown lack, with the names there are"},
		{OpHello, `{"name":"x","lacks":["empty-block","empty-block"]}`, request1 + `the "lacks" of the answer to hello has "empty-block" twice: "{\"name\":\"x\",\"lacks\":[\"empty-block\",\"empty-block\"]}"`, 1, "breakdown", "each lack once"},
		{OpHello, `{"name":"x","refuses":[0,31]}`, request1 + `the "refuses" of the answer to hello has a number at index 0, not a range [LO, HI] of two integers: "{\"name\":\"x\",\"refuses\":[0,31]}"`, 1, "breakdown", "a list of ranges, not one range"},
		{OpHello, `{"name":"x","refuses":[[0,31,127]]}`, request1 + `the "refuses" of the answer to hello has an array of 3 values at index 0, not a range [LO, HI] of two integers: "{\"name\":\"x\",\"refuses\":[[0,31,127]]}"`, 1, "breakdown", "a range has two ends"},
		{OpHello, `{"name":"x","refuses":[[0,"31"]]}`, request1 + `the "refuses" of the answer to hello has an array with a string at index 0, not a range [LO, HI] of two integers: "{\"name\":\"x\",\"refuses\":[[0,\"31\"]]}"`, 1, "breakdown", "ends are numbers"},
		{OpHello, `{"name":"x","refuses":[[0,31.5]]}`, request1 + `the "refuses" of the answer to hello has [0, 31.5] at index 0, not a range [LO, HI] of two integers: "{\"name\":\"x\",\"refuses\":[[0,31.5]]}"`, 1, "breakdown", "ends are integers"},
		{OpHello, `{"name":"x","refuses":[[0,31],[128,256]]}`, request1 + `the "refuses" of the answer to hello has [128, 256] at index 1, not two octet values 0-255, the first at most the second: "{\"name\":\"x\",\"refuses\":[[0,31],[128,256]]}"`, 1, "breakdown", "octets end at 255"},
		{OpHello, `{"name":"x","refuses":[[127,0]]}`, request1 + `the "refuses" of the answer to hello has [127, 0] at index 0, not two octet values 0-255, the first at most the second: "{\"name\":\"x\",\"refuses\":[[127,0]]}"`, 1, "breakdown", "a range runs upwards"},
		{OpHello, `{"name":"x","lacks":[],"error":"no"}`, request1 + `the answer to hello has both "name" and "error": "{\"name\":\"x\",\"lacks\":[],\"error\":\"no\"}"`, 1, "breakdown", "an error answer declares nothing"},
		{OpHello, `{"error":"not today"}`, `encoder answered request 1 (hello) with an error: not today`, 1, "answer", "an error answer to hello ends Start"},
		{OpHello, "hang", request1 + `no answer to hello within 300ms`, 1, "breakdown", "hello has a timeout too"},
		// Lines that are not a JSON object.
		{OpNew, `this is not JSON`, request2 + `the answer to new is not JSON (at octet 2): "this is not JSON"`, 2, "breakdown", "a line that is not JSON"},
		{OpNew, `{"a":1} x`, request2 + `the answer to new is not JSON (at octet 9): "{\"a\":1} x"`, 2, "breakdown", "more than one JSON value"},
		{OpNew, `{"error":"x"`, request2 + `the answer to new is not JSON (it ends in the middle of a value): "{\"error\":\"x\""`, 2, "breakdown", "a line cut short"},
		{OpNew, "\x1b[2J\u202e", request2 + `the answer to new is not JSON (at octet 1): "\x1b[2J\u202e"`, 2, "breakdown", "controls and bidirectional characters are escaped"},
		{OpNew, "", request2 + `the answer to new is an empty line`, 2, "breakdown", "an empty line is no answer"},
		{OpNew, "{\"error\":\"\xff\"}", request2 + `the answer to new is not UTF-8 (octet 0xff at offset 10): "{\"error\":\"\xff\"}"`, 2, "breakdown", "JSON text is UTF-8"},
		{OpNew, `{"error":"x","error":"y"}`, request2 + `the answer to new has "error" twice: "{\"error\":\"x\",\"error\":\"y\"}"`, 2, "breakdown", "a member twice"},
		// Members of the wrong type, of another answer, unknown, missing,
		// or that exclude each other.
		{OpNew, `{"name":"x"}`, request2 + `the answer to new has "name", a member of the answer to hello: "{\"name\":\"x\"}"`, 2, "breakdown", "a hello answer to new: new is answered {}"},
		{OpNew, "{\"na\u202eme\":1}", request2 + `the answer to new has "na\u202eme", a member hpack-stdio/1 does not define: "{\"na\u202eme\":1}"`, 2, "breakdown", "an unknown member, its name escaped"},
		{OpNew, `{"error":[]}`, request2 + `the "error" of the answer to new is an array, not a string: "{\"error\":[]}"`, 2, "breakdown", "error is a string"},
		{OpNew, `{"error":""}`, request2 + `the answer to new has an empty "error": an error answer says what went wrong: "{\"error\":\"\"}"`, 2, "breakdown", "an error answer says something"},
		{OpEncode, `{wire: "8286"}`, request3 + `the answer to encode is not JSON (at octet 2): "{wire: \"8286\"}"`, 3, "breakdown", "the line of issue 22"},
		{OpEncode, `"82"`, request3 + `the answer to encode is a JSON string, not a JSON object: "\"82\""`, 3, "breakdown", "the wire alone"},
		{OpEncode, `{}`, request3 + `the answer to encode is {}, the answer to new: it has none of "wire", "unsupported" and "error": "{}"`, 3, "breakdown", "an answer to new"},
		{OpEncode, `{"name":"x"}`, request3 + `the answer to encode has "name", a member of the answer to hello: "{\"name\":\"x\"}"`, 3, "breakdown", "an answer to hello"},
		{OpEncode, `{"wrie":"82"}`, request3 + `the answer to encode has "wrie", a member hpack-stdio/1 does not define: "{\"wrie\":\"82\"}"`, 3, "breakdown", "a misspelt wire"},
		{OpEncode, `{"wire":"82","hex":"yes"}`, request3 + `the answer to encode has "hex", a member hpack-stdio/1 does not define: "{\"wire\":\"82\",\"hex\":\"yes\"}"`, 3, "breakdown", "hex is no member of an encoder's answers"},
		{OpEncode, `{"wire":5}`, request3 + `the "wire" of the answer to encode is a number, not a string: "{\"wire\":5}"`, 3, "breakdown", "wire is a string"},
		{OpEncode, `{"wire":null}`, request3 + `the "wire" of the answer to encode is null, not a string: "{\"wire\":null}"`, 3, "breakdown", "null is no string"},
		{OpEncode, `{"unsupported":3}`, request3 + `the "unsupported" of the answer to encode is a number, not a string: "{\"unsupported\":3}"`, 3, "breakdown", "unsupported is a string"},
		{OpEncode, `{"unsupported":""}`, request3 + `the answer to encode has an empty "unsupported": it says why the encoder cannot express the block: "{\"unsupported\":\"\"}"`, 3, "breakdown", "unsupported says why"},
		{OpEncode, `{"wire":"82","error":"x"}`, request3 + `the answer to encode has both "wire" and "error": "{\"wire\":\"82\",\"error\":\"x\"}"`, 3, "breakdown", "a block or an error, not both"},
		{OpEncode, `{"wire":"82","unsupported":"x"}`, request3 + `the answer to encode has both "wire" and "unsupported": "{\"wire\":\"82\",\"unsupported\":\"x\"}"`, 3, "breakdown", "a block or none"},
		{OpEncode, `{"wire":"8"}`, request3 + `the answer to encode has a "wire" that is not hex (an odd number of digits, 1): "{\"wire\":\"8\"}"`, 3, "breakdown", "two digits an octet"},
		{OpEncode, `{"wire":"8g"}`, request3 + `the answer to encode has a "wire" that is not hex (a non-hex digit at offset 1): "{\"wire\":\"8g\"}"`, 3, "breakdown", "hex digits only"},
		// Answers over their bounds, cut when quoted.
		{OpNew, `{"error":"` + strings.Repeat("x", maxSmallAnswer) + `"}`, request2 + `an answer to new of more than 65536 octets`, 2, "breakdown", "a line over its bound is not read whole"},
		{OpEncode, fmt.Sprintf("wire %d", DefaultMaxWire+1), request3 + `an answer with a block of 1048577 octets: the block exceeds the per-block limit of 1048576 octets: "{\"wire\":\"` + strings.Repeat("0", MaxQuotedLine-9) + `…" (2,097,165 octets)`, 3, "breakdown", "a block over the limit, its line cut"},
		{OpEncode, fmt.Sprintf("wire %d", 2*DefaultMaxWire), request3 + `an answer of more than 2162688 octets: the block exceeds the per-block limit of 1048576 octets`, 3, "breakdown", "a line over its bound"},
		// More than one line.
		{OpNew, "{}\n{}", request2 + `the encoder wrote more than one line in answer to new, the next: "{}"`, 2, "breakdown", "a second line, found at the next request"},
		{OpNew, "{}\n", request2 + `the encoder wrote more than one line in answer to new, the next empty`, 2, "breakdown", "an empty second line"},
		// A program that stops talking.
		{OpEncode, "hang", request3 + `no answer to encode within 300ms`, 3, "breakdown", "a timeout, naming the limit"},
		{OpNew, "early", request3 + `the encoder answered encode before reading the whole request, and read no more of it within 2s`, 3, "breakdown", "an answer before the request"},
		{OpNew, "exit", request2 + `the encoder exited (exit status 3) without answering new`, 2, "breakdown", "an exit, with its status"},
		{OpEncode, "term", request3 + `the encoder was killed by signal SIGTERM without answering encode`, 3, "breakdown", "a death by a signal, naming it"},
		// An answer counts only when it is whole: a line cut short, or
		// one the program died of a signal after, is the crash.
		{OpEncode, `segv {"wire":"8`, request3 + `the encoder was killed by signal SIGSEGV in the middle of its answer to encode, a partial answer: "{\"wire\":\"8"`, 3, "breakdown", "a crash in the middle of a line"},
		{OpEncode, `segv {"wire":"82"}`, request3 + `the encoder was killed by signal SIGSEGV in the middle of its answer to encode, a partial answer: "{\"wire\":\"82\"}"`, 3, "breakdown", "a whole answer without its line feed, then a crash"},
		{OpEncode, `once {"wire":"82"}`, request4 + `the encoder was killed by signal SIGSEGV without answering encode`, 4, "breakdown", "a whole line counts; the crash at the next request"},
		{OpEncode, `exit {"wire":"82"}`, request3 + `the encoder exited (exit status 3) in the middle of its answer to encode, a partial answer: "{\"wire\":\"82\"}"`, 3, "breakdown", "a line without its end, then an exit"},
		{OpEncode, `close-stdout {"wire":"82"}`, request3 + `the encoder closed its standard output in the middle of its answer to encode, a partial answer: "{\"wire\":\"82\"}"`, 3, "breakdown", "a line without its end, the program alive"},
		{OpEncode, "close-stdout", request3 + `the encoder closed its standard output without answering encode`, 3, "breakdown", "a closed standard output"},
		{OpNew, "close-stdin", request3 + `the encoder closed its standard input (writing the encode request: broken pipe) without answering encode`, 3, "breakdown", "a closed standard input"},
		// No breakdown for the Client: the encoder answered, and runs on.
		{OpNew, `{"error":"no context today"}`, `encoder answered request 2 (new) with an error: no context today`, 2, "answer", "the encoder's own error"},
		{OpEncode, `{"error":"a\u001b[2J\u202eb"}`, "encoder answered request 3 (encode) with an error: a\\x1b[2J\\u202eb", 3, "answer", "the error's text escaped"},
		{OpEncode, `{"error":"` + longError + `"}`, "encoder answered request 3 (encode) with an error: " + longError[:maxQuotedError] + "… (1,500 octets)", 3, "answer", "a long error cut"},
		{OpEncode, `{"unsupported":"no never-index API"}`, `unsupported by the encoder: no never-index API`, 3, "unsupported", "a block the encoder cannot express"},
	}
	for _, tt := range tests {
		t.Run(tt.op+" "+tt.reason, func(t *testing.T) {
			t.Parallel()
			c, err := provoke(t, tt.op, tt.action, caseTimeout(tt.action))
			if err == nil {
				t.Fatalf("no error; want %q (%s)", tt.want, tt.reason)
			}
			got := err.Error()
			if c == nil { // Start failed
				got = strings.TrimPrefix(got, os.Args[0]+": ")
			}
			if got != tt.want {
				t.Errorf("error\n%s\nwant\n%s\n(%s)", got, tt.want, tt.reason)
			}
			var be *BreakdownError
			var ae *AnswerError
			var ue *UnsupportedError
			switch tt.kind {
			case "breakdown":
				if !errors.As(err, &be) || be.Request != tt.request || be.Error() != tt.want {
					t.Errorf("error %#v; want a *BreakdownError of request %d", err, tt.request)
				}
			case "answer":
				if !errors.As(err, &ae) || ae.Request != tt.request || errors.As(err, &be) {
					t.Errorf("error %#v; want an *AnswerError of request %d", err, tt.request)
				}
			case "unsupported":
				if !errors.As(err, &ue) || errors.As(err, &be) {
					t.Errorf("error %#v; want an *UnsupportedError", err)
				}
			}
			if be != nil && (len(be.Line) > MaxQuotedLine || be.LineLen < len(be.Line)) {
				t.Errorf("Line of %d octets, LineLen %d; want at most %d octets of the line", len(be.Line), be.LineLen, MaxQuotedLine)
			}
			if c == nil {
				return
			}
			if stopped := c.Err() != nil; stopped != (tt.kind == "breakdown") {
				t.Errorf("stopped = %t after %q; want %t: a breakdown kills the program, an answer does not", stopped, err, !stopped)
			}
			if tt.kind == "breakdown" {
				checkReaped(t, c.proc)
				if err := c.New(); err == nil || !strings.HasPrefix(err.Error(), "no new request sent: "+tt.want) {
					t.Errorf("New after the breakdown: error %v; want one saying nothing was sent, and why", err)
				}
			}
		})
	}
}

// checkReaped waits for the program of p, stopped, to be reaped with its
// group killed, which stopping it does at once (a hang is for go test's
// -timeout to catch), and fails the test if its pid still takes a signal.
func checkReaped(t *testing.T, p *process) {
	t.Helper()
	<-p.exited
	pid := p.group.Cmd.Process.Pid
	if q, err := os.FindProcess(pid); err == nil && q.Signal(syscall.Signal(0)) == nil {
		t.Errorf("the program, pid %d, takes signal 0 after it was stopped and reaped", pid)
	}
}

// TestBreakdownTimeoutIs checks that a timeout is a *BreakdownError that
// matches ErrTimeout, and that the other breakdowns do not.
func TestBreakdownTimeoutIs(t *testing.T) {
	_, err := provoke(t, OpEncode, "hang", provokeTimeout)
	var be *BreakdownError
	if !errors.Is(err, ErrTimeout) || !errors.As(err, &be) {
		t.Errorf("a timeout: error %#v; want a *BreakdownError matching ErrTimeout", err)
	}
	if _, err := provoke(t, OpEncode, "exit", provokeTimeout); errors.Is(err, ErrTimeout) {
		t.Errorf("an exit: error %v matches ErrTimeout", err)
	}
	_, err = provoke(t, OpEncode, fmt.Sprintf("wire %d", DefaultMaxWire+1), slowTimeout)
	var wle *WireLimitError
	if !errors.As(err, &wle) || wle.Wire != DefaultMaxWire+1 {
		t.Errorf("a block over the limit: error %#v; want a *WireLimitError inside", err)
	}
}

func TestQuoteCut(t *testing.T) {
	tests := []struct {
		line  string
		max   int
		want  string
		label string
	}{
		{"abc", 10, `"abc"`, "short: whole, no length"},
		{"abcdef", 3, `"abc…" (6 octets)`, "cut, with the whole length"},
		{"ab\u00e9cd", 3, `"ab…" (6 octets)`, "cut before a rune, not inside it"},
		{strings.Repeat("x", 1234), 2, `"xx…" (1,234 octets)`, "thousands grouped"},
		{"\x1b\u202e\"\\", 10, `"\x1b\u202e\"\\"`, "controls, bidi, quotes and backslashes escaped"},
	}
	for _, tt := range tests {
		if got := quoteCut(cut([]byte(tt.line), tt.max), len(tt.line)); got != tt.want {
			t.Errorf("%s: quoteCut(cut(%q, %d)) = %s; want %s", tt.label, tt.line, tt.max, got, tt.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2097165: "2,097,165", 123456789: "123,456,789"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q; want %q", n, got, want)
		}
	}
}
