package hpackstdio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// helperEnv, set to 1, makes the test binary an encoder program for the
// Client tests: the helper named by its first argument.
const helperEnv = "HPACKSTDIO_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(runHelper(os.Args[1]))
	}
	// The helpers are this binary, started by the tests with the variable
	// inherited.
	os.Setenv(helperEnv, "1")
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// scripted are helpers that answer each op with a fixed line or action
// (see runScript).
var scripted = map[string]map[string]string{
	"exit-on-new": {OpHello: `{"name":"x"}`, OpNew: "exit"},
	"hang":        {OpHello: `{"name":"x"}`, OpNew: `{}`, OpEncode: "hang"},
	"extra":       {OpHello: `{"name":"x","binary":false,"version":"2","hex":"yes"}`, OpNew: `{}`, OpEncode: `{"wire":"82"}`},
	"long-hello":  {OpHello: `{"name":"` + strings.Repeat("x", maxSmallAnswer) + `"}`},
	"long-error":  {OpHello: `{"name":"x"}`, OpNew: `{"error":"` + strings.Repeat("x", maxSmallAnswer-20) + `"}`},
	"two-answers": {OpHello: `{"name":"x"}`, OpNew: "{}\n{}"},
	"early":       {OpHello: `{"name":"x"}`, OpNew: "early"},
}

// runHelper is the encoder program named mode and returns its exit status.
// Mode "script" answers hello, new and encode as its next three arguments
// say (see runScript).
func runHelper(mode string) int {
	switch mode {
	case "sleeper":
		return runSleeper()
	case "slow-hello":
		return runSlowHello(os.Args[2])
	case "spinner":
		return runSpinner()
	case "fork":
		return runFork(os.Args[2])
	case "wire":
		return runWire(os.Args[2])
	case "echo", "echo-binary":
		s := &Server{Name: "echo", NewEncoder: newEcho, Binary: mode == "echo-binary", Complete: true}
		if err := s.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "echo-lacks":
		s := &Server{Name: "echo", NewEncoder: newEcho, Binary: true, Complete: true, Lacks: everyLack}
		if err := s.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "script":
		return runScript(mode, map[string]string{OpHello: os.Args[2], OpNew: os.Args[3], OpEncode: os.Args[4]})
	case "decscript":
		return runScript(mode, map[string]string{OpHello: os.Args[2], OpNew: os.Args[3], OpDecode: os.Args[4]})
	case "qscript", "qdecscript":
		return runScript(mode, qScriptAnswers(os.Args[2:]))
	}
	if run, ok := decoderHelpers[mode]; ok {
		return run()
	}
	answers, ok := scripted[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "no helper %q\n", mode)
		return 2
	}
	return runScript(mode, answers)
}

// scriptArgs returns the arguments of a helper that answers hello, new
// and encode as runScript says.
func scriptArgs(hello, new, encode string) []string {
	return []string{os.Args[0], "script", hello, new, encode}
}

