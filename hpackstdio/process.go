package hpackstdio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/internal/proc"
)

// stopGrace bounds how long stopping a program waits for it to be reaped
// and for its standard error to reach its end. Both are immediate once the
// process group is killed, unless a descendant left the group and still
// holds the pipe: then its pipes are closed under it.
const stopGrace = time.Second

// stdoutBuffer is the size of the buffered reader on standard output, and
// stderrBuffer the size of the writes to Options.Stderr.
const (
	stdoutBuffer = 64 << 10
	stderrBuffer = 32 << 10
)

// errTooLong is returned by readLine for a line over its limit.
var errTooLong = errors.New("hpackstdio: answer line too long")

// errUnterminated is returned by readLine, with what it read, for a last
// line that the end of input cut before its "\n": never an answer.
var errUnterminated = errors.New("hpackstdio: answer line without its end")

// lostAnswerError is the error of exchange for an answer line that does
// not count, being cut short or written by a program that then died of a
// signal: what says so, in words for a report, and line is that line.
type lostAnswerError struct {
	what string
	line []byte
}

// Error says why the line does not count, without the line.
func (e *lostAnswerError) Error() string { return e.what }

// process is one running encoder program, in a process group of its own
// where the platform has them, and the goroutines around it:
//
//   - wait reaps the program and then kills what is left of its group;
//   - read reads one line of standard output each time exchange asks;
//   - copyStderr copies standard error to Options.Stderr.
type process struct {
	role   string // "encoder" or "decoder", for the messages
	group  *proc.Group
	stdin  *os.File      // the write end of the program's standard input
	stdout *os.File      // the read end of its standard output
	stderr *os.File      // the read end of its standard error; nil when discarded
	r      *bufio.Reader // on stdout; read's alone while a read is asked
	reads  chan int      // asks read for one line of at most the given octets
	lines  chan lineRead // read's answer to each ask
	exited chan struct{} // closed once the program was reaped and its group killed
	copied chan struct{} // closed once standard error was copied to its end; nil when discarded
	quit   chan struct{} // closed by kill
	once   sync.Once
}

// lineRead is one line of standard output, or why there is none, with
// the start of a line that the end of output cut (errUnterminated).
type lineRead struct {
	line []byte
	err  error
}

// KillAll kills every program started in a process group of its own by
// this process (package internal/proc: a Client's encoders among them)
// that is still running, each with its group. It only sends signals: it
// is safe to call from any goroutine at any time, in particular from a
// signal handler of a program about to exit, whose encoders, in groups of
// their own, no longer hear the terminal's interrupt. Each Client
// affected fails its next request, saying the encoder was killed, and
// must still be closed.
func KillAll() { proc.KillAll() }

