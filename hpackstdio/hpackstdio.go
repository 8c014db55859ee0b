// Package hpackstdio implements hpack-stdio/1, the protocol through which
// hpackcert drives an HPACK (RFC 7541) encoder written in any language:
// the certifier starts the encoder as a child process and writes one JSON
// object per line to its standard input; the encoder answers every request
// with one JSON object on one line of its standard output.
//
//	{"op":"hello"}                                 -> {"name":"my-encoder 1.2"}
//	{"op":"new"}                                   -> {}
//	{"op":"encode","table_sizes":[0,4096],         -> {"wire":"82864188..."}
//	 "headers":[["name","value"],...],
//	 "sensitive":[false,true,...]}
//	any request                                    -> {"error":"text"} on failure
//	encode                                         -> {"unsupported":"reason"} when the encoder cannot express the block
//
// hello asks the encoder's name; new opens a fresh encoding context, with
// an empty dynamic table of maximum size 4096; encode asks for one header
// block. table_sizes lists the SETTINGS_HEADER_TABLE_SIZE values the peer
// acknowledged since the previous block, in order (RFC 7541 §4.2);
// headers lists the fields as [name, value] pairs; sensitive holds one
// boolean per field, true for a field that must never be indexed (RFC 7541
// §7.1.3). The certifier sends every member of every request, with empty
// lists where there is nothing to say. wire is the header block in hex.
//
// JSON strings carry valid UTF-8 only, so 13 octet values (0xc0, 0xc1 and
// 0xf5 to 0xff) can never appear in a name or value of the form above. An
// encoder may therefore offer a binary-safe form in its answer to hello:
//
//	{"op":"hello"}                                 -> {"name":"my-encoder 1.2","binary":true}
//	{"op":"encode","binary":true,"table_sizes":[], -> {"wire":"..."}
//	 "headers":[["3a6d6574686f64","474554"]],
//	 "sensitive":[false]}
//
// Then, and only then, every encode request carries "binary":true and
// every name and value is the lowercase hex of its octets. An encoder that
// does not offer it receives the form above, without a "binary" member.
//
// Client starts and drives an encoder program, and checks every answer
// against the request it answers: one JSON object, with the members of
// that answer only (an answer to hello may have more, the offers of
// extensions it does not know), each of its type. An encoder that breaks
// the protocol (an answer that is not of it, over its bound or late, an
// exit, a closed pipe) gets a *BreakdownError, "encoder broke hpack-stdio
// at request N: ...", N counting the requests sent to the program, hello
// being 1; an error answer is an *AnswerError, "encoder answered request
// N (op) with an error: ...". Server is the encoder side, for a Go
// Encoder.
//
// A decoder speaks the same protocol with its own messages:
//
//	{"op":"hello"}                                 -> {"name":"my-decoder 1.2","decoder":true,"lacks":[...]}
//	{"op":"new"}                                   -> {}
//	{"op":"decode","wire":"8286",                  -> {"headers":[["n","v"],...],"never_indexed":[false,...],
//	 "table_size":4096,"max_header_list":65536}        "table":[["n","v"],...],"hex":true}
//	decode                                         -> {"error":"text"}: the decoder refuses the block
//
// table_size and max_header_list are the SETTINGS_HEADER_TABLE_SIZE and
// SETTINGS_MAX_HEADER_LIST_SIZE in force for the block, 0 meaning no
// header-list limit; table is optional; "hex":true makes every name and
// value of the answer hex. DecoderClient (StartDecoder) drives such a
// program and checks its answers as strictly as Client does an
// encoder's, its messages saying "decoder"; an error answer to decode is
// an *AnswerError, after which the context is dead until new. Server
// with NewDecoder serves a Go Decoder. docs/STDIO.md describes
// the protocol in full, and docs/hpack-stdio.schema.json has a JSON
// Schema of every message.
//
// The package stands alone: it imports no part of the certifier, neither
// its engine nor an oracle, so that a program speaking the protocol links
// the protocol only; of the module it imports internal/spec (Field, the
// module's one header-field type), internal/proc, internal/cputime and
// internal/visible. Its Encoder, Decoder, Lacks and errors are its own,
// and package source/stdio converts them to the certifier's.
//
// The same protocol has a QPACK (RFC 9204) mode, for a program whose
// hello says "qpack":true: StartQPACKEncoder and StartQPACKDecoder drive
// one, QServer serves a Go QEncoder or QDecoder, and the HPACK clients
// refuse such a program (docs/STDIO.md, "QPACK mode";
// docs/qpack-stdio.schema.json).
//
// Files: hpackstdio.go (the operations, Field, Encoder, the shared
// errors), request.go and decrequest.go (requests, both roles), answer.go
// and decanswer.go (answers checked against their request, breakdown
// messages), lacks.go (what a hello declares), client.go and
// decclient.go (Client, DecoderClient), server.go and decserver.go
// (Server, Decoder, Refusal), program.go, process.go, deadline.go,
// exit.go and peakrss.go (one running program: its process group,
// deadlines that do not count a busy machine, exits, memory); the QPACK
// mode in qpack.go (its types), qrequest.go, qanswer.go, qclient.go and
// qserver.go.
package hpackstdio

