package decoders

import (
	"errors"
	"fmt"
	"time"
)

// DecoderTarget is a decoder implementation under certification (the
// dec/ cases): a name for the reports and a way to open fresh decoding
// contexts. It is the decoder's counterpart of Target; sources make one
// (source/inprocess for Go decoders, source/stdio for a program speaking
// the decoder side of hpack-stdio/1, source/live for a server or proxy).
type DecoderTarget interface {
	// Name identifies the implementation in reports.
	Name() string
	// NewDecoder returns a fresh decoding context: an empty dynamic
	// table, SETTINGS_HEADER_TABLE_SIZE 4096 and no header-list limit
	// until told otherwise.
	NewDecoder() (Decoder, error)
	// Close releases what the target holds (a child process, C memory).
	Close() error
}

// Decoder is one HPACK decoding context, as one HTTP/2 connection reader
// holds it.
type Decoder interface {
	// SetMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE this
	// side advertised and the peer acknowledged; it bounds the size
	// updates of the blocks that follow (RFC 7541 §4.2, §6.3).
	SetMaxDynamicTableSize(n uint32) error
	// SetMaxHeaderListSize records the SETTINGS_MAX_HEADER_LIST_SIZE
	// this side advertised, 0 meaning none; a block whose header list is
	// larger may be refused (RFC 9113 §6.5.2).
	SetMaxHeaderListSize(n uint32) error
	// DecodeBlock decodes one complete header block. It returns the
	// fields in order, Sensitive set on each field that came as a
	// never-indexed literal (RFC 7541 §6.2.3). An error wrapping a
	// *Rejection is the decoder refusing the block, a decoding error (the
	// context is then dead, as an HTTP/2 connection is after
	// COMPRESSION_ERROR); any other error is a breakdown (a crash, a
	// timeout, a protocol violation of the source), the target's one
	// failure.
	DecodeBlock(block []byte) ([]Field, error)
}

// DecoderTableReader is implemented by a Decoder that can show its
// dynamic table: the entries, newest first, after the last block decoded
// (the "table" of a hpack-stdio decode answer). The dec/ cases then check
// the table as well as the fields.
type DecoderTableReader interface {
	DecoderTable() ([]Field, error)
}

// Rejection is a decoder's refusal of a header block: a decoding error
// (RFC 7541 §2.4, §4.2, §5, §6) or a header list over the advertised
// limit, in the decoder's own words.
type Rejection struct {
	// Reason is what the decoder said.
	Reason string
	// Err is the decoder's own error, when there is one.
	Err error
}

func (r *Rejection) Error() string { return "the decoder refused the block: " + r.Reason }
func (r *Rejection) Unwrap() error { return r.Err }

// Reject returns err as a *Rejection, for a source whose decoder reports
// decoding errors as plain errors (x/net's, the strict decoder's, a cgo
// return code); nil stays nil.
func Reject(err error) error {
	if err == nil {
		return nil
	}
	var r *Rejection
	if errors.As(err, &r) {
		return err
	}
	return &Rejection{Reason: err.Error(), Err: err}
}

// Rejected reports whether err is a decoder's refusal of the block and
// not a breakdown.
func Rejected(err error) bool {
	var r *Rejection
	return errors.As(err, &r)
}

// DecoderFunc adapts a constructor of decoding contexts to a
// DecoderTarget, for a Go decoder in this process.
func DecoderFunc(name string, newDecoder func() Decoder) DecoderTarget {
	return &funcDecoderTarget{name: name, newDecoder: newDecoder}
}

type funcDecoderTarget struct {
	name       string
	newDecoder func() Decoder
}

func (t *funcDecoderTarget) Name() string { return t.name }
func (t *funcDecoderTarget) Close() error { return nil }

// InProcess marks the decoder as running in this process (InProcess).
func (t *funcDecoderTarget) InProcess() {}
func (t *funcDecoderTarget) NewDecoder() (d Decoder, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the decoder's constructor panicked: %v", r)
		}
	}()
	d = t.newDecoder()
	if d == nil {
		return nil, errors.New("the decoder's constructor returned nil")
	}
	return d, nil
}