// runScript answers each request with answers[op], a line to write (two,
// if it holds a line feed) or an action: "hang" never answers; "exit"
// writes to stderr and exits with status 3; "term" dies of SIGTERM;
// "segv" dies of SIGSEGV; "close-stdout" closes its standard output and
// hangs; "close-stdin" closes its standard input, answers {} and hangs;
// "early" answers {}, then answers the next request having read one
// octet of it;
// "wire N" answers with a block of N zero octets, and "section N" with
// a QPACK section of as many; "headers N" answers a
// decode request with one field whose value is N octets. "segv TEXT",
// "exit TEXT" and "close-stdout TEXT" write TEXT without a line feed
// first, the start of a line; "once TEXT" answers TEXT to the first
// request of its op and dies of SIGSEGV at the next.
func runScript(mode string, answers map[string]string) int {
	answered := map[string]bool{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		op, err := scriptOp(mode, sc.Bytes())
		if err != nil {
			fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
			return 2
		}
		req := struct{ Op string }{op}
		answer := answers[req.Op]
		for _, action := range []string{"segv ", "exit ", "close-stdout "} {
			if start, ok := strings.CutPrefix(answer, action); ok {
				os.Stdout.WriteString(start)
				answer = strings.TrimSpace(action)
			}
		}
		if line, ok := strings.CutPrefix(answer, "once "); ok {
			answer = line
			if answered[req.Op] {
				answer = "segv"
			}
			answered[req.Op] = true
		}
		switch {
		case answer == "hang":
			time.Sleep(time.Hour)
		case answer == "exit":
			fmt.Fprintln(os.Stderr, "helper: exiting on", req.Op)
			return 3
		case answer == "term":
			signal.Reset(syscall.SIGTERM)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(syscall.SIGTERM)
			}
			time.Sleep(time.Hour)
		case answer == "segv":
			return dieOfSIGSEGV(mode, req.Op)
		case answer == "close-stdout":
			os.Stdout.Close()
			time.Sleep(time.Hour)
		case answer == "close-stdin":
			// Before the answer, so that the next request finds no reader.
			os.Stdin.Close()
			fmt.Println(`{}`)
			time.Sleep(time.Hour)
		case answer == "early":
			// Answers, and answers the next request once its first octet
			// arrives, before reading the rest. Nothing follows this
			// request until it is answered: the scanner holds none of the
			// next.
			fmt.Println(`{}`)
			if _, err := os.Stdin.Read(make([]byte, 1)); err != nil {
				fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
				return 2
			}
			fmt.Println(`{"wire":"82"}`)
			time.Sleep(time.Hour)
		case strings.HasPrefix(answer, "wire "), strings.HasPrefix(answer, "section "):
			member, count, _ := strings.Cut(answer, " ")
			n, err := strconv.Atoi(count)
			if err != nil {
				fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
				return 2
			}
			fmt.Println(`{"` + member + `":"` + strings.Repeat("00", n) + `"}`)
		case strings.HasPrefix(answer, "headers "):
			n, err := strconv.Atoi(strings.TrimPrefix(answer, "headers "))
			if err != nil {
				fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
				return 2
			}
			fmt.Println(`{"headers":[["x","` + strings.Repeat("v", n) + `"]],"never_indexed":[false]}`)
		default:
			fmt.Println(answer)
		}
	}
	return 0
}

// dieOfSIGSEGV says so on standard error and dies of SIGSEGV, as a
// crashing C program does. The Go runtime turns a SIGSEGV into a panic
// and an exit, so a shell takes the process over and sends the signal to
// itself.
func dieOfSIGSEGV(mode, op string) int {
	fmt.Fprintf(os.Stderr, "helper %s: crashing on %s\n", mode, op)
	err := syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -SEGV $$"}, os.Environ())
	fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
	return 2
}

// start starts the helper mode, for the test's lifetime.
func start(t *testing.T, mode string, opts Options) *Client {
	t.Helper()
	c, err := Start([]string{os.Args[0], mode}, startOptions(opts))
	if err != nil {
		t.Fatalf("Start %s: %v", mode, err)
	}
	t.Cleanup(func() { c.Close() })
	if opts.Timeout > 0 {
		c.timeout = opts.Timeout
	} else {
		c.timeout = DefaultTimeout
	}
	return c
}

// startOptions gives hello the time a test binary under -race on a loaded
// machine can take to start; the test's own timeout applies to the
// requests after it.
func startOptions(opts Options) Options {
	opts.Timeout = max(opts.Timeout, 30*time.Second)
	return opts
}

// TestClientBinary checks that a client of an encoder offering the binary
// form sends every octet value, sizes and flags as they are.
func TestClientBinary(t *testing.T) {
	c := start(t, "echo-binary", Options{})
	if c.Name() != "echo" || !c.Binary() {
		t.Fatalf("Name, Binary = %q, %t; want echo, true", c.Name(), c.Binary())
	}
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	sizes := []uint32{0, 4096}
	fields := []Field{{Name: string(all), Value: "\xc0\xc1\xf5\xff", Sensitive: true}, {Name: "a", Value: ""}}
	got, err := c.Encode([]byte("prefix"), sizes, fields)
	if want := append([]byte("prefix"), echoWire(sizes, fields...)...); err != nil || !bytes.Equal(got, want) {
		t.Errorf("Encode = %q, %v; want %q appended to dst", got, err, want)
	}
	// An empty block: no sizes, no fields, the empty string as wire.
	if got, err := c.Encode(nil, nil, nil); err != nil || len(got) != 0 {
		t.Errorf("Encode of an empty block = %q, %v; want no octets", got, err)
	}
}

