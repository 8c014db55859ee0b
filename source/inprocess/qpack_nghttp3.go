//go:build nghttp3

package inprocess

import (
	"errors"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/libnghttp3"
)

// nghttp3ReportName is how reports name libnghttp3's encoder and decoder.
const nghttp3ReportName = "libnghttp3"

func init() {
	qpackEncoders["nghttp3"] = builtinQPACK[qpack.EncoderTarget]{nghttp3ReportName, func() qpack.EncoderTarget {
		return QPACKEncoderFunc(nghttp3ReportName, NewNghttp3QPACKEncoder)
	}}
	qpackDecoders["nghttp3"] = builtinQPACK[qpack.DecoderTarget]{nghttp3ReportName, func() qpack.DecoderTarget {
		return nghttp3DecoderTarget{}
	}}
}

// NewNghttp3QPACKEncoder opens a connection of libnghttp3's QPACK encoder
// (nghttp3_qpack_encoder, through internal/libnghttp3) under the
// decoder's settings s: a table of at most min(4096, s.MaxTableCapacity)
// octets, s.BlockedStreams streams that may block. It exists only in
// binaries built with -tags nghttp3. The connection's C memory is freed
// by a cleanup once it is unreachable: qpack.Encoder has no Close.
func NewNghttp3QPACKEncoder(s qpack.Settings) (qpack.Encoder, error) {
	e, err := libnghttp3.NewEncoder(s.MaxTableCapacity, s.BlockedStreams)
	if err != nil {
		return nil, err
	}
	return nghttp3Encoder{e}, nil
}

type nghttp3Encoder struct{ e *libnghttp3.Encoder }

func (n nghttp3Encoder) EncodeSection(stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
	return n.e.Encode(stream, fields)
}

// DecoderStream hands the octets to nghttp3_qpack_encoder_read_decoder,
// which writes nothing on the encoder stream in answer.
func (n nghttp3Encoder) DecoderStream(data []byte) ([]byte, error) {
	return nil, nghttp3ConnectionError(n.e.ReadDecoder(data))
}

// nghttp3ConnectionError returns err as a *qpack.ConnectionError when
// libnghttp3 reported a connection error, else err unchanged (a
// breakdown, or nil).
func nghttp3ConnectionError(err error) error {
	var e *libnghttp3.Error
	if errors.As(err, &e) && e.RFCCode() != "" {
		return &qpack.ConnectionError{Code: e.RFCCode(), Reason: e.Reason, Err: e}
	}
	return err
}

// nghttp3DecoderTarget opens connections of libnghttp3's QPACK decoder.
type nghttp3DecoderTarget struct{}

func (nghttp3DecoderTarget) Name() string { return nghttp3ReportName }
func (nghttp3DecoderTarget) Close() error { return nil }

// NewDecoder opens a decoder with s's three settings: the table capacity
// is libnghttp3's hard maximum, the blocked streams and the field section
// size are enforced around it as nghttp3_conn does. Its C memory is freed
// by a cleanup once it is unreachable: qpack.Decoder has no Close.
func (nghttp3DecoderTarget) NewDecoder(s qpack.Settings) (qpack.Decoder, error) {
	d, err := libnghttp3.NewDecoder(s.MaxTableCapacity, s.BlockedStreams, s.MaxFieldSectionSize)
	if err != nil {
		return nil, err
	}
	return nghttp3Decoder{d}, nil
}

type nghttp3Decoder struct{ d *libnghttp3.Decoder }

func (n nghttp3Decoder) EncoderStream(data []byte) ([]qpack.Decoded, []byte, error) {
	sections, err := n.d.ReadEncoder(data)
	if err != nil {
		return nil, nil, nghttp3ConnectionError(err)
	}
	var unblocked []qpack.Decoded
	for _, s := range sections {
		unblocked = append(unblocked, qpack.Decoded{Stream: s.Stream, Fields: s.Fields})
	}
	ds, err := n.d.DecoderStream()
	return unblocked, ds, err
}

func (n nghttp3Decoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	s, err := n.d.Decode(stream, section)
	if err != nil {
		return qpack.Decoded{}, nil, nghttp3ConnectionError(err)
	}
	ds, err := n.d.DecoderStream()
	return qpack.Decoded{Stream: s.Stream, Blocked: s.Blocked, Fields: s.Fields}, ds, err
}

func (n nghttp3Decoder) Cancel(stream uint64) ([]byte, error) {
	if err := n.d.Cancel(stream); err != nil {
		return nil, nghttp3ConnectionError(err)
	}
	return n.d.DecoderStream()
}
