package hpackstdio

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
)

// Server is the encoder side of hpack-stdio/1, for a Go Encoder, or its
// decoder side, for a Go Decoder: what a program passes to the
// certifier's --exec runs Serve on its standard input and output.
type Server struct {
	// Name is the answer to hello; it must not be empty.
	Name string
	// NewEncoder returns a fresh encoding context, for each new request,
	// of an encoder program. Exactly one of NewEncoder and NewDecoder is
	// set.
	NewEncoder func() Encoder
	// NewDecoder returns a fresh decoding context, for each new request,
	// of a decoder program: its hello then says "decoder":true, and it
	// answers decode requests (see decode in decserver.go) and no encode
	// request.
	NewDecoder func() Decoder
	// DecoderLacks declares in a decoder's answer to hello what its
	// library cannot do or show (its "lacks" member), by names among
	// DecoderLackNames.
	DecoderLacks []string
	// Binary offers the binary-safe form in the answer to hello. Serve
	// accepts encode requests in both forms whatever it offered.
	Binary bool
	// Lacks declares in the answer to hello what the encoder's library
	// cannot express (its "lacks" and "refuses" members), so that the
	// certifier builds every scenario from what it can. Serve still
	// encodes whatever it is asked: the encoder must cope with a request
	// the declaration rules out, from a certifier that does not know it.
	Lacks Lacks
	// Complete makes Serve reject any request that is not exactly what
	// the protocol defines, with an error answer: the checks of
	// ParseRequest with complete set, an encode request in the form that
	// hello did not negotiate ("binary":true when Binary is off, or no
	// "binary" when it is on), a request before hello, and an encode
	// request before new. A test encoder turns it on to prove that the
	// certifier's requests are complete; an encoder meant for use leaves
	// it off.
	Complete bool
	// Log, when set, receives a copy of every line: each request prefixed
	// with "> " and each answer with "< ".
	Log io.Writer
}

// Serve reads requests from r and writes one answer line for each to w,
// until r ends. It returns nil at the end of r, and an error only when
// reading or writing fails, when a request line is longer than MaxLine,
// when the Server lacks a Name, has not exactly one of NewEncoder and
// NewDecoder or declares a lack the protocol does not define, or when a
// decoder breaks down (an error that is not a *Refusal, a panic: the
// program should then exit, which the certifier takes as the breakdown
// it is).
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	if s.Name == "" {
		return errors.New("hpackstdio: Server.Name is empty")
	}
	if (s.NewEncoder == nil) == (s.NewDecoder == nil) {
		return errors.New("hpackstdio: a Server needs exactly one of NewEncoder and NewDecoder")
	}
	if err := s.checkLacks(); err != nil {
		return err
	}
	sess := &session{s: s}
	return serveLines(r, w, s.Log, sess.answer)
}

// serveLines reads request lines from r and writes the line answer
// returns for each to w, until r ends, copying both to log when it is
// set: each request prefixed with "> " and each answer with "< ". An
// error of answer, never the request's fault, ends it.
func serveLines(r io.Reader, w io.Writer, log io.Writer, answer func([]byte) ([]byte, error)) error {
	logLine := func(prefix string, line []byte) error {
		if log == nil {
			return nil
		}
		_, err := fmt.Fprintf(log, "%s%s\n", prefix, line)
		return err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		if err := logLine("> ", sc.Bytes()); err != nil {
			return err
		}
		line, err := answer(sc.Bytes())
		if err != nil {
			return err
		}
		if err := logLine("< ", line); err != nil {
			return err
		}
		bw.Write(line)
		bw.WriteByte('\n')
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("hpackstdio: reading requests: %w", err)
	}
	return nil
}

// session is the state of one Serve: what hello negotiated and the
// current encoding context.
type session struct {
	s       *Server
	helloed bool
	enc     Encoder // nil before the first new
	wire    []byte  // reused for every block
	dec     decoderContext
}

