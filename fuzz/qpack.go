package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

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
	// name names the difference, and its seed (known-<name>); example
	// is a section, in hex, that shows it.
	name, example string
	decoder       string
	// accepts says which side the decoder takes: it accepts what
	// qstrict refuses, or refuses what qstrict accepts.
	accepts bool
	// what the difference is, with the rule of RFC 9204 at stake.
	reason string
	// normalize returns the section the difference does not touch, or
	// nil when it does not apply to section: the decoders must then agree
	// on that section, so the difference excuses nothing else. A
	// difference without it applies when the decoder's error says refusal.
	normalize func(section []byte) []byte
	refusal   string
}

var qpackDifferences = []qpackDifference{
	{name: "quicgo-base-sign-ric-0", example: "0080d1", decoder: quicGoName, accepts: true,
		reason:    "quic-go/qpack reads Delta Base without its Sign bit and accepts a Base of -1 with a Required Insert Count of 0, which RFC 9204 §4.5.1.2 says an endpoint MUST treat as invalid",
		normalize: func(section []byte) []byte { return zeroBase(section, true) }},
	{name: "quicgo-base-above-0-ric-0", example: "0005d1", decoder: quicGoName, accepts: false,
		reason:    "quic-go/qpack refuses a Base above 0 with a Required Insert Count of 0, which RFC 9204 §4.5.1.2 allows (no line of such a section can reference the dynamic table)",
		normalize: func(section []byte) []byte { return zeroBase(section, false) }},
	{name: "quicgo-integer-of-10-octets", example: "00005f808080808080808080000161", decoder: quicGoName, accepts: false, refusal: "varint integer overflow",
		reason: "quic-go/qpack refuses an integer of 10 octets or more, however small its value (a non-minimal encoding, such as 15 as 5f 80 80 80 80 80 80 80 80 80 00), where qstrict reads any value up to 2^62-1; RFC 7541 §5.1, which RFC 9204 §4.1.1 cites, lets a decoder limit the octets of an integer"},
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
// explains decoder d accepting a section with a Required Insert Count of
// 0 that qstrict refuses, or refusing (with decErr) one qstrict accepts,
// or "". A difference with normalize explains it when both decoders agree
// on the section it normalizes (accept or refuse, and the same fields),
// or another difference explains how they differ on it.
func knownDifference(d qpackDecoder, section []byte, decErr error, settings qpack.Settings) string {
	for _, k := range qpackDifferences {
		if k.decoder != d.name || k.accepts != (decErr == nil) {
			continue
		}
		if k.normalize == nil {
			if strings.Contains(decErr.Error(), k.refusal) {
				return k.reason
			}
			continue
		}
		norm := k.normalize(section)
		if norm == nil {
			continue
		}
		want, _, wantErr := qstrict.New(qstrictSettings(settings)).DecodeSection(0, norm)
		var got qpack.Decoded
		var gotErr error
		broken := guard(d.name, func() error {
			dec, err := d.open(settings)
			if err == nil {
				got, _, gotErr = dec.DecodeSection(0, norm)
			}
			return err
		})
		if broken != nil {
			continue
		}
		// The normalized section may show another known difference.
		if (gotErr == nil) == (wantErr == nil) && sameFields(got.Fields, want, d.staticOnly) ||
			(gotErr == nil) != (wantErr == nil) && knownDifference(d, norm, gotErr, settings) != "" {
			return k.reason
		}
	}
	return ""
}
