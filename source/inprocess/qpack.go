package inprocess

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	quicqpack "github.com/quic-go/qpack"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/qencoder"
)

// builtinQPACK is one QPACK target built into hpackcert: the name its
// reports use and its constructor.
type builtinQPACK[T any] struct {
	reportName string
	target     func() T
}

// qpackEncoders and qpackDecoders map the names BuiltinQPACKEncoder and
// BuiltinQPACKDecoder accept to the targets; a file built with a tag
// (libnghttp3's) adds its own in an init function.
var (
	qpackEncoders = map[string]builtinQPACK[qpack.EncoderTarget]{
		"ref":    {"ref", func() qpack.EncoderTarget { return QPACKEncoderFunc("ref", NewRefQPACKEncoder) }},
		"quicgo": {"quic-go/qpack", func() qpack.EncoderTarget { return QPACKEncoderFunc("quic-go/qpack", NewQuicGoQPACKEncoder) }},
	}
	qpackDecoders = map[string]builtinQPACK[qpack.DecoderTarget]{}
)

// qpackMissing names the built-in QPACK targets that need a build tag, and
// the tag, for the error of a build without it.
var qpackMissing = map[string]string{"nghttp3": "nghttp3"}

// BuiltinQPACKEncoderNames returns the names BuiltinQPACKEncoder accepts,
// "ref" first (the reference keeps the first column of a report), the
// others sorted.
func BuiltinQPACKEncoderNames() []string { return qpackNames(qpackEncoders) }

// BuiltinQPACKDecoderNames returns the names BuiltinQPACKDecoder accepts,
// "strict" first (the judge of every qdec/ case), the others sorted.
func BuiltinQPACKDecoderNames() []string { return qpackNames(qpackDecoders) }

func qpackNames[T any](m map[string]builtinQPACK[T]) []string {
	var first, rest []string
	for name := range m {
		if name == "ref" || name == "strict" {
			first = append(first, name)
		} else {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(first, rest...)
}

// BuiltinQPACKEncoder returns the QPACK encoder target of one of the
// encoders built into hpackcert: "ref" (package qencoder, the reference
// encoder), "quicgo" (github.com/quic-go/qpack, static table only) and,
// when built with the nghttp3 tag, "nghttp3" (libnghttp3's encoder).
func BuiltinQPACKEncoder(name string) (qpack.EncoderTarget, error) {
	return qpackLookup(qpackEncoders, "encoder", name)
}

// BuiltinQPACKDecoder returns the QPACK decoder target of one of the
// decoders built into hpackcert (BuiltinQPACKDecoderNames).
func BuiltinQPACKDecoder(name string) (qpack.DecoderTarget, error) {
	return qpackLookup(qpackDecoders, "decoder", name)
}

func qpackLookup[T any](m map[string]builtinQPACK[T], side, name string) (T, error) {
	b, ok := m[name]
	if !ok {
		var zero T
		if tag, missing := qpackMissing[name]; missing {
			return zero, fmt.Errorf("built-in QPACK %s %q is not in this build: build with -tags %s (needs lib%s-dev and pkg-config)", side, name, tag, tag)
		}
		return zero, fmt.Errorf("no built-in QPACK %s %q (have %s)", side, name, strings.Join(qpackNames(m), ", "))
	}
	return b.target(), nil
}

// QPACKEncoderFunc returns a QPACK encoder target named name whose
// connections newEncoder opens; a panic of the encoder is returned as an
// error, a breakdown.
func QPACKEncoderFunc(name string, newEncoder func(qpack.Settings) (qpack.Encoder, error)) qpack.EncoderTarget {
	return &qpackEncoderTarget{name: name, newEncoder: newEncoder}
}

type qpackEncoderTarget struct {
	name       string
	newEncoder func(qpack.Settings) (qpack.Encoder, error)
}

func (t *qpackEncoderTarget) Name() string { return t.name }
func (t *qpackEncoderTarget) Close() error { return nil }
func (t *qpackEncoderTarget) NewEncoder(s qpack.Settings) (enc qpack.Encoder, err error) {
	defer recoverAs(&err)
	e, err := t.newEncoder(s)
	if err != nil {
		return nil, err
	}
	return guardedEncoder{e}, nil
}

// guardedEncoder turns a panic of the encoder it wraps into an error.
type guardedEncoder struct{ e qpack.Encoder }

func (g guardedEncoder) EncodeSection(stream uint64, fields []qpack.Field) (section, enc []byte, err error) {
	defer recoverAs(&err)
	return g.e.EncodeSection(stream, fields)
}

func (g guardedEncoder) DecoderStream(data []byte) (enc []byte, err error) {
	defer recoverAs(&err)
	return g.e.DecoderStream(data)
}

func recoverAs(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("panic: %v", p)
	}
}

// refQPACKCapacity is the most dynamic table the reference encoder uses,
// whatever the decoder allows: the default of libnghttp3's and
// quic-go's peers, 4 KiB.
const refQPACKCapacity = 4096

// NewRefQPACKEncoder opens a connection of the reference QPACK encoder
// (package qencoder) under the decoder's settings s.
func NewRefQPACKEncoder(s qpack.Settings) (qpack.Encoder, error) {
	return &refQPACKEncoder{e: qencoder.New(qencoder.Config{TableCapacity: refQPACKCapacity, PeerMaxTableCapacity: s.MaxTableCapacity, BlockedStreams: s.BlockedStreams})}, nil
}

type refQPACKEncoder struct {
	e       *qencoder.Encoder
	pending []byte // decoder-stream octets of an instruction not yet whole
}

func (r *refQPACKEncoder) EncodeSection(stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
	section, enc := r.e.AppendSection(nil, nil, stream, fields)
	return section, enc, nil
}

func (r *refQPACKEncoder) DecoderStream(data []byte) ([]byte, error) {
	r.pending = append(r.pending, data...)
	n, err := r.e.DecoderStream(r.pending)
	r.pending = r.pending[:copy(r.pending, r.pending[n:])]
	if err != nil {
		return nil, &qpack.ConnectionError{Code: qpack.DecoderStreamError, Reason: err.Error(), Err: err}
	}
	return nil, nil
}

// NewQuicGoQPACKEncoder opens a connection of quic-go/qpack's encoder,
// which uses the static table only: it writes nothing on the encoder
// stream.
func NewQuicGoQPACKEncoder(qpack.Settings) (qpack.Encoder, error) {
	q := &quicGoEncoder{}
	q.e = quicqpack.NewEncoder(&q.buf)
	return q, nil
}

type quicGoEncoder struct {
	buf bytes.Buffer
	e   *quicqpack.Encoder
}

func (q *quicGoEncoder) EncodeSection(_ uint64, fields []qpack.Field) ([]byte, []byte, error) {
	q.buf.Reset()
	for _, f := range fields {
		if err := q.e.WriteField(quicqpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
			return nil, nil, err
		}
	}
	if err := q.e.Close(); err != nil {
		return nil, nil, err
	}
	return bytes.Clone(q.buf.Bytes()), nil, nil
}

// DecoderStream ignores the octets, as quic-go's HTTP/3 layer does with
// its peer's decoder stream: the package has no decoder-stream reader.
func (q *quicGoEncoder) DecoderStream([]byte) ([]byte, error) { return nil, nil }

// InProcess marks the target as run in this process.
func (t *qpackEncoderTarget) InProcess() {}
