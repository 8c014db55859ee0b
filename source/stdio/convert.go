package stdio

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/hpackstdio"
)

// This file is the one place where the protocol's types (package
// hpackstdio, which imports no part of the certifier) meet the
// certifier's: fields, lacks, errors, and the Go encoders and decoders a
// Server serves. A change to certify's types is adapted here.

// certifyFields returns fields as the certifier's, appended to dst.
func certifyFields(dst []certify.Field, fields []hpackstdio.Field) []certify.Field {
	for _, f := range fields {
		dst = append(dst, certify.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
	}
	return dst
}

// protocolFields returns fields as the protocol's, appended to dst.
func protocolFields(dst []hpackstdio.Field, fields []certify.Field) []hpackstdio.Field {
	for _, f := range fields {
		dst = append(dst, hpackstdio.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
	}
	return dst
}

// certifyLacks returns what an encoder's hello declared as the
// certifier's Lacks, or an error when the certifier does not know a
// lack the protocol defines (the two lists disagree).
func certifyLacks(l hpackstdio.Lacks) (certify.Lacks, error) {
	var ranges [][2]int
	for _, r := range l.Refuses {
		ranges = append(ranges, [2]int{int(r.Lo), int(r.Hi)})
	}
	lacks, err := certify.ParseLacks(l.Names, ranges)
	if err != nil {
		return certify.Lacks{}, fmt.Errorf("the encoder declares lacks the certifier cannot take: %w", err)
	}
	return lacks, nil
}

// DeclareLacks is the ServeOption by which Serve declares l in its
// answer to hello, the lacks of an encoder's library in the certifier's
// terms.
func DeclareLacks(l certify.Lacks) ServeOption {
	return func(s *hpackstdio.Server) { s.Lacks = protocolLacks(l) }
}

// DeclareDecoderLacks is the ServeOption by which ServeDecoder declares
// l in its answer to hello.
func DeclareDecoderLacks(l certify.DecoderLacks) ServeOption {
	return func(s *hpackstdio.Server) { s.DecoderLacks = protocolDecoderLacks(l) }
}

// protocolLacks returns the certifier's Lacks as the protocol's.
func protocolLacks(l certify.Lacks) hpackstdio.Lacks {
	p := hpackstdio.Lacks{Names: l.Names()}
	for _, r := range l.Refuses {
		p.Refuses = append(p.Refuses, hpackstdio.OctetRange{Lo: r.Lo, Hi: r.Hi})
	}
	return p
}

// certifyDecoderLacks returns the lacks a decoder's hello declared, by
// name, as the certifier's DecoderLacks.
func certifyDecoderLacks(names []string) (certify.DecoderLacks, error) {
	var l certify.DecoderLacks
	for _, name := range names {
		if err := l.ParseDecoderLack(name); err != nil {
			return certify.DecoderLacks{}, fmt.Errorf("the decoder declares lacks the certifier cannot take: %w", err)
		}
	}
	return l, nil
}

// protocolDecoderLacks returns the certifier's DecoderLacks by the names
// of the protocol.
func protocolDecoderLacks(l certify.DecoderLacks) []string { return l.Names() }

// alsoError is an error of the protocol that matches (errors.Is) an
// error of the certifier too, by which the engine tells its kind.
type alsoError struct{ err, also error }

func (e alsoError) Error() string   { return e.err.Error() }
func (e alsoError) Unwrap() []error { return []error{e.err, e.also} }

// certifyError returns err, an error of a Client or DecoderClient, made
// to match what the certifier looks for: certify.ErrTimeout for a
// request not answered in time, certify.ErrAnswerTooLarge for a decode
// answer over its bound (the expansion the bomb case grades).
func certifyError(err error) error {
	var oversize *hpackstdio.OversizeAnswerError
	switch {
	case errors.Is(err, hpackstdio.ErrTimeout):
		return alsoError{err, certify.ErrTimeout}
	case errors.As(err, &oversize):
		return alsoError{err, certify.ErrAnswerTooLarge}
	}
	return err
}

// SettingUnsupportedPrefix starts the error answer of a decoder that
// cannot take the table_size or max_header_list of a decode request in a
// context made with another (a library that takes them only when a
// decoder is made): the story is then not exercised, neither a refusal
// nor a breakdown (certify.ErrSettingUnsupported).
const SettingUnsupportedPrefix = "setting unsupported:"

// certifyDecodeError returns the error of a decode request as the
// certifier takes it: an error answer is a *certify.Rejection (or,
// starting with SettingUnsupportedPrefix, certify.ErrSettingUnsupported),
// anything else a breakdown (certifyError).
func certifyDecodeError(err error) error {
	var ae *hpackstdio.AnswerError
	if errors.As(err, &ae) && ae.Op == hpackstdio.OpDecode {
		if strings.HasPrefix(ae.Text, SettingUnsupportedPrefix) {
			// The library takes the setting only when a context is made
			// (docs/STDIO.md): the story needs what it cannot do.
			return fmt.Errorf("%w: %s", certify.ErrSettingUnsupported, ae.Text)
		}
		return &certify.Rejection{Reason: ae.Text, Err: err}
	}
	return certifyError(err)
}

// servedEncoder is a certify.Encoder as a Server drives it.
type servedEncoder struct {
	enc    certify.Encoder
	fields []certify.Field
}

func (e *servedEncoder) SetMaxDynamicTableSize(n uint32) error {
	return e.enc.SetMaxDynamicTableSize(n)
}

func (e *servedEncoder) EncodeBlock(dst []byte, fields []hpackstdio.Field) ([]byte, error) {
	e.fields = certifyFields(e.fields[:0], fields)
	return e.enc.EncodeBlock(dst, e.fields)
}

// servedDecoder returns dec as a Server drives it: a refusal, an error
// wrapping a *certify.Rejection, is a *hpackstdio.Refusal, and the
// table is shown when dec is a certify.DecoderTableReader. A nil dec
// stays nil, for the Server to say so.
func servedDecoder(dec certify.Decoder) hpackstdio.Decoder {
	switch d := dec.(type) {
	case nil:
		return nil
	case certify.DecoderTableReader:
		return servedTableDecoder{plainServedDecoder{dec}, d}
	}
	return plainServedDecoder{dec}
}

// plainServedDecoder is a certify.Decoder as a Server drives it.
type plainServedDecoder struct{ dec certify.Decoder }

func (d plainServedDecoder) SetMaxDynamicTableSize(n uint32) error {
	return d.dec.SetMaxDynamicTableSize(n)
}

func (d plainServedDecoder) SetMaxHeaderListSize(n uint32) error {
	return d.dec.SetMaxHeaderListSize(n)
}

func (d plainServedDecoder) DecodeBlock(block []byte) ([]hpackstdio.Field, error) {
	fields, err := d.dec.DecodeBlock(block)
	var rejection *certify.Rejection
	if errors.As(err, &rejection) {
		return nil, &hpackstdio.Refusal{Reason: rejection.Reason, Err: err}
	}
	if err != nil {
		return nil, err
	}
	return protocolFields(nil, fields), nil
}

// servedTableDecoder is a certify.Decoder that shows its table.
type servedTableDecoder struct {
	plainServedDecoder
	table certify.DecoderTableReader
}

func (d servedTableDecoder) DecoderTable() ([]hpackstdio.Field, error) {
	table, err := d.table.DecoderTable()
	if err != nil {
		return nil, err
	}
	return protocolFields(nil, table), nil
}

// codedError returns err with its *qpack.ConnectionError, if any, as the
// protocol's *hpackstdio.CodedError.
func codedError(err error) error {
	if ce := qpack.AsConnectionError(err); ce != nil {
		return &hpackstdio.CodedError{Code: ce.Code, Reason: ce.Reason, Err: err}
	}
	return err
}

// servedQPACKEncoder is a qpack.Encoder as a QServer drives it.
type servedQPACKEncoder struct{ e qpack.Encoder }

func (s servedQPACKEncoder) EncodeSection(stream uint64, fields []hpackstdio.Field) ([]byte, []byte, error) {
	section, enc, err := s.e.EncodeSection(stream, fields)
	return section, enc, codedError(err)
}

func (s servedQPACKEncoder) DecoderStream(data []byte) ([]byte, error) {
	enc, err := s.e.DecoderStream(data)
	return enc, codedError(err)
}

// servedQPACKDecoder is a qpack.Decoder as a QServer drives it.
type servedQPACKDecoder struct{ d qpack.Decoder }

func (s servedQPACKDecoder) EncoderStream(data []byte) ([]hpackstdio.QSection, []byte, error) {
	unblocked, out, err := s.d.EncoderStream(data)
	sections := make([]hpackstdio.QSection, len(unblocked))
	for i, u := range unblocked {
		sections[i] = hpackstdio.QSection(u)
	}
	return sections, out, codedError(err)
}

func (s servedQPACKDecoder) DecodeSection(stream uint64, section []byte) (hpackstdio.QSection, []byte, error) {
	d, out, err := s.d.DecodeSection(stream, section)
	return hpackstdio.QSection(d), out, codedError(err)
}

func (s servedQPACKDecoder) Cancel(stream uint64) ([]byte, error) {
	out, err := s.d.Cancel(stream)
	return out, codedError(err)
}