// startProcess starts argv, in a process group of its own, with pipes to
// its standard input and output; its standard error goes to stderr, or
// nowhere when stderr is nil. role, "encoder" or "decoder", names the
// program in the messages.
//
// The pipes are the program's own files rather than exec's copying
// goroutines, so that the program can be reaped, and its group killed, as
// soon as it exits, whoever else holds its pipes.
func startProcess(argv []string, stderr io.Writer, role string) (*process, error) {
	var parent, child []*os.File // our ends, and the program's
	closeAll := func(files []*os.File) {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err != nil {
			closeAll(parent)
			closeAll(child)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	parent, child = append(parent, inW), append(child, inR)
	outR, outW, err := pipe()
	if err != nil {
		return nil, err
	}
	parent, child = append(parent, outR), append(child, outW)
	// The pipes are *os.File the program holds: no copying goroutine for
	// Wait to wait for, and kill closes them.
	group := proc.Command(context.Background(), 0, argv[0], argv[1:]...)
	cmd := group.Cmd
	cmd.Stdin, cmd.Stdout = inR, outW
	var errR *os.File
	if stderr != nil {
		var errW *os.File
		if errR, errW, err = pipe(); err != nil {
			return nil, err
		}
		parent, child = append(parent, errR), append(child, errW)
		cmd.Stderr = errW
	}
	err = group.Start()
	// The program holds its own copies of its ends of the pipes.
	closeAll(child)
	if err != nil {
		closeAll(parent)
		return nil, err
	}
	p := &process{
		role:   role,
		group:  group,
		stdin:  inW,
		stdout: outR,
		stderr: errR,
		r:      bufio.NewReaderSize(outR, stdoutBuffer),
		reads:  make(chan int, 1),
		lines:  make(chan lineRead, 1),
		exited: make(chan struct{}),
		quit:   make(chan struct{}),
	}
	go p.wait()
	go p.read()
	if errR != nil {
		p.copied = make(chan struct{})
		go p.copyStderr(stderr)
	}
	return p, nil
}

// wait reaps the program, kills whatever it left in its process group
// (descendants that would otherwise hold its pipes open and outlive the
// certifier) and closes exited.
func (p *process) wait() {
	p.group.Wait()
	close(p.exited)
}

// read reads one line of standard output each time exchange asks for
// one, and stops at the first error.
func (p *process) read() {
	var buf []byte
	for {
		select {
		case limit := <-p.reads:
			line, err := readLine(p.r, buf[:0], limit)
			if err != nil {
				p.lines <- lineRead{line: line, err: err}
				return
			}
			buf = line
			p.lines <- lineRead{line: line}
		case <-p.quit:
			return
		}
	}
}

// readLine reads one line into buf and returns it without its end ("\n"
// or "\r\n"). A last line that the end of input cuts before its "\n" is
// returned with errUnterminated: a program that stops in the middle of
// a line has not answered, whatever the start says. A line
// of more than limit octets is refused with errTooLong as soon as that is
// known, having read at most limit+2 octets of it and a buffer more: no
// more of it is held, nor waited for. The line returned may reuse buf,
// and holds at most limit+2 octets of capacity it allocated.
func readLine(r *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	line := buf
	for {
		chunk, err := r.ReadSlice('\n')
		need := len(line) + len(chunk)
		if need > limit+2 { // limit octets, "\r" and "\n"
			return nil, errTooLong
		}
		if need > cap(line) {
			grown := make([]byte, len(line), min(max(2*cap(line), need), limit+2))
			copy(grown, line)
			line = grown
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			line = bytes.TrimSuffix(line[:len(line)-1], []byte{'\r'})
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			if len(line) > limit {
				return nil, errTooLong
			}
			return line, errUnterminated
		default:
			return nil, err
		}
		if len(line) > limit {
			return nil, errTooLong
		}
		return line, nil
	}
}

// copyStderr copies standard error to w until its end, in writes of at
// most stderrBuffer octets. After a failed write it goes on reading, so
// that the program never blocks on a full pipe, and drops what it reads.
func (p *process) copyStderr(w io.Writer) {
	defer close(p.copied)
	buf := make([]byte, stderrBuffer)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 && w != nil {
			if _, werr := w.Write(buf[:n]); werr != nil {
				w = nil
			}
		}
		if err != nil {
			return
		}
	}
}

// extra returns what the program wrote beyond its last answer and is
// read already: the start of a line it should not have written, up to
// its end if that is read too, and whether there is any.
func (p *process) extra() ([]byte, bool) {
	// No read is under way between two exchanges: the reader is the
	// caller's to look at.
	n := p.r.Buffered()
	b, _ := p.r.Peek(n)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = bytes.TrimSuffix(b[:i], []byte{'\r'})
	}
	return b, n > 0
}

