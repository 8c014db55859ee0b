package hpackstdio

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// QServer is the QPACK mode of hpack-stdio/1 for a Go QEncoder or
// QDecoder: what a program passed to the certifier's QPACK --exec runs
// Serve on its standard input and output. Exactly one of NewEncoder and
// NewDecoder is set, which makes the program an encoder or a decoder.
type QServer struct {
	// Name is the answer to hello; it must not be empty.
	Name string
	// NewEncoder opens the encoder of a fresh connection, for each new
	// request, under the decoder's settings s.
	NewEncoder func(s QSettings) (QEncoder, error)
	// NewDecoder opens the decoder of a fresh connection, for each new
	// request, under its own settings s.
	NewDecoder func(s QSettings) (QDecoder, error)
	// Binary offers the binary form in the answer to hello: the names and
	// values of encode requests then arrive in hex, and those of a
	// decoder's answers are written in hex. A decoder that may decode a
	// name or value that is not valid UTF-8 must offer it.
	Binary bool
	// Log, when set, receives a copy of every line: each request prefixed
	// with "> " and each answer with "< ".
	Log io.Writer
}

// Serve reads requests from r and writes one answer line for each to w,
// until r ends. It returns nil at the end of r, and an error when
// reading or writing fails, when a request line is longer than MaxLine,
// when the QServer lacks a Name or has not exactly one of NewEncoder and
// NewDecoder, or when the implementation breaks down: an error that is no
// *CodedError in answer to decoder_stream, encoder_stream, decode or
// cancel (whose every error answer is a refusal), a panic, a decoded name
// or value that is not UTF-8 without the binary form. The program should
// then exit, which the certifier takes as the breakdown it is.
func (s *QServer) Serve(r io.Reader, w io.Writer) error {
	if s.Name == "" {
		return errors.New("hpackstdio: QServer.Name is empty")
	}
	if (s.NewEncoder == nil) == (s.NewDecoder == nil) {
		return errors.New("hpackstdio: a QServer needs exactly one of NewEncoder and NewDecoder")
	}
	sess := &qsession{s: s}
	return serveLines(r, w, s.Log, sess.answer)
}

// qsession is the state of one Serve: the connection open, if any.
type qsession struct {
	s   *QServer
	enc QEncoder
	dec QDecoder
}

// The JSON forms of a QPACK program's answers.
type (
	qHelloAnswer struct {
		Name   string `json:"name"`
		QPACK  bool   `json:"qpack"`
		Binary bool   `json:"binary,omitempty"`
	}
	qEncodeAnswer struct {
		Section       *string `json:"section,omitempty"`
		EncoderStream string  `json:"encoder_stream,omitempty"`
	}
	qSectionAnswer struct {
		Stream        *uint64     `json:"stream,omitempty"`
		Headers       [][2]string `json:"headers"`
		Sensitive     []bool      `json:"sensitive"`
		DecoderStream string      `json:"decoder_stream,omitempty"`
	}
	qDecoderAnswer struct {
		Blocked       bool             `json:"blocked,omitempty"`
		Unblocked     []qSectionAnswer `json:"unblocked,omitempty"`
		DecoderStream string           `json:"decoder_stream,omitempty"`
	}
	qErrorAnswer struct {
		Error string `json:"error"`
		Code  string `json:"code,omitempty"`
	}
)

// answer returns the answer line to one request line. Its error is the
// implementation's breakdown, or an internal one: never the request's
// fault.
func (sess *qsession) answer(line []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("hpackstdio: the QPACK implementation panicked: %v", r)
		}
	}()
	decoder := sess.s.NewDecoder != nil
	req, err := ParseQRequest(line, decoder)
	if err != nil {
		return qErrorLine(err, "")
	}
	switch req.Op {
	case OpHello:
		return marshalLine(qHelloAnswer{Name: sess.s.Name, QPACK: true, Binary: sess.s.Binary})
	case OpNew:
		if decoder {
			sess.dec, err = sess.s.NewDecoder(req.Settings)
		} else {
			sess.enc, err = sess.s.NewEncoder(req.Settings)
		}
		if err != nil {
			return qErrorLine(fmt.Errorf("opening a connection: %w", err), "")
		}
		return []byte("{}"), nil
	}
	if sess.enc == nil && sess.dec == nil {
		return qErrorLine(fmt.Errorf("a %s request before new", req.Op), "")
	}
	if decoder {
		return sess.decoderAnswer(req)
	}
	switch req.Op {
	case OpEncode:
		section, enc, err := sess.enc.EncodeSection(req.Stream, req.Fields)
		if err != nil {
			return refusalLine(req.Op, err, false)
		}
		hexSection := hex.EncodeToString(section)
		return marshalLine(qEncodeAnswer{Section: &hexSection, EncoderStream: hex.EncodeToString(enc)})
	default: // OpDecoderStream, as ParseQRequest checked
		enc, err := sess.enc.DecoderStream(req.Data)
		if err != nil {
			return refusalLine(req.Op, err, true)
		}
		return marshalLine(qEncodeAnswer{EncoderStream: hex.EncodeToString(enc)})
	}
}