// answer returns the answer line to one request line. Its error is an
// internal one, never the request's fault.
func (sess *session) answer(line []byte) ([]byte, error) {
	req, err := ParseRequest(line, sess.s.Complete)
	if err != nil {
		return errorAnswer(err)
	}
	if sess.s.Complete && !sess.helloed && req.Op != OpHello {
		return errorAnswer(fmt.Errorf("a %s request before hello", req.Op))
	}
	if sess.s.NewDecoder != nil {
		return sess.decoderAnswer(req)
	}
	switch req.Op {
	case OpDecode:
		return errorAnswer(errors.New("this program is an encoder: it answers encode requests, not decode"))
	case OpHello:
		sess.helloed = true
		lacks, refuses := helloLacks(sess.s.Lacks)
		return marshalLine(struct {
			Name    string   `json:"name"`
			Binary  bool     `json:"binary,omitempty"`
			Lacks   []string `json:"lacks,omitempty"`
			Refuses [][2]int `json:"refuses,omitempty"`
		}{sess.s.Name, sess.s.Binary, lacks, refuses})
	case OpNew:
		sess.enc = sess.s.NewEncoder()
		return []byte("{}"), nil
	}
	if sess.s.Complete {
		switch {
		case sess.enc == nil:
			return errorAnswer(errors.New("an encode request before new"))
		case req.Binary && !sess.s.Binary:
			return errorAnswer(errors.New(`"binary":true, but this encoder did not offer the binary form in its answer to hello`))
		case !req.Binary && sess.s.Binary:
			return errorAnswer(errors.New(`no "binary":true, but this encoder offered the binary form in its answer to hello`))
		}
	}
	if sess.enc == nil {
		sess.enc = sess.s.NewEncoder()
	}
	wire, err := sess.encode(req)
	var unsupported interface{ Unsupported() string }
	if errors.As(err, &unsupported) {
		reason := unsupported.Unsupported()
		if reason == "" { // which the protocol does not allow
			reason = "the encoder cannot express this block"
		}
		return marshalLine(struct {
			Unsupported string `json:"unsupported"`
		}{reason})
	}
	if err != nil {
		return errorAnswer(err)
	}
	sess.wire = wire
	return marshalLine(struct {
		Wire string `json:"wire"`
	}{hex.EncodeToString(wire)})
}

func (sess *session) encode(req *Request) ([]byte, error) {
	for _, n := range req.TableSizes {
		if err := sess.enc.SetMaxDynamicTableSize(n); err != nil {
			return nil, fmt.Errorf("table size %d: %w", n, err)
		}
	}
	return sess.enc.EncodeBlock(sess.wire[:0], req.Fields)
}

// checkLacks returns an error when the lacks the Server declares are not
// the protocol's: an unknown name or one named twice, a range whose Lo
// is over its Hi, lacks declared for the other role.
func (s *Server) checkLacks() error {
	if s.NewDecoder != nil {
		if len(s.Lacks.Names) > 0 || len(s.Lacks.Refuses) > 0 {
			return errors.New("hpackstdio: a decoder Server declares encoder lacks (Lacks); a decoder's are DecoderLacks")
		}
		return checkLackNames(roleDecoder, s.DecoderLacks, DecoderLackNames)
	}
	if len(s.DecoderLacks) > 0 {
		return errors.New("hpackstdio: an encoder Server declares decoder lacks (DecoderLacks); an encoder's are Lacks")
	}
	for _, r := range s.Lacks.Refuses {
		if r.Lo > r.Hi {
			return fmt.Errorf("hpackstdio: the encoder refuses the octets [%d, %d], not a range: its Lo is over its Hi", r.Lo, r.Hi)
		}
	}
	return checkLackNames(roleEncoder, s.Lacks.Names, EncoderLackNames)
}

// errorAnswer returns the error answer saying err, never an empty one,
// which the protocol does not allow.
func errorAnswer(err error) ([]byte, error) {
	text := err.Error()
	if text == "" {
		text = "the encoder failed without saying why"
	}
	return marshalLine(struct {
		Error string `json:"error"`
	}{text})
}