// exchange writes one request line for op and returns the line answering
// it, of at most limit octets, once the request is written whole, all
// within timeout, not counting the time the program waited for a core
// (deadline); a longer line is errTooLong. It does not stop the
// program on failure: the Client does. An error other than errTooLong
// says what happened in words meant for a report; a *lostAnswerError
// carries the line that did not count.
//
// An answer counts only when it is whole: a line ended by its "\n", from
// a program not found dead of a signal once the line is read and the
// request written. A line that the end of output cuts, or whose program
// is found killed by a signal, is the program's crash, and the line is
// quoted as what it is. When the output ends or the program exits first,
// the verdict waits for the other, within timeout: once the program is
// dead, all it wrote is in the pipe, and its group is killed as soon as
// it is reaped, so that what is judged is what the program did, not
// which of the two was noticed first. Only a descendant that left the
// group can hold the output open past the exit: then the exit is the
// verdict, and what the descendant writes is not read.
func (p *process) exchange(op string, request []byte, limit int, timeout time.Duration) ([]byte, error) {
	timer := newDeadline(p.group.Cmd.Process.Pid, timeout)
	defer timer.end()
	data := append(request[:len(request):len(request)], '\n')
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(data)
		written <- err
	}()
	p.reads <- limit
	// The answer is returned once the request is written whole too, so
	// that the next request is never written over the rest of this one.
	lines, exited := p.lines, p.exited
	var answer []byte
	for written != nil || lines != nil {
		select {
		case err := <-written:
			if err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err // "broken pipe", without the pipe's name
				}
				return nil, p.gone(op, fmt.Sprintf("the %s closed its standard input (writing the %s request: %v)", p.role, op, err), timer.C)
			}
			written = nil
		case got := <-lines:
			if got.err != nil {
				return nil, p.readError(op, got, timer.C)
			}
			answer, lines = got.line, nil
		case <-exited:
			exited = nil
			if lines == nil {
				// The answer came first; the write ends at once, one way or
				// the other, now that nothing of the group is left to read.
				continue
			}
			select {
			case got := <-lines:
				if got.err != nil {
					return nil, p.readError(op, got, timer.C)
				}
				answer, lines = got.line, nil
			case <-timer.C:
				return nil, p.exitError(op)
			}
		case <-timer.C:
			if lines == nil {
				return nil, &timeoutError{fmt.Sprintf("the %s answered %s before reading the whole request, and read no more of it %s", p.role, op, timer.within())}
			}
			return nil, &timeoutError{fmt.Sprintf("no answer to %s %s", op, timer.within())}
		}
	}
	select {
	case <-p.exited:
		if how, signaled := p.howExited(); signaled {
			return nil, &lostAnswerError{what: fmt.Sprintf("the %s %s after its answer to %s, which does not count", p.role, how, op), line: answer}
		}
	default:
	}
	return answer, nil
}

// readError returns the error of a read of the answer to op that found no
// whole line, got.err, once the program's end is known, by deadline,
// where that decides what is said.
func (p *process) readError(op string, got lineRead, deadline <-chan time.Time) error {
	switch {
	case errors.Is(got.err, errTooLong):
		return got.err
	case errors.Is(got.err, errUnterminated):
		how := "closed its standard output"
		if p.awaitExit(deadline) {
			how, _ = p.howExited()
		}
		return &lostAnswerError{what: fmt.Sprintf("the %s %s in the middle of its answer to %s, a partial answer", p.role, how, op), line: got.line}
	case errors.Is(got.err, io.EOF):
		return p.gone(op, "the "+p.role+" closed its standard output", deadline)
	}
	return p.gone(op, fmt.Sprintf("reading the %s's standard output: %v", p.role, got.err), deadline)
}

// gone returns the error of a program that stopped talking: how it
// exited, if it does by deadline, or else what was seen.
func (p *process) gone(op, seen string, deadline <-chan time.Time) error {
	if p.awaitExit(deadline) {
		return p.exitError(op)
	}
	return fmt.Errorf("%s without answering %s", seen, op)
}

// awaitExit waits for the program to be reaped, or for deadline, and
// reports whether it was.
func (p *process) awaitExit(deadline <-chan time.Time) bool {
	select {
	case <-p.exited:
		return true
	case <-deadline:
		return false
	}
}

// exitError says how the program exited; call it once exited is closed.
func (p *process) exitError(op string) error {
	how, _ := p.howExited()
	return fmt.Errorf("the %s %s without answering %s", p.role, how, op)
}

// kill kills the program with its process group, closes its standard
// input, and waits, at most stopGrace, for it to be reaped and for its
// standard error to be copied to the end; then it closes the pipes, which
// ends the goroutines still reading them, whoever holds their other ends.
func (p *process) kill() {
	p.once.Do(func() {
		close(p.quit)
		p.group.Kill()
		p.stdin.Close()
		deadline := time.Now().Add(stopGrace)
		waitUntil(p.exited, deadline)
		if p.copied != nil {
			waitUntil(p.copied, deadline)
		}
		p.stdout.Close()
		if p.stderr != nil {
			p.stderr.Close()
		}
	})
}

// waitUntil waits for ch to be closed, or for deadline.
func waitUntil(ch <-chan struct{}, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}
