package inprocess

import (
	"errors"
	"fmt"
	"io"

	quicqpack "github.com/quic-go/qpack"

	"github.com/hpackcert/hpackcert/certify/qdecoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// The built-in QPACK decoders: "strict" (oracle/qstrict, the judge of
// every qdec/ case) and "quicgo" (github.com/quic-go/qpack, static table
// only).
func init() {
	qpackDecoders["strict"] = builtinQPACK[qpack.DecoderTarget]{"strict", func() qpack.DecoderTarget {
		return QPACKDecoderFunc("strict", NewStrictQPACKDecoder)
	}}
	qpackDecoders["quicgo"] = builtinQPACK[qpack.DecoderTarget]{"quic-go/qpack", func() qpack.DecoderTarget {
		return qdecoders.Declare(QPACKDecoderFunc("quic-go/qpack", NewQuicGoQPACKDecoder), quicGoLacks)
	}}
}

// QPACKDecoderFunc returns a QPACK decoder target named name, running in
// this process, whose connections newDecoder opens.
func QPACKDecoderFunc(name string, newDecoder func(qpack.Settings) (qpack.Decoder, error)) qpack.DecoderTarget {
	return &qpackDecoderTarget{name: name, newDecoder: newDecoder}
}

type qpackDecoderTarget struct {
	name       string
	newDecoder func(qpack.Settings) (qpack.Decoder, error)
}

func (t *qpackDecoderTarget) Name() string { return t.name }
func (t *qpackDecoderTarget) Close() error { return nil }
func (t *qpackDecoderTarget) InProcess()   {}
func (t *qpackDecoderTarget) NewDecoder(s qpack.Settings) (d qpack.Decoder, err error) {
	defer recoverAs(&err)
	return t.newDecoder(s)
}

// NewStrictQPACKDecoder opens a connection of the strict QPACK decoder
// (oracle/qstrict) under settings s: every *qstrict.Error is a connection
// error with its code.
func NewStrictQPACKDecoder(s qpack.Settings) (qpack.Decoder, error) {
	return &strictQPACKDecoder{d: qstrict.New(qstrict.Settings(s))}, nil
}

type strictQPACKDecoder struct{ d *qstrict.Decoder }

func (s *strictQPACKDecoder) EncoderStream(data []byte) ([]qpack.Decoded, []byte, error) {
	err := s.d.EncoderStream(data)
	var out []qpack.Decoded
	for _, u := range s.d.Unblocked() {
		out = append(out, qpack.Decoded{Stream: u.StreamID, Fields: u.Fields})
	}
	return out, s.d.DecoderStreamOut(), strictConnectionError(err)
}

func (s *strictQPACKDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	fields, status, err := s.d.DecodeSection(stream, section)
	return qpack.Decoded{Stream: stream, Blocked: status == qstrict.Blocked, Fields: fields}, s.d.DecoderStreamOut(), strictConnectionError(err)
}

func (s *strictQPACKDecoder) Cancel(stream uint64) ([]byte, error) {
	err := s.d.Cancel(stream)
	return s.d.DecoderStreamOut(), strictConnectionError(err)
}

// strictConnectionError returns a *qstrict.Error as the connection error
// it is; any other error (qstrict.ErrBroken: a call after one) stays as
// it is, a breakdown.
func strictConnectionError(err error) error {
	var e *qstrict.Error
	if errors.As(err, &e) {
		return &qpack.ConnectionError{Code: e.Code, Reason: e.Error(), Err: e}
	}
	return err
}

// quicGoLacks is what quic-go/qpack cannot do: its Decoder has no dynamic
// table (quic-go's HTTP/3 layer announces no
// SETTINGS_QPACK_MAX_TABLE_CAPACITY, so 0, and reads nothing of the
// encoder stream), and it drops the N bit.
var quicGoLacks = qdecoders.Lacks{DynamicTable: true, NeverIndexed: true}

// NewQuicGoQPACKDecoder opens a connection of quic-go/qpack's decoder. It
// takes only settings without a dynamic table, as quic-go's HTTP/3 layer
// announces them.
func NewQuicGoQPACKDecoder(s qpack.Settings) (qpack.Decoder, error) {
	if s.MaxTableCapacity > 0 {
		return nil, fmt.Errorf("quic-go/qpack has no dynamic table: it cannot announce SETTINGS_QPACK_MAX_TABLE_CAPACITY %d", s.MaxTableCapacity)
	}
	return &quicGoDecoder{d: quicqpack.NewDecoder(), limit: s.MaxFieldSectionSize}, nil
}

type quicGoDecoder struct {
	d     *quicqpack.Decoder
	limit uint64
}

// EncoderStream ignores the octets, as quic-go's HTTP/3 layer does with
// its peer's encoder stream (http3/conn.go: "Our QPACK implementation
// doesn't use the dynamic table yet"); the lack "dynamic-table" keeps
// the qdec/ cases from sending any.
func (q *quicGoDecoder) EncoderStream([]byte) ([]qpack.Decoded, []byte, error) { return nil, nil, nil }

// DecodeSection decodes a section as quic-go's HTTP/3 layer does
// (http3/headers.go, parseHeaders): every decoding error is
// QPACK_DECOMPRESSION_FAILED, and a section over
// SETTINGS_MAX_FIELD_SECTION_SIZE, counted field by field as decoded, is
// refused with H3_EXCESSIVE_LOAD before the rest is decoded.
func (q *quicGoDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	next := q.d.Decode(section)
	out := qpack.Decoded{Stream: stream}
	var size uint64
	for {
		hf, err := next()
		if err == io.EOF {
			return out, nil, nil
		}
		if err != nil {
			return qpack.Decoded{}, nil, &qpack.ConnectionError{Code: qpack.DecompressionFailed, Reason: err.Error(), Err: err}
		}
		size += uint64(len(hf.Name)+len(hf.Value)) + 32
		if q.limit > 0 && size > q.limit {
			return qpack.Decoded{}, nil, &qpack.ConnectionError{Code: "H3_EXCESSIVE_LOAD", Reason: fmt.Sprintf("field section larger than %d", q.limit)}
		}
		out.Fields = append(out.Fields, qpack.Field{Name: hf.Name, Value: hf.Value})
	}
}

// Cancel writes nothing: a decoder whose maximum table capacity is 0 may
// omit Stream Cancellations (RFC 9204 §2.2.2.2).
func (q *quicGoDecoder) Cancel(uint64) ([]byte, error) { return nil, nil }
