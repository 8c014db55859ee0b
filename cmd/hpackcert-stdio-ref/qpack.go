package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/qencoder"
)

// serveQPACK serves the QPACK mode on standard input and output: the
// strict decoder when decoder is set, else the reference encoder with a
// table of at most capacity octets; binary offers the binary form.
func serveQPACK(decoder, encoder bool, capacity uint32, binary bool) error {
	if decoder && encoder {
		return errors.New("-qpack-encoder and -qpack-decoder exclude each other: a program plays one side")
	}
	s := &hpackstdio.QServer{Binary: binary}
	if decoder {
		s.Name = "hpackcert-stdio-ref qpack decoder (qstrict)"
		s.NewDecoder = func(set hpackstdio.QSettings) (hpackstdio.QDecoder, error) {
			return &qpackDecoder{d: qstrict.New(qstrict.Settings(set))}, nil
		}
	} else {
		s.Name = fmt.Sprintf("hpackcert-stdio-ref qpack encoder (capacity %d)", capacity)
		s.NewEncoder = func(set hpackstdio.QSettings) (hpackstdio.QEncoder, error) {
			cfg := qencoder.Config{TableCapacity: capacity, PeerMaxTableCapacity: set.MaxTableCapacity, BlockedStreams: set.BlockedStreams}
			return &qpackEncoder{e: qencoder.New(cfg)}, nil
		}
	}
	return s.Serve(os.Stdin, os.Stdout)
}

// qpackEncoder is one connection of the reference QPACK encoder, as the
// QServer drives it.
type qpackEncoder struct {
	e *qencoder.Encoder
	// pending holds the decoder-stream octets of an instruction not yet
	// whole, which the encoder reads once the rest arrives.
	pending []byte
}

func (q *qpackEncoder) EncodeSection(stream uint64, fields []hpackstdio.Field) ([]byte, []byte, error) {
	section, enc := q.e.AppendSection(nil, nil, stream, fields)
	return section, enc, nil
}

func (q *qpackEncoder) DecoderStream(data []byte) ([]byte, error) {
	q.pending = append(q.pending, data...)
	n, err := q.e.DecoderStream(q.pending)
	q.pending = q.pending[:copy(q.pending, q.pending[n:])]
	if err != nil {
		return nil, &hpackstdio.CodedError{Code: "QPACK_DECODER_STREAM_ERROR", Reason: err.Error(), Err: err}
	}
	return nil, nil
}

// qpackDecoder is one connection of the strict QPACK decoder, as the
// QServer drives it: each of its errors with an RFC 9204 code is a
// refusal with that code.
type qpackDecoder struct{ d *qstrict.Decoder }

func (q *qpackDecoder) EncoderStream(data []byte) ([]hpackstdio.QSection, []byte, error) {
	if err := q.d.EncoderStream(data); err != nil {
		return nil, nil, coded(err)
	}
	var out []hpackstdio.QSection
	for _, u := range q.d.Unblocked() {
		out = append(out, hpackstdio.QSection{Stream: u.StreamID, Fields: u.Fields})
	}
	return out, q.d.DecoderStreamOut(), nil
}

func (q *qpackDecoder) DecodeSection(stream uint64, section []byte) (hpackstdio.QSection, []byte, error) {
	fields, status, err := q.d.DecodeSection(stream, section)
	if err != nil {
		return hpackstdio.QSection{}, nil, coded(err)
	}
	return hpackstdio.QSection{Stream: stream, Blocked: status == qstrict.Blocked, Fields: fields}, q.d.DecoderStreamOut(), nil
}

func (q *qpackDecoder) Cancel(stream uint64) ([]byte, error) {
	if err := q.d.Cancel(stream); err != nil {
		return nil, coded(err)
	}
	return q.d.DecoderStreamOut(), nil
}

// coded returns err, an error of the strict decoder, as a refusal with
// its code; any other error (qstrict.ErrBroken, a call after a
// connection error) stays a breakdown.
func coded(err error) error {
	var e *qstrict.Error
	if errors.As(err, &e) {
		return &hpackstdio.CodedError{Code: e.Code, Reason: e.Error(), Err: err}
	}
	return err
}