// TestClientUTF8 checks a client of an encoder that did not offer the
// binary form: UTF-8 goes through, other octets are refused before
// anything is sent, and the program keeps running.
func TestClientUTF8(t *testing.T) {
	c := start(t, "echo", Options{})
	if c.Binary() {
		t.Fatal("Binary() = true for an encoder that did not offer it")
	}
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	fields := []Field{{Name: "x-é", Value: "\U0001F600", Sensitive: true}}
	if got, err := c.Encode(nil, []uint32{100}, fields); err != nil || !bytes.Equal(got, echoWire([]uint32{100}, fields...)) {
		t.Errorf("Encode of UTF-8 = %q, %v", got, err)
	}
	_, err := c.Encode(nil, nil, []Field{{Name: "ok", Value: "v"}, {Name: "x-octets", Value: "a\xffb"}})
	if err == nil || !strings.Contains(err.Error(), `header 1 (name "x-octets")`) {
		t.Errorf("Encode of 0xff without the binary form: error %v; want one naming header 1", err)
	}
	if c.Err() != nil {
		t.Errorf("the refusal stopped the program: %v", c.Err())
	}
	if _, err := c.Encode(nil, nil, fields); err != nil {
		t.Errorf("Encode after the refusal: %v", err)
	}
}

// TestClientTimeout checks that a timeout matches ErrTimeout.
func TestClientTimeout(t *testing.T) {
	c := start(t, "hang", Options{Timeout: 100 * time.Millisecond})
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Encode(nil, nil, nil); !errors.Is(err, ErrTimeout) {
		t.Errorf("Encode of a hanging program: error %v; want ErrTimeout", err)
	}
}

// TestClientIgnoresUnknownMembers checks that an answer to hello with
// members the protocol does not define, offers of extensions the client
// does not know, is still understood, and that binary:false is no offer.
func TestClientIgnoresUnknownMembers(t *testing.T) {
	c := start(t, "extra", Options{})
	if c.Binary() {
		t.Error(`Binary() = true after "binary":false`)
	}
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Encode(nil, nil, nil); err != nil || !bytes.Equal(got, []byte{0x82}) {
		t.Errorf("Encode = %x, %v; want 82", got, err)
	}
}

// everyLack declares every lack there is, and octets at both ends.
var everyLack = Lacks{Names: EncoderLackNames,
	Refuses: []OctetRange{{Lo: 0, Hi: 8}, {Lo: 127, Hi: 127}, {Lo: 255, Hi: 255}}}

// TestClientLacks checks that what a Server declares is what the Client
// of its program reports, and that a program declaring nothing lacks
// nothing.
func TestClientLacks(t *testing.T) {
	c := start(t, "echo-lacks", Options{})
	if got := c.Lacks(); !reflect.DeepEqual(got, everyLack) {
		t.Errorf("Lacks() = %+v; want %+v", got, everyLack)
	}
	if got := start(t, "echo", Options{}).Lacks(); len(got.Names) > 0 || len(got.Refuses) > 0 {
		t.Errorf("Lacks() of a program declaring nothing = %+v; want none", got)
	}
}

// syncBuffer is a bytes.Buffer safe for the goroutine exec copies
// standard error with.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestClientStderr checks that what the program wrote to its standard
// error before it died is all in Options.Stderr once the request failed.
func TestClientStderr(t *testing.T) {
	var stderr syncBuffer
	c := start(t, "exit-on-new", Options{Stderr: &stderr})
	if err := c.New(); err == nil {
		t.Fatal("New of a program that exits: no error")
	}
	if got := stderr.String(); got != "helper: exiting on new\n" {
		t.Errorf("stderr %q; want the helper's last words", got)
	}
}

func TestClientClose(t *testing.T) {
	c := start(t, "echo", Options{})
	c.Close()
	c.Close()
	if err := c.New(); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("New after Close: error %v; want one saying the program was closed", err)
	}
}

func TestStartErrors(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{nil, "no program to start"},
		{[]string{"/nonexistent/encoder"}, "starting /nonexistent/encoder"},
	}
	for _, tt := range tests {
		if _, err := Start(tt.argv, Options{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Start(%q): error %v; want one containing %q", tt.argv, err, tt.want)
		}
	}
}