// decoderAnswer returns a decoder's answer line to req, one of
// encoder_stream, decode and cancel.
func (sess *qsession) decoderAnswer(req *QRequest) ([]byte, error) {
	var a qDecoderAnswer
	var section *qSectionAnswer
	var out []byte
	var err error
	switch req.Op {
	case OpEncoderStream:
		var unblocked []QSection
		unblocked, out, err = sess.dec.EncoderStream(req.Data)
		for _, u := range unblocked {
			s, serr := sess.sectionAnswer(u.Fields)
			if serr != nil {
				return nil, serr
			}
			s.Stream = &u.Stream
			a.Unblocked = append(a.Unblocked, *s)
		}
	case OpDecode:
		var d QSection
		d, out, err = sess.dec.DecodeSection(req.Stream, req.Data)
		a.Blocked = d.Blocked
		if err == nil && !d.Blocked {
			if section, err = sess.sectionAnswer(d.Fields); err != nil {
				return nil, err
			}
		}
	default: // OpCancel, as ParseQRequest checked
		out, err = sess.dec.Cancel(req.Stream)
	}
	if err != nil {
		return refusalLine(req.Op, err, true)
	}
	if section != nil {
		section.DecoderStream = hex.EncodeToString(out)
		return marshalLine(section)
	}
	a.DecoderStream = hex.EncodeToString(out)
	return marshalLine(a)
}

// sectionAnswer returns fields as the members of a decoded section, in
// hex when the server offered the binary form. A name or value that is
// not valid UTF-8 outside it is the server's breakdown: it cannot be
// written.
func (sess *qsession) sectionAnswer(fields []Field) (*qSectionAnswer, error) {
	a := &qSectionAnswer{Headers: make([][2]string, len(fields)), Sensitive: make([]bool, len(fields))}
	for i, f := range fields {
		a.Sensitive[i] = f.Sensitive
		if sess.s.Binary {
			a.Headers[i] = [2]string{hex.EncodeToString([]byte(f.Name)), hex.EncodeToString([]byte(f.Value))}
			continue
		}
		if !utf8.ValidString(f.Name) || !utf8.ValidString(f.Value) {
			return nil, fmt.Errorf("hpackstdio: decoded field %d (name %q) is not valid UTF-8, and the QServer does not offer the binary form", i, f.Name)
		}
		a.Headers[i] = [2]string{f.Name, f.Value}
	}
	return a, nil
}

// refusalLine returns the error answer to op for err: with its code when
// err wraps a *CodedError. When refusing is set, an error answer to op is
// a refusal whatever its code, so any other error is the
// implementation's breakdown, returned as the error of Serve.
func refusalLine(op string, err error, refusing bool) ([]byte, error) {
	var coded *CodedError
	switch {
	case errors.As(err, &coded):
		reason := coded.Reason
		if reason == "" {
			reason = err.Error()
		}
		return qErrorLine(errors.New(reason), coded.Code)
	case refusing:
		return nil, fmt.Errorf("hpackstdio: the QPACK implementation broke down on %s: %w", op, err)
	}
	return qErrorLine(err, "")
}

// qErrorLine returns the error answer saying err, with code when it is
// not "".
func qErrorLine(err error, code string) ([]byte, error) {
	text := err.Error()
	if text == "" {
		text = "the implementation failed without saying why"
	}
	return marshalLine(qErrorAnswer{Error: text, Code: code})
}
