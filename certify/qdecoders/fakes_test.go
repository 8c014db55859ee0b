package qdecoders

import (
	"errors"
	"slices"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// hooks change one behaviour of the strict decoder, to make a decoder
// that breaks one rule. Each is optional.
type hooks struct {
	// settings changes the settings the strict decoder is opened with.
	settings func(qpack.Settings) qpack.Settings
	// refuse, asked before a step reaches the strict decoder, returns
	// the error the fake refuses it with, nil to pass it on.
	refuse func(d *fakeDecoder, kind stepKind, stream uint64, data []byte) error
	// recode turns a refusal of the strict decoder into the fake's.
	recode func(e *qstrict.Error) *qpack.ConnectionError
	// after changes what the step gave.
	after func(kind stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte)
}

// fakeTarget is the strict decoder with hooks, in process.
type fakeTarget struct {
	name string
	h    hooks
}

func (t *fakeTarget) Name() string { return t.name }
func (t *fakeTarget) Close() error { return nil }
func (t *fakeTarget) InProcess()   {}
func (t *fakeTarget) NewDecoder(s qpack.Settings) (qpack.Decoder, error) {
	open := s
	if t.h.settings != nil {
		open = t.h.settings(s)
	}
	return &fakeDecoder{d: qstrict.New(qstrict.Settings(open)), settings: s, h: t.h}, nil
}

type fakeDecoder struct {
	d        *qstrict.Decoder
	settings qpack.Settings
	h        hooks
	tail     []byte // encoder-stream octets of an instruction not yet whole
}

// instructions returns the kinds of the encoder instructions data
// completes.
func (f *fakeDecoder) instructions(data []byte) []qspec.Kind {
	buf := append(f.tail, data...)
	var out []qspec.Kind
	p := 0
	for p < len(buf) {
		in, next, err := qspec.ReadEncoderInstruction(buf, p)
		if err != nil {
			break
		}
		out = append(out, in.Kind)
		p = next
	}
	f.tail = append([]byte(nil), buf[p:]...)
	return out
}

func (f *fakeDecoder) finish(kind stepKind, got []qpack.Decoded, err error) ([]qpack.Decoded, []byte, error) {
	ds := f.d.DecoderStreamOut()
	var e *qstrict.Error
	if errors.As(err, &e) {
		ce := &qpack.ConnectionError{Code: e.Code, Reason: e.Error(), Err: e}
		if f.h.recode != nil {
			ce = f.h.recode(e)
		}
		return nil, ds, ce
	}
	if err != nil {
		return nil, ds, err
	}
	if f.h.after != nil {
		got, ds = f.h.after(kind, got, ds)
	}
	return got, ds, nil
}

func (f *fakeDecoder) EncoderStream(data []byte) ([]qpack.Decoded, []byte, error) {
	if f.h.refuse != nil {
		if err := f.h.refuse(f, encoderStep, 0, data); err != nil {
			return nil, nil, err
		}
	}
	err := f.d.EncoderStream(data)
	var got []qpack.Decoded
	for _, u := range f.d.Unblocked() {
		got = append(got, qpack.Decoded{Stream: u.StreamID, Fields: u.Fields})
	}
	return f.finish(encoderStep, got, err)
}

func (f *fakeDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	if f.h.refuse != nil {
		if err := f.h.refuse(f, sectionStep, stream, section); err != nil {
			return qpack.Decoded{}, nil, err
		}
	}
	fields, status, err := f.d.DecodeSection(stream, section)
	got, ds, err := f.finish(sectionStep, []qpack.Decoded{{Stream: stream, Blocked: status == qstrict.Blocked, Fields: fields}}, err)
	if err != nil {
		return qpack.Decoded{}, ds, err
	}
	return got[0], ds, nil
}

func (f *fakeDecoder) Cancel(stream uint64) ([]byte, error) {
	if f.h.refuse != nil {
		if err := f.h.refuse(f, cancelStep, stream, nil); err != nil {
			return nil, err
		}
	}
	err := f.d.Cancel(stream)
	_, ds, err := f.finish(cancelStep, nil, err)
	return ds, err
}

// ric is the Required Insert Count of a section for the fake's state,
// with its prefix; ok is false for an invalid prefix.
func (f *fakeDecoder) ric(section []byte) (qspec.Prefix, uint64, bool) {
	pf, _, err := qspec.ReadPrefix(section)
	if err != nil {
		return pf, 0, false
	}
	ric, err := pf.RequiredInsertCount(qspec.MaxEntries(f.settings.MaxTableCapacity), f.d.InsertCount())
	return pf, ric, err == nil
}

// recodeAt gives refusals of the strict decoder in one of the RFC
// sections secs, on stream ("encoder stream" or "field section"; "" for
// both), the code code instead of theirs.
func recodeAt(stream, code string, secs ...string) func(e *qstrict.Error) *qpack.ConnectionError {
	return recodeIf(code, func(e *qstrict.Error) bool {
		return (stream == "" || e.Stream == stream) && slices.Contains(secs, e.Section)
	})
}

// recodeIf gives the refusals of the strict decoder that match the code
// code instead of theirs.
func recodeIf(code string, match func(e *qstrict.Error) bool) func(e *qstrict.Error) *qpack.ConnectionError {
	return func(e *qstrict.Error) *qpack.ConnectionError {
		ce := &qpack.ConnectionError{Code: e.Code, Reason: e.Error(), Err: e}
		if match(e) {
			ce.Code = code
		}
		return ce
	}
}

// filterStream drops the decoder-stream instructions of kind k from ds.
func filterStream(ds []byte, k qspec.Kind) []byte {
	var out []byte
	for p := 0; p < len(ds); {
		in, next, err := qspec.ReadDecoderInstruction(ds, p)
		if err != nil {
			return append(out, ds[p:]...)
		}
		if in.Kind != k {
			out = append(out, ds[p:next]...)
		}
		p = next
	}
	return out
}

func refusal(code, reason string) error { return &qpack.ConnectionError{Code: code, Reason: reason} }
