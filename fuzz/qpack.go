package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	quicqpack "github.com/quic-go/qpack"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// A qpackDecoder is a QPACK decoder the QPACK targets hold against the
// strict decoder (oracle/qstrict), opened through the interface every
// QPACK decoder target implements (certify/qpack's Decoder).
type qpackDecoder struct {
	name string
	// staticOnly marks a decoder without a dynamic table: it is handed
	// only the field sections whose Required Insert Count is 0, never the
	// encoder stream, and its fields are compared without the N bit.
	staticOnly bool
	open       func(qpack.Settings) (qpack.Decoder, error)
}

// qpackDecoders are the decoders the QPACK targets compare with qstrict.
// A decoder joins by appending its entry here, from a file built with its
// tag when it needs one (libnghttp3's, tag nghttp3, from source/inprocess's
// BuiltinQPACKDecoder); both targets then drive it.
var qpackDecoders = []qpackDecoder{
	{name: quicGoName, staticOnly: true, open: openQuicGo},
}

// The names the QPACK targets give the decoders in their failures.
const (
	qstrictName = "strict (oracle/qstrict)"
	quicGoName  = "quic-go/qpack"
)

// qstrictSettings are the strict decoder's settings for the connection's.
func qstrictSettings(s qpack.Settings) qstrict.Settings {
	return qstrict.Settings{MaxTableCapacity: s.MaxTableCapacity, BlockedStreams: s.BlockedStreams, MaxFieldSectionSize: s.MaxFieldSectionSize}
}

// openQuicGo opens quic-go/qpack's decoder, which has the static table
// only and no state: a section referencing the dynamic table is an error.
func openQuicGo(qpack.Settings) (qpack.Decoder, error) {
	return quicGoDecoder{quicqpack.NewDecoder()}, nil
}

type quicGoDecoder struct{ d *quicqpack.Decoder }

var errNoEncoderStream = errors.New("quic-go/qpack has no dynamic table and reads no encoder stream")

func (q quicGoDecoder) EncoderStream([]byte) ([]qpack.Decoded, []byte, error) {
	return nil, nil, errNoEncoderStream
}

func (q quicGoDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	next := q.d.Decode(section)
	out := qpack.Decoded{Stream: stream}
	for {
		hf, err := next()
		if err == io.EOF {
			return out, nil, nil
		}
		if err != nil {
			return qpack.Decoded{}, nil, &qpack.ConnectionError{Code: qpack.DecompressionFailed, Reason: err.Error(), Err: err}
		}
		out.Fields = append(out.Fields, qpack.Field{Name: hf.Name, Value: hf.Value})
	}
}

func (q quicGoDecoder) Cancel(uint64) ([]byte, error) { return nil, nil }

// requiredInsertCountZero reports whether section's Encoded Required
// Insert Count is 0, the sections a static-only decoder is handed: an
// 8-bit prefix integer is 0 only as a first octet of 0. An empty section
// counts too, since both sides must refuse it.
func requiredInsertCountZero(section []byte) bool {
	return len(section) == 0 || section[0] == 0
}

// guard runs call and turns a panic of the decoder or encoder name into an
// error naming it, so that the failure says who panicked on what input.
func guard(name string, call func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v", name, p)
		}
	}()
	return call()
}

// sameFields reports whether got are want, comparing the N bit too unless
// staticOnly (a decoder that does not report it).
func sameFields(got, want []qpack.Field, staticOnly bool) bool {
	return slices.EqualFunc(got, want, func(g, w qpack.Field) bool {
		return g.Name == w.Name && g.Value == w.Value && (staticOnly || g.Sensitive == w.Sensitive)
	})
}

// A qpackDifference is a known disagreement between qstrict and another
// decoder on a field section with a Required Insert Count of 0, written
// down so that the decoders target lets it pass (and TestQPACKDifferences
// fails when it no longer occurs).
type qpackDifference struct {
	decoder string
	// accepts says which side the decoder takes: it accepts what
	// qstrict refuses, or refuses what qstrict accepts.
	accepts bool
	// what the difference is, with the rule of RFC 9204 at stake.
	reason string
	// normalize returns the section the difference does not touch, or
	// nil when it does not apply to section: the decoders must then agree
	// on that section, so the difference excuses nothing else.
	normalize func(section []byte) []byte
}

var qpackDifferences = []qpackDifference{
	{decoder: quicGoName, accepts: true,
		reason:    "quic-go/qpack reads Delta Base without its Sign bit and accepts a Base of -1 with a Required Insert Count of 0, which RFC 9204 §4.5.1.2 says an endpoint MUST treat as invalid",
		normalize: func(section []byte) []byte { return zeroBase(section, true) }},
	{decoder: quicGoName, accepts: false,
		reason:    "quic-go/qpack refuses a Base above 0 with a Required Insert Count of 0, which RFC 9204 §4.5.1.2 allows (no line of such a section can reference the dynamic table)",
		normalize: func(section []byte) []byte { return zeroBase(section, false) }},
}

// zeroBase returns section, whose Required Insert Count is 0, with its
// Base written as 0 (Sign 0, Delta Base 0), when its Sign bit is sign and
// its Base is not written so already; or nil.
func zeroBase(section []byte, sign bool) []byte {
	pf, p, err := qspec.ReadPrefix(section)
	if err != nil || pf.EncodedInsertCount != 0 || pf.Sign != sign || (!sign && pf.DeltaBase == 0) {
		return nil
	}
	if bytes.Equal(section[:p], []byte{0, 0}) {
		return nil
	}
	return append([]byte{0, 0}, section[p:]...)
}

// knownDifference returns the reason of the known difference that
// explains the decoder name accepting (accepted) or refusing a section
// with a Required Insert Count of 0 that qstrict refuses or accepts, or
// "". A difference explains it when both decoders agree on the section
// it normalizes: accept or refuse, and the same fields.
func knownDifference(d qpackDecoder, section []byte, accepted bool, settings qpack.Settings) string {
	for _, k := range qpackDifferences {
		if k.decoder != d.name || k.accepts != accepted {
			continue
		}
		norm := k.normalize(section)
		if norm == nil {
			continue
		}
		want, _, wantErr := qstrict.New(qstrictSettings(settings)).DecodeSection(0, norm)
		dec, err := d.open(settings)
		if err != nil {
			return ""
		}
		got, _, gotErr := dec.DecodeSection(0, norm)
		if (gotErr == nil) == (wantErr == nil) && sameFields(got.Fields, want, d.staticOnly) {
			return k.reason
		}
	}
	return ""
}
