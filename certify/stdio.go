package certify

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The hpack-stdio/1 protocol drives an encoder written in any language:
// one JSON object per line each way, one answer per request.
//
//	{"op":"hello"}                                -> {"name":"my-encoder 1.2"}
//	{"op":"new"}                                  -> {}  (fresh context, table size 4096)
//	{"op":"encode","table_sizes":[0,4096],        -> {"wire":"82864188..."}
//	 "headers":[["name","value"],...],
//	 "sensitive":[false,true,...]}
//	any request                                   -> {"error":"text"} on failure
//
// table_sizes (optional) lists the SETTINGS_HEADER_TABLE_SIZE values acked
// since the previous block, in order; sensitive (optional) marks fields the
// encoder must never index. Names and values are JSON strings, so they
// carry valid UTF-8 only.

// DefaultTimeout is how long Exec waits for each answer by default.
const DefaultTimeout = 5 * time.Second

// stderrLimit is how much of a child's standard error is kept: the last
// stderrLimit octets.
const stderrLimit = 16 << 10

// maxLine bounds one line of the protocol (a block of giant fields is a
// few tens of KiB of hex).
const maxLine = 64 << 20

type stdioRequest struct {
	Op         string      `json:"op"`
	TableSizes []uint32    `json:"table_sizes,omitempty"`
	Headers    [][2]string `json:"headers,omitempty"`
	Sensitive  []bool      `json:"sensitive,omitempty"`
}

type stdioResponse struct {
	Name  *string `json:"name"`
	Wire  *string `json:"wire"`
	Error *string `json:"error"`
}

// Exec starts command, a program speaking hpack-stdio/1, and asks its
// name. The command line is split into words as a shell would, honouring
// single and double quotes, but no shell runs. timeout bounds every
// request; 0 means DefaultTimeout. An error means the program could not
// be started or did not answer hello: the run cannot go on.
//
// The program is killed and started again at the start of every scenario
// and after any failure (a timeout, an exit, an answer that is not
// hpack-stdio/1), so one bad block costs one verdict, never the run.
func Exec(command string, timeout time.Duration) (Target, error) {
	argv, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	t := &execTarget{argv: argv, timeout: timeout, stderr: &tailBuffer{limit: stderrLimit}}
	if err := t.start(); err != nil {
		return nil, err
	}
	var resp stdioResponse
	if err := t.child.request(&stdioRequest{Op: "hello"}, &resp, t.timeout); err != nil {
		t.Close()
		return nil, fmt.Errorf("certify: %s: no answer to hello: %w%s", argv[0], err, t.stderrNote())
	}
	if resp.Name == nil || *resp.Name == "" {
		t.Close()
		return nil, fmt.Errorf("certify: %s: the answer to hello has no name", argv[0])
	}
	t.name = *resp.Name
	return t, nil
}

// splitCommand splits a command line into words, honouring quotes.
func splitCommand(command string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range command {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("certify: command %q: unterminated %c quote", command, quote)
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("certify: empty encoder command")
	}
	return words, nil
}

type execTarget struct {
	argv    []string
	timeout time.Duration
	name    string
	stderr  *tailBuffer
	child   *child // nil after a failure, until the next NewEncoder
}

func (t *execTarget) Name() string {
	if t.name != "" {
		return t.name
	}
	return filepath.Base(t.argv[0])
}

func (t *execTarget) start() error {
	c, err := startChild(t.argv, t.stderr)
	if err != nil {
		return fmt.Errorf("certify: starting %s: %w", t.argv[0], err)
	}
	t.child = c
	return nil
}

// restart kills the child and starts it again with empty stderr, at the
// start of each scenario.
func (t *execTarget) restart() {
	t.kill()
	t.stderr.reset()
}

func (t *execTarget) kill() {
	if t.child != nil {
		t.child.kill()
		t.child = nil
	}
}

func (t *execTarget) stderrTail() string { return t.stderr.String() }

func (t *execTarget) stderrNote() string {
	if s := strings.TrimSpace(t.stderr.String()); s != "" {
		return "; stderr: " + s
	}
	return ""
}

// NewEncoder asks for a fresh context, starting the program first if it
// is not running.
func (t *execTarget) NewEncoder() (Encoder, error) {
	if t.child == nil {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	var resp stdioResponse
	if err := t.child.request(&stdioRequest{Op: "new"}, &resp, t.timeout); err != nil {
		t.kill()
		return nil, err
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("encoder error on new: %s", *resp.Error)
	}
	return &stdioEncoder{t: t, c: t.child}, nil
}

func (t *execTarget) Close() error {
	t.kill()
	return nil
}

// stdioEncoder is one context of a program speaking hpack-stdio/1.
type stdioEncoder struct {
	t       *execTarget
	c       *child
	pending []uint32
}

func (e *stdioEncoder) SetMaxDynamicTableSize(n uint32) error {
	e.pending = append(e.pending, n)
	return nil
}

func (e *stdioEncoder) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	if e.c != e.t.child {
		return dst, errors.New("the encoder process was restarted; this context is gone")
	}
	req := &stdioRequest{Op: "encode", TableSizes: e.pending, Headers: make([][2]string, len(fields))}
	e.pending = nil
	anySensitive := false
	for i, f := range fields {
		req.Headers[i] = [2]string{f.Name, f.Value}
		anySensitive = anySensitive || f.Sensitive
	}
	if anySensitive {
		req.Sensitive = make([]bool, len(fields))
		for i, f := range fields {
			req.Sensitive[i] = f.Sensitive
		}
	}
	var resp stdioResponse
	fail := func(err error) ([]byte, error) {
		e.t.kill()
		return dst, err
	}
	if err := e.c.request(req, &resp, e.t.timeout); err != nil {
		return fail(err)
	}
	switch {
	case resp.Error != nil:
		return dst, fmt.Errorf("encoder error: %s", *resp.Error)
	case resp.Wire == nil:
		return fail(errors.New(`the answer to encode has neither "wire" nor "error"`))
	}
	wire, err := hex.DecodeString(*resp.Wire)
	if err != nil {
		return fail(fmt.Errorf(`the answer's "wire" is not hex: %v`, err))
	}
	return append(dst, wire...), nil
}