import (
	"errors"
	"fmt"
	"time"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/visible"
)

// The operations of the protocol, the "op" member of a request.
const (
	OpHello  = "hello"  // asks the encoder's name and whether it offers the binary form
	OpNew    = "new"    // opens a fresh encoding context
	OpEncode = "encode" // asks for one header block
	OpDecode = "decode" // asks a decoder to decode one header block
)

// DefaultTimeout is how long a Client waits for each answer when its
// Options do not say.
const DefaultTimeout = 5 * time.Second

// MaxLine bounds one request line that a Server reads. A block of giant
// fields is a few tens of KiB of hex, far below it. The answers a Client
// reads have tighter bounds: 64 KiB for hello and new, and for encode
// what Options.MaxWire allows.
const MaxLine = 64 << 20

// Field is one header field of an encode request: spec.Field, the
// module's one header-field type. Sensitive marks a field the encoder must
// never index: it must be sent as a "Literal Header Field Never Indexed"
// (RFC 7541 §6.2.3, §7.1.3).
type Field = spec.Field

// Encoder is one HPACK encoding context, as Server drives it. A new
// Encoder starts with an empty dynamic table whose maximum size is 4096
// octets, the initial SETTINGS_HEADER_TABLE_SIZE.
type Encoder interface {
	// SetMaxDynamicTableSize records a SETTINGS_HEADER_TABLE_SIZE value the
	// peer acknowledged. Several calls may come between two blocks; the
	// encoder signals them at the start of the next block (RFC 7541 §4.2).
	SetMaxDynamicTableSize(n uint32) error
	// EncodeBlock appends one complete header block holding fields, in
	// order, to dst and returns the extended buffer.
	EncodeBlock(dst []byte, fields []Field) ([]byte, error)
}

// ErrTimeout matches (errors.Is) the error of a request the encoder did
// not answer within the Client's timeout.
var ErrTimeout = errors.New("hpackstdio: timeout")

// timeoutError is the error of a request not answered in time: it says
// so once, in its message, and matches ErrTimeout.
type timeoutError struct{ msg string }

func (e *timeoutError) Error() string        { return e.msg }
func (e *timeoutError) Is(target error) bool { return target == ErrTimeout }

// UnsupportedError is the answer {"unsupported":"reason"} to encode: the
// encoder (typically an adapter around a library) cannot express the
// block — no never-index API for a sensitive field, one size update per
// block — and did not encode it; its state is as before the request, and
// it is still running.
type UnsupportedError struct{ Reason string }

func (e *UnsupportedError) Error() string { return "unsupported by the encoder: " + e.Reason }

// Unsupported returns the reason, for callers that tell an unsupported
// block from a failure through an interface.
func (e *UnsupportedError) Unsupported() string { return e.Reason }

// AnswerError is an error answer, {"error":"text"}: the encoder says it
// could not carry out the request Op, and it is still running. For the
// certifier it is a breakdown as much as a *BreakdownError (the encoder
// did not do what the protocol asked), but one the encoder reported
// itself.
type AnswerError struct {
	// Decoder is set when the program was started as a decoder
	// (StartDecoder): the message then names it so.
	Decoder bool
	// Request counts the requests sent to the program since it started,
	// up to the one answered: its hello is request 1.
	Request int
	Op      string // the request answered
	Text    string // the "error" member of the answer
	// Code is the "code" member of a QPACK program's error answer, the
	// RFC 9204 §6 or RFC 9114 error code it names; "" when there is none.
	Code string
}

// maxQuotedError bounds how much of an error answer's text Error quotes.
const maxQuotedError = 1000

// Error returns "encoder answered request N (op) with an error: "
// ("decoder" for a decoder) and the program's text on one line, with every octet a terminal or a parser
// could act on escaped, cut after maxQuotedError octets.
func (e *AnswerError) Error() string {
	msg := fmt.Sprintf("%s answered request %d (%s) with an error: ", roleName(e.Decoder), e.Request, e.Op)
	if e.Code != "" {
		msg = fmt.Sprintf("%s answered request %d (%s) with the error %s: ", roleName(e.Decoder), e.Request, e.Op, e.Code)
	}
	text := cut([]byte(e.Text), maxQuotedError)
	if len(text) == len(e.Text) {
		return msg + visible.Line(text)
	}
	return fmt.Sprintf("%s%s… (%s octets)", msg, visible.Line(text), groupDigits(len(e.Text)))
}