// TestClientMaxWire checks the bound on the block of an encode answer at
// its edge, for a line read whole and for one refused unread, and that an
// answer over it kills the program.
func TestClientMaxWire(t *testing.T) {
	tests := []struct {
		maxWire, wire int
		want          *WireLimitError // nil for an answer accepted
		reason        string
	}{
		{1024, 1024, nil, "a block at the limit"},
		{1024, 1025, &WireLimitError{Wire: 1025, Limit: 1024}, "one octet over, in a line within its bound"},
		{1024, 1 << 20, &WireLimitError{Line: 2*1024 + answerAllowance, Limit: 1024}, "a line over its bound is not read to its end"},
		{0, DefaultMaxWire, nil, "the default limit"},
		{0, DefaultMaxWire + 1, &WireLimitError{Wire: DefaultMaxWire + 1, Limit: DefaultMaxWire}, "over the default"},
	}
	for _, tt := range tests {
		c, err := Start([]string{os.Args[0], "wire", strconv.Itoa(tt.wire)}, Options{MaxWire: tt.maxWire})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.New(); err != nil {
			t.Fatal(err)
		}
		got, err := c.Encode(nil, nil, nil)
		var wle *WireLimitError
		switch {
		case tt.want == nil && (err != nil || len(got) != tt.wire):
			t.Errorf("MaxWire %d, block of %d: Encode = %d octets, %v; want the block (%s)", tt.maxWire, tt.wire, len(got), err, tt.reason)
		case tt.want != nil && !errors.As(err, &wle):
			t.Errorf("MaxWire %d, block of %d: Encode error %v; want a *WireLimitError (%s)", tt.maxWire, tt.wire, err, tt.reason)
		case tt.want != nil && *wle != *tt.want:
			t.Errorf("MaxWire %d, block of %d: %+v; want %+v (%s)", tt.maxWire, tt.wire, *wle, *tt.want, tt.reason)
		case tt.want != nil && c.Err() == nil:
			t.Errorf("MaxWire %d, block of %d: the program runs on after %v", tt.maxWire, tt.wire, err)
		}
		c.Close()
	}
	want := "an answer of more than 67584 octets: the block exceeds the per-block limit of 1024 octets"
	if got := (&WireLimitError{Line: 67584, Limit: 1024}).Error(); got != want {
		t.Errorf("WireLimitError.Error() = %q; want %q", got, want)
	}
}

// TestClientSmallAnswers checks the bound on answers to hello and new:
// an error answer just within it is read, a name over it is refused.
func TestClientSmallAnswers(t *testing.T) {
	_, err := Start([]string{os.Args[0], "long-hello"}, Options{})
	if want := fmt.Sprintf("encoder broke hpack-stdio at request 1: an answer to hello of more than %d octets", maxSmallAnswer); err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Start of a program with a long name: error %v; want one containing %q", err, want)
	}
	c := start(t, "long-error", Options{})
	var ae *AnswerError
	if err := c.New(); !errors.As(err, &ae) || len(ae.Text) != maxSmallAnswer-20 {
		t.Errorf("New answered by a long error: %.80v; want the whole error answer", err)
	}
}

// TestClientExtraLine checks that a line written beyond the answer is
// not taken as the answer to the next request.
func TestClientExtraLine(t *testing.T) {
	c := start(t, "two-answers", Options{})
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	if err := c.New(); err == nil || err.Error() != `encoder broke hpack-stdio at request 2: the encoder wrote more than one line in answer to new, the next: "{}"` {
		t.Errorf("New after an answer of two lines: error %v; want one saying so", err)
	}
	if c.Err() == nil {
		t.Error("the program runs on after answering twice")
	}
}

// TestClientAnswerBeforeRequest checks that an answer that comes before
// its request is read whole is not taken while the request is still
// being written: the next request would be written over its rest.
func TestClientAnswerBeforeRequest(t *testing.T) {
	c := start(t, "early", Options{Timeout: earlyTimeout})
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	// More than a pipe holds, so that the write waits for the encoder.
	big := []Field{{Name: "x-big", Value: strings.Repeat("v", 1<<20)}}
	got, err := c.Encode(nil, nil, big)
	const want = "the encoder answered encode before reading the whole request"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Encode = %x, %v; want an error containing %q", got, err, want)
	}
}