// child is one running encoder program.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // lines of stdout; closed at EOF
	readEr error       // why lines was closed, once it is
	exited chan struct{}
	quit   chan struct{}
	once   sync.Once
}

func startChild(argv []string, stderr io.Writer) (*child, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, lines: make(chan []byte), exited: make(chan struct{}), quit: make(chan struct{})}
	go c.read(stdout)
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// read passes stdout to lines one line at a time.
func (c *child) read(stdout io.Reader) {
	defer close(c.lines)
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := readLine(r)
		if err != nil {
			c.readEr = err
			return
		}
		select {
		case c.lines <- line:
		case <-c.quit:
			return
		}
	}
}

func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("a line of more than %d octets", maxLine)
		}
		if !isPrefix {
			return line, nil
		}
	}
}

// request sends req and decodes the one-line answer into resp, within
// timeout. On a timeout the child is killed.
func (c *child) request(req *stdioRequest, resp *stdioResponse, timeout time.Duration) error {
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	written := make(chan error, 1)
	go func() {
		_, err := c.stdin.Write(data)
		written <- err
	}()
	for {
		select {
		case err := <-written:
			if err != nil {
				return fmt.Errorf("writing the %s request: %v (the encoder exited?)%s", req.Op, err, c.exitNote())
			}
			written = nil
		case line, ok := <-c.lines:
			if !ok {
				reason := "the encoder closed its standard output"
				if c.readEr != nil && c.readEr != io.EOF {
					reason = "reading the encoder's output: " + c.readEr.Error()
				}
				return fmt.Errorf("no answer to %s: %s%s", req.Op, reason, c.exitNote())
			}
			if err := json.Unmarshal(line, resp); err != nil || !bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
				c.kill()
				return fmt.Errorf("the answer to %s is not a JSON object: %q", req.Op, shorten(string(line)))
			}
			return nil
		case <-timer.C:
			c.kill()
			return fmt.Errorf("no answer to %s within %v: %w", req.Op, timeout, ErrTimeout)
		}
	}
}

// exitNote describes how the child exited, when it has within a moment.
func (c *child) exitNote() string {
	select {
	case <-c.exited:
	case <-time.After(200 * time.Millisecond):
		return ""
	}
	if st := c.cmd.ProcessState; st != nil {
		return " (" + st.String() + ")"
	}
	return ""
}

func (c *child) kill() {
	c.once.Do(func() {
		close(c.quit)
		c.stdin.Close()
		c.cmd.Process.Kill()
	})
}

// tailBuffer keeps the last limit octets written to it.
type tailBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte
	dropped int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.limit; over > 0 {
		b.dropped += over
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped > 0 {
		return fmt.Sprintf("[%d earlier octets dropped]\n%s", b.dropped, b.buf)
	}
	return string(b.buf)
}

func (b *tailBuffer) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf, b.dropped = b.buf[:0], 0
}

// Serve speaks the encoder side of hpack-stdio/1: it reads requests from
// r and writes one answer line per request to w until r ends. name is the
// answer to hello; newEncoder opens each context. It returns nil at the
// end of r and an error only when reading or writing fails.
func Serve(r io.Reader, w io.Writer, name string, newEncoder func() Encoder) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	bw := bufio.NewWriter(w)
	enc := newEncoder()
	var wire []byte
	for sc.Scan() {
		var req stdioRequest
		var resp any
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp = map[string]string{"error": "invalid request: " + err.Error()}
		} else {
			switch req.Op {
			case "hello":
				resp = map[string]string{"name": name}
			case "new":
				enc = newEncoder()
				resp = struct{}{}
			case "encode":
				var err error
				if wire, err = serveEncode(enc, wire[:0], &req); err != nil {
					resp = map[string]string{"error": err.Error()}
				} else {
					resp = map[string]string{"wire": hex.EncodeToString(wire)}
				}
			default:
				resp = map[string]string{"error": fmt.Sprintf("unknown op %q", req.Op)}
			}
		}
		line, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		bw.Write(line)
		bw.WriteByte('\n')
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

func serveEncode(enc Encoder, dst []byte, req *stdioRequest) ([]byte, error) {
	if req.Sensitive != nil && len(req.Sensitive) != len(req.Headers) {
		return dst, fmt.Errorf("%d sensitive flags for %d headers", len(req.Sensitive), len(req.Headers))
	}
	for _, n := range req.TableSizes {
		if err := enc.SetMaxDynamicTableSize(n); err != nil {
			return dst, err
		}
	}
	fields := make([]Field, len(req.Headers))
	for i, h := range req.Headers {
		fields[i] = Field{Name: h[0], Value: h[1], Sensitive: req.Sensitive != nil && req.Sensitive[i]}
	}
	return enc.EncodeBlock(dst, fields)
}
