package hpackstdio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// waitDelay bounds how long a stopped program's standard error is still
// copied after it exits, should a descendant hold the pipe open.
const waitDelay = time.Second

// process is one running encoder program and the goroutines around it.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File      // the write end of the program's standard input
	stdout *os.File      // the read end of its standard output
	lines  chan []byte   // lines of stdout; closed at the end of it
	readEr error         // why lines was closed, once it is
	exited chan struct{} // closed once Wait has returned
	quit   chan struct{} // closed by kill
	once   sync.Once
}

// startProcess starts argv with pipes to its standard input and output;
// its standard error goes to stderr, or nowhere when stderr is nil.
//
// The pipes are the program's own files rather than exec's copying
// goroutines, so that Wait never closes standard output under an answer
// the program wrote just before it exited.
func startProcess(argv []string, stderr io.Writer) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	cmd.WaitDelay = waitDelay
	err = cmd.Start()
	// The program holds its own copies of its ends of the pipes.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &process{
		cmd:    cmd,
		stdin:  inW,
		stdout: outR,
		lines:  make(chan []byte),
		exited: make(chan struct{}),
		quit:   make(chan struct{}),
	}
	go p.read()
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// read passes standard output to lines, one line at a time.
func (p *process) read() {
	defer close(p.lines)
	r := bufio.NewReaderSize(p.stdout, 64<<10)
	for {
		line, err := readLine(r)
		if err != nil {
			p.readEr = err
			return
		}
		select {
		case p.lines <- line:
		case <-p.quit:
			return
		}
	}
}

// readLine reads one line of at most MaxLine octets, without its end.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, fmt.Errorf("a line of more than %d octets", MaxLine)
		}
		if !isPrefix {
			return line, nil
		}
	}
}

// exchange writes one request line for op and returns the line answering
// it, within timeout. It does not stop the program on failure: the Client
// does.
func (p *process) exchange(op string, request []byte, timeout time.Duration) ([]byte, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	data := append(request[:len(request):len(request)], '\n')
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(data)
		written <- err
	}()
	for {
		select {
		case err := <-written:
			if err != nil {
				return nil, fmt.Errorf("writing the %s request: %v (the encoder exited?)%s", op, err, p.exitNote())
			}
			written = nil
		case line, ok := <-p.lines:
			if !ok {
				reason := "the encoder closed its standard output"
				if p.readEr != nil && !errors.Is(p.readEr, io.EOF) {
					reason = "reading the encoder's output: " + p.readEr.Error()
				}
				return nil, fmt.Errorf("no answer to %s: %s%s", op, reason, p.exitNote())
			}
			return line, nil
		case <-timer.C:
			return nil, fmt.Errorf("no answer to %s within %v: %w", op, timeout, ErrTimeout)
		}
	}
}

// exitNote describes how the program exited, when it has within a moment.
func (p *process) exitNote() string {
	select {
	case <-p.exited:
	case <-time.After(200 * time.Millisecond):
		return ""
	}
	if st := p.cmd.ProcessState; st != nil {
		return " (" + st.String() + ")"
	}
	return ""
}

// kill kills the program and waits, a bounded time, for its standard
// error to be copied to the end.
func (p *process) kill() {
	p.once.Do(func() {
		close(p.quit)
		p.stdin.Close()
		p.cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(2 * waitDelay):
		}
		p.stdout.Close()
	})
}