// DecoderLacks is what a decoder declares its library cannot do or show,
// as an encoder declares Lacks: the dec/ case that needs it is then
// unsupported for that decoder, named as declared, never a pass.
type DecoderLacks struct {
	// NeverIndexed: the library does not tell a never-indexed literal
	// from the other literals (dec/7.1.3/1).
	NeverIndexed bool
	// MaxHeaderList: the library has no way to be given a header-list
	// limit (dec/7.3/1).
	MaxHeaderList bool
	// NotApplicable names the cases the target's role cannot show, each
	// with why (a live server cannot show a never-indexed bit, nor the
	// fields of a block no request may carry): they are n/a for it.
	NotApplicable map[string]string
}

// Names returns the declared lacks by their hpack-stdio names
// ("never-indexed", "max-header-list"), in that order.
func (l DecoderLacks) Names() []string {
	var out []string
	if l.NeverIndexed {
		out = append(out, "never-indexed")
	}
	if l.MaxHeaderList {
		out = append(out, "max-header-list")
	}
	return out
}

// ParseDecoderLack sets the lack named name (an hpack-stdio hello's
// "lacks" member) and returns an error for a name it does not know.
func (l *DecoderLacks) ParseDecoderLack(name string) error {
	switch name {
	case "never-indexed":
		l.NeverIndexed = true
	case "max-header-list":
		l.MaxHeaderList = true
	default:
		return fmt.Errorf("unknown decoder lack %q (known: never-indexed, max-header-list)", name)
	}
	return nil
}

// DecoderLacker is implemented by a DecoderTarget that declares lacks
// (a stdio decoder's hello, DeclareDecoder for a Go one).
type DecoderLacker interface {
	DecoderLacks() DecoderLacks
}

// DeclareDecoder returns t declaring lacks.
func DeclareDecoder(t DecoderTarget, lacks DecoderLacks) DecoderTarget {
	return &declaredDecoder{DecoderTarget: t, lacks: lacks}
}

type declaredDecoder struct {
	DecoderTarget
	lacks DecoderLacks
}

func (d *declaredDecoder) DecoderLacks() DecoderLacks { return d.lacks }

// unwrapDecoder returns the target a declaration wraps (DeclareDecoder),
// or t: the wrapped target's markers (InProcess, Live, StderrTail...)
// are its own.
func unwrapDecoder(t DecoderTarget) DecoderTarget {
	if d, ok := t.(*declaredDecoder); ok {
		return unwrapDecoder(d.DecoderTarget)
	}
	return t
}

// FieldsHider is implemented by a Decoder that can tell whether it
// accepted a block but not which fields it decoded: a live server that
// answers a request without echoing its header fields. FieldsHidden,
// asked after each block, says so of the last one: DecodeBlock returned
// nil fields for it, and the dec/ cases judge its acceptance only; what
// needs its fields is unsupported.
type FieldsHider interface {
	FieldsHidden() bool
}

// ErrSettingUnsupported is returned, wrapped, by SetMaxDynamicTableSize
// or SetMaxHeaderListSize of a Decoder that cannot be given that value: a
// live server advertises its own SETTINGS_HEADER_TABLE_SIZE, which the
// certifier can only acknowledge. The stories that need the value are
// unsupported for the target, not a breakdown.
var ErrSettingUnsupported = errors.New("the decoder cannot be given this setting")

// DecodingErrorer is implemented by the error of a refusal that can tell
// whether it was for a decoding error: a live target's GOAWAY says
// COMPRESSION_ERROR for one, PROTOCOL_ERROR for a malformed request
// (RFC 9113 §8.1.1), which an endpoint may answer by closing the
// connection (§5.4.1). A valid block refused for another reason than a
// decoding error judges nothing: its story is not exercised.
type DecodingErrorer interface {
	DecodingError() bool
}

// refusedForDecoding reports whether a refusal was for a decoding error:
// true unless an error in its chain says otherwise.
func refusedForDecoding(err error) bool {
	var d DecodingErrorer
	if errors.As(err, &d) {
		return d.DecodingError()
	}
	return true
}

// CPUTimer is implemented by a Decoder that runs in a process of its own
// and can tell the CPU time that process has used so far (a stdio
// decoder program's, from /proc/PID/task/*/schedstat on Linux), and
// whether it knows it. dec/7.3/2 takes the difference over a decoding
// as the decoding's cost: unlike wall time, it does not grow while the
// program waits for a core on a busy machine.
type CPUTimer interface {
	CPUTime() (time.Duration, bool)
}
