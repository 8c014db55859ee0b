// Command stdioenc is a misbehaving hpack-stdio/1 encoder for the
// certifier's tests: a broken encoder from certify/internal/broken, and
// optionally a process that hangs, crashes, floods stderr, prints garbage
// or lies about the fields it encoded.
//
// It offers the binary-safe form unless -utf8-only is set, and by default
// (-validate) answers with an error any request that lacks a member the
// protocol defines or uses the form hello did not negotiate, so that the
// tests prove the certifier's requests complete. -log FILE writes every
// request ("> " line) and answer ("< " line) to FILE.
//
// A library without a never-index API is played two ways: -no-never-index
// answers {"unsupported": ...} to every block with a sensitive field, and
// -declare-no-never-index declares the lack in the answer to hello and
// sends such fields without the mark.
//
// -fork N starts N copies of itself in -sleeper mode that inherit its
// standard input, output and error and outlive it unless killed with its
// process group; -pids FILE appends their pids to FILE, one a line. A
// sleeper sleeps ten minutes, ignoring SIGPIPE; once its parent is gone it
// writes an answer-like line to standard output, which the certifier must
// never read as an answer.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/source/stdio"
)

var (
	bugName    = flag.String("bug", "none", "bug of the encoder: "+strings.Join(broken.Names(), ", "))
	hangAfter  = flag.Int("hang-after", -1, "stop answering after this many encode requests")
	crashAfter = flag.Int("crash-after", -1, "exit with status 3 after this many encode requests")
	noisy      = flag.Bool("noisy", false, "write 100 KiB to stderr on every request")
	garbage    = flag.Bool("garbage", false, "answer encode requests with a line that is not JSON")
	noNever    = flag.Bool("no-never-index", false, `answer {"unsupported": ...} to a block with a sensitive field, as an adapter around a library without a never-index API does`)
	declNever  = flag.Bool("declare-no-never-index", false, `declare "lacks":["never-index"] in the answer to hello, and encode sensitive fields as if they were not`)
	lie        = flag.Bool("lie", false, "encode other values than the ones asked for")
	noHello    = flag.Bool("no-hello", false, "never answer anything")
	utf8Only   = flag.Bool("utf8-only", false, "do not offer the binary-safe form in the answer to hello")
	validate   = flag.Bool("validate", true, "answer with an error any request that is not complete, or not in the negotiated form")
	logFile    = flag.String("log", "", "append every request and answer line to this file")
	bigWire    = flag.Int("big-wire", -1, "answer every encode request with a block of this many zero octets")
	stderrMiB  = flag.Int("stderr-mib", 0, "write this many MiB to stderr on every request")
	fork       = flag.Int("fork", 0, "start this many sleepers holding stdin, stdout and stderr")
	pidFile    = flag.String("pids", "", "append the pid of every sleeper to this file")
	sleeper    = flag.Bool("sleeper", false, "be a sleeper (see -fork)")
)

// misbehaving wraps an encoder with the misbehaviour the flags ask for.
type misbehaving struct {
	enc     certify.Encoder
	encodes *int
}

func (m *misbehaving) SetMaxDynamicTableSize(n uint32) error { return m.enc.SetMaxDynamicTableSize(n) }

func (m *misbehaving) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	*m.encodes++
	if *noisy {
		fmt.Fprintln(os.Stderr, strings.Repeat("noise ", 100<<10/6))
	}
	if *stderrMiB > 0 {
		mib := []byte(strings.Repeat("flood\n", 1<<20/6+1)[:1<<20])
		for range *stderrMiB {
			os.Stderr.Write(mib)
		}
	}
	if *hangAfter >= 0 && *m.encodes > *hangAfter {
		fmt.Fprintln(os.Stderr, "stdioenc: hanging")
		time.Sleep(time.Hour)
	}
	if *crashAfter >= 0 && *m.encodes > *crashAfter {
		fmt.Fprintln(os.Stderr, "stdioenc: simulated crash")
		os.Exit(3)
	}
	if *garbage {
		fmt.Println("this is not JSON")
	}
	if *bigWire >= 0 {
		return append(dst, make([]byte, *bigWire)...), nil
	}
	if *noNever && slices.ContainsFunc(fields, func(f certify.Field) bool { return f.Sensitive }) {
		return dst, &hpackstdio.UnsupportedError{Reason: "the library has no never-index API"}
	}
	if *declNever {
		unmarked := make([]certify.Field, len(fields))
		for i, f := range fields {
			unmarked[i] = certify.Field{Name: f.Name, Value: f.Value}
		}
		fields = unmarked
	}
	if *lie {
		lied := make([]certify.Field, len(fields))
		for i, f := range fields {
			lied[i] = certify.Field{Name: f.Name, Value: f.Value + "!", Sensitive: f.Sensitive}
		}
		fields = lied
	}
	return m.enc.EncodeBlock(dst, fields)
}

func main() {
	flag.Parse()
	if *sleeper {
		sleep()
		return
	}
	if err := startSleepers(*fork, *pidFile); err != nil {
		fmt.Fprintln(os.Stderr, "stdioenc:", err)
		os.Exit(2)
	}
	bug, err := broken.ParseBug(*bugName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *noHello {
		bufio.NewReader(os.Stdin).ReadString('\n')
		time.Sleep(time.Hour)
	}
	var log *os.File
	if *logFile != "" {
		if log, err = os.OpenFile(*logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "stdioenc:", err)
			os.Exit(2)
		}
	}
	encodes := 0
	err = stdio.Serve(os.Stdin, os.Stdout, "stdioenc "+bug.String(), func() certify.Encoder {
		return &misbehaving{enc: broken.New(bug), encodes: &encodes}
	}, func(s *hpackstdio.Server) {
		s.Binary = !*utf8Only
		s.Complete = *validate
		if log != nil {
			s.Log = log
		}
	}, stdio.DeclareLacks(certify.Lacks{NeverIndex: *declNever}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdioenc:", err)
		os.Exit(1)
	}
}

// startSleepers starts n sleepers holding this program's standard input,
// output and error, and appends their pids to pidFile, if set.
func startSleepers(n int, pidFile string) error {
	if n == 0 {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var pids strings.Builder
	for range n {
		cmd := exec.Command(self, "-sleeper")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			return err
		}
		fmt.Fprintln(&pids, cmd.Process.Pid)
	}
	if pidFile == "" {
		return nil
	}
	f, err := os.OpenFile(pidFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(pids.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sleep is the sleeper: see the package doc.
func sleep() {
	signal.Ignore(syscall.SIGPIPE)
	parent := os.Getppid()
	end := time.Now().Add(10 * time.Minute)
	for os.Getppid() == parent && time.Now().Before(end) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	fmt.Println(`{"wire":"83"}`)
	time.Sleep(time.Until(end))
}
