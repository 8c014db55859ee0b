package hpackstdio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runSleeper is a descendant left behind by an encoder, holding its
// standard input, output and error: it sleeps, and once its parent is
// gone it writes an answer-like line to standard output, which must never
// be taken for an answer. It ignores SIGPIPE, so that only a kill ends it
// before its ten minutes are up.
func runSleeper() int {
	signal.Ignore(syscall.SIGPIPE)
	parent := os.Getppid()
	end := time.Now().Add(10 * time.Minute)
	for os.Getppid() == parent && time.Now().Before(end) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	fmt.Println(`{"wire":"83"}`)
	time.Sleep(time.Until(end))
	return 0
}

// runFork starts a sleeper that inherits its standard input, output and
// error, names it in the answer to hello ("fork PID"), and answers encode
// as onEncode says: "hang" never answers, "exit" exits with status 3, and
// anything else answers with the block 82.
func runFork(onEncode string) int {
	sleeper := exec.Command(os.Args[0], "sleeper")
	sleeper.Stdin, sleeper.Stdout, sleeper.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := sleeper.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "helper fork:", err)
		return 2
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		req, err := ParseRequest(sc.Bytes(), true)
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper fork:", err)
			return 2
		}
		switch {
		case req.Op == OpHello:
			fmt.Printf(`{"name":"fork %d"}`+"\n", sleeper.Process.Pid)
		case req.Op == OpNew:
			fmt.Println(`{}`)
		case onEncode == "hang":
			time.Sleep(time.Hour)
		case onEncode == "exit":
			return 3
		default:
			fmt.Println(`{"wire":"82"}`)
		}
	}
	return 0
}

// runWire answers every encode with a block of n zero octets, n given in
// decimal by arg.
func runWire(arg string) int {
	n, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper wire:", err)
		return 2
	}
	w := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		req, err := ParseRequest(sc.Bytes(), true)
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper wire:", err)
			return 2
		}
		switch req.Op {
		case OpHello:
			w.WriteString(`{"name":"wire"}`)
		case OpNew:
			w.WriteString(`{}`)
		case OpEncode:
			w.WriteString(`{"wire":"` + strings.Repeat("00", n) + `"}`)
		}
		w.WriteByte('\n')
		if w.Flush() != nil {
			return 1
		}
	}
	return 0
}

// needProc skips a test that watches processes through /proc where there
// is none.
func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc on %s to watch processes in", runtime.GOOS)
	}
}

// procAlive reports whether pid is a running process, not a zombie, whose
// command line contains mark (so that a reused pid is not taken for it).
func procAlive(pid int, mark string) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return err == nil && bytes.Contains(cmdline, []byte(mark))
}

// waitGone waits for every process of pids whose command line holds mark
// to be gone, killed with its group. The kill is sent before the call and
// takes no time a test could bound on a loaded machine: a process that
// survives it is a hang, for go test's -timeout to catch and name.
func waitGone(pids []int, mark string) {
	for slices.ContainsFunc(pids, func(pid int) bool { return procAlive(pid, mark) }) {
		time.Sleep(10 * time.Millisecond)
	}
}

// startFork starts the fork helper and returns it with its sleeper's pid.
func startFork(t *testing.T, onEncode string, opts Options) (*Client, int) {
	t.Helper()
	c, err := Start([]string{os.Args[0], "fork", onEncode}, startOptions(opts))
	if err != nil {
		t.Fatalf("Start fork %s: %v", onEncode, err)
	}
	t.Cleanup(func() { c.Close() })
	if opts.Timeout > 0 {
		c.timeout = opts.Timeout
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(c.Name(), "fork "))
	if err != nil {
		t.Fatalf("hello named %q; want fork and the sleeper's pid", c.Name())
	}
	// Between its fork and its exec the sleeper still has the parent's
	// command line: wait for the exec, which nothing but a kill stops
	// once hello is answered.
	for !procAlive(pid, "sleeper") {
		time.Sleep(10 * time.Millisecond)
	}
	return c, pid
}

// TestProcessGroupKilled drives a program that leaves a descendant
// holding its pipes, and checks that closing it, a timeout and its exit
// each kill the descendant, that none waits for the pipes it holds (a
// wait would be a hang, for go test's -timeout), that the errors say
// what happened, and that what the descendant writes after the program
// exited is not taken as an answer.
func TestProcessGroupKilled(t *testing.T) {
	needProc(t)
	t.Run("close", func(t *testing.T) {
		c, pid := startFork(t, "answer", Options{Timeout: 10 * time.Second})
		if err := c.New(); err != nil {
			t.Fatal(err)
		}
		if got, err := c.Encode(nil, nil, nil); err != nil || !bytes.Equal(got, []byte{0x82}) {
			t.Fatalf("Encode = %x, %v; want 82", got, err)
		}
		c.Close()
		checkReaped(t, c.proc)
		waitGone([]int{pid}, "sleeper")
	})
	t.Run("timeout", func(t *testing.T) {
		c, pid := startFork(t, "hang", Options{Timeout: 300 * time.Millisecond})
		if err := c.New(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Encode(nil, nil, nil); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no answer to encode within 300ms") {
			t.Errorf("Encode of a hanging program: error %v; want a timeout naming it", err)
		}
		checkReaped(t, c.proc)
		waitGone([]int{pid}, "sleeper") // before Close
	})
	t.Run("exit", func(t *testing.T) {
		c, pid := startFork(t, "exit", Options{Timeout: 10 * time.Second})
		if err := c.New(); err != nil {
			t.Fatal(err)
		}
		got, err := c.Encode(nil, nil, nil)
		const want = "encoder broke hpack-stdio at request 3: the encoder exited (exit status 3) without answering encode"
		if err == nil || err.Error() != want {
			t.Errorf("Encode of a program that exits = %x, %v; want the error %q", got, err, want)
		}
		checkReaped(t, c.proc)
		waitGone([]int{pid}, "sleeper") // before Close
	})
}

// TestKillAll checks that KillAll kills every running program with its
// group, and that their clients then say so.
func TestKillAll(t *testing.T) {
	needProc(t)
	var clients []*Client
	var pids []int
	for range 2 {
		c, pid := startFork(t, "answer", Options{})
		clients = append(clients, c)
		pids = append(pids, pid, c.proc.group.Cmd.Process.Pid)
	}
	KillAll()
	waitGone(pids, os.Args[0]) // leaders and sleepers
	for i, c := range clients {
		if err := c.New(); err == nil || !strings.Contains(err.Error(), "the encoder was killed by signal SIGKILL without answering new") {
			t.Errorf("client %d: New after KillAll: error %v; want one saying the encoder was killed", i, err)
		}
	}
}

// TestReadLine checks the ends of lines and the bound on their length.
func TestReadLine(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string // "" with err set, but for errUnterminated
		err   error
	}{
		{"abc\n", 3, "abc", nil},
		{"abc\r\n", 3, "abc", nil},
		{"abcd\n", 3, "", errTooLong},
		{"abcd\r\n", 3, "", errTooLong},
		{"abc", 3, "abc", errUnterminated}, // a last line without its end
		{"abcd", 3, "", errTooLong},        // and too long
		{"", 3, "", io.EOF},                // no line at all
		{"\n", 0, "", nil},                 // an empty line
		{"x\n", 0, "", errTooLong},         // over a limit of 0
		{strings.Repeat("h", 200) + "\n", 200, strings.Repeat("h", 200), nil}, // over several buffers
		{strings.Repeat("h", 201) + "\n", 200, "", errTooLong},
	}
	for _, tt := range tests {
		r := bufio.NewReaderSize(strings.NewReader(tt.in), 16)
		got, err := readLine(r, nil, tt.limit)
		if string(got) != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("readLine(%q, limit %d) = %q, %v; want %q, %v", tt.in, tt.limit, got, err, tt.want, tt.err)
		}
	}
}

// countingReader is an endless line without its end, counting what was
// read of it.
type countingReader struct{ n int }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	r.n += len(p)
	return len(p), nil
}

// TestReadLineBounded checks that a line over the limit is refused having
// read no more than the limit and one buffer of it, and that a line at the
// limit is held in no more than the limit.
func TestReadLineBounded(t *testing.T) {
	const limit, buffer = 1 << 20, 4096
	endless := &countingReader{}
	if _, err := readLine(bufio.NewReaderSize(endless, buffer), nil, limit); !errors.Is(err, errTooLong) {
		t.Fatalf("readLine of an endless line: error %v; want errTooLong", err)
	}
	if endless.n > limit+2+buffer {
		t.Errorf("readLine read %d octets of an endless line; want at most %d", endless.n, limit+2+buffer)
	}
	in := strings.Repeat("a", limit) + "\r\n"
	line, err := readLine(bufio.NewReaderSize(strings.NewReader(in), buffer), nil, limit)
	if err != nil || len(line) != limit {
		t.Fatalf("readLine of a line at the limit: %d octets, %v", len(line), err)
	}
	if cap(line) > limit+2 {
		t.Errorf("a line of %d octets held in %d; want at most %d", limit, cap(line), limit+2)
	}
}
