package fuzz

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// strictQDecoder is qstrict behind certify/qpack's Decoder interface: a
// decoder with a dynamic table, as libnghttp3's will be, to drive the
// targets' path for such decoders.
type strictQDecoder struct{ d *qstrict.Decoder }

func openStrictQ(s qpack.Settings) (qpack.Decoder, error) {
	return strictQDecoder{qstrict.New(qstrictSettings(s))}, nil
}

func (s strictQDecoder) EncoderStream(data []byte) ([]qpack.Decoded, []byte, error) {
	if err := s.d.EncoderStream(data); err != nil {
		return nil, nil, err
	}
	var out []qpack.Decoded
	for _, u := range s.d.Unblocked() {
		out = append(out, qpack.Decoded{Stream: u.StreamID, Fields: u.Fields})
	}
	return out, s.d.DecoderStreamOut(), nil
}

func (s strictQDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	fields, status, err := s.d.DecodeSection(stream, section)
	if err != nil {
		return qpack.Decoded{}, nil, err
	}
	return qpack.Decoded{Stream: stream, Blocked: status == qstrict.Blocked, Fields: fields}, s.d.DecoderStreamOut(), nil
}

func (s strictQDecoder) Cancel(stream uint64) ([]byte, error) {
	err := s.d.Cancel(stream)
	return s.d.DecoderStreamOut(), err
}

var fullStrict = qpackDecoder{name: "qstrict behind qpack.Decoder", open: openStrictQ}

// committedSeeds returns the committed seeds of target, name to contents.
func committedSeeds(t *testing.T, target string) map[string][]byte {
	t.Helper()
	dir := filepath.Join("..", "corpus", target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// TestQPACKAppendixB checks the seeds' transcription of RFC 9204 Appendix
// B: qstrict decodes its sections to the lists the RFC gives, and writes
// the decoder-stream instructions it shows (B.2's acknowledgment 84,
// B.3's increment 01, B.4's cancellation 48, B.5's increment 01).
func TestQPACKAppendixB(t *testing.T) {
	d := qstrict.New(qstrictSettings(rfcBSettings))
	var decoded [][]qpack.Field
	var out []byte
	stream := uint64(0)
	for i, st := range rfcBSession().Steps {
		var err error
		switch st.Kind {
		case QStepEncoderStream:
			err = d.EncoderStream(st.Data)
		case QStepSection:
			var fields []qpack.Field
			fields, _, err = d.DecodeSection(stream, st.Data)
			decoded = append(decoded, fields)
			stream += 4
		case QStepReset:
			err = d.Cancel(8)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		out = append(out, d.DecoderStreamOut()...)
	}
	if len(decoded) != len(rfcBLists) {
		t.Fatalf("%d sections decoded; want %d", len(decoded), len(rfcBLists))
	}
	for i, want := range rfcBLists {
		if !sameFields(decoded[i], want, false) {
			t.Errorf("section %d: %s; want %s", i, fieldsString(decoded[i]), fieldsString(want))
		}
	}
	// qstrict, which reads each step before the next, also sends the
	// increments and acknowledgments the example's timing leaves out.
	want := []byte{0x84, 0x01, 0x48, 0x01}
	rest := out
	for _, b := range want {
		if i := slices.Index(rest, b); i >= 0 {
			rest = rest[i+1:]
		} else {
			t.Errorf("decoder stream %x; want %x among its octets, in order", out, want)
			break
		}
	}
}

// TestQPACKDifferences checks each known difference: its example splits
// qstrict and the decoder the way the entry says, the entry explains it,
// and without the entry the decoders target fails on it.
func TestQPACKDifferences(t *testing.T) {
	for _, k := range qpackDifferences {
		i := slices.IndexFunc(qpackDecoders, func(d qpackDecoder) bool { return d.name == k.decoder })
		if i < 0 {
			t.Errorf("%s: no decoder %s", k.name, k.decoder)
			continue
		}
		d := qpackDecoders[i]
		section := unhexQ(k.example)
		_, _, strictErr := qstrict.New(qstrictSettings(rfcBSettings)).DecodeSection(0, section)
		dec, _ := d.open(rfcBSettings)
		_, _, err := dec.DecodeSection(0, section)
		if (err == nil) != k.accepts || (strictErr == nil) == k.accepts {
			t.Errorf("%s: %s returns %v, qstrict %v; the entry says %s accepts what qstrict refuses: %v", k.name, d.name, err, strictErr, d.name, k.accepts)
		}
		if got := knownDifference(d, section, err, rfcBSettings); got != k.reason {
			t.Errorf("%s: knownDifference gives %q", k.name, got)
		}
		data, _ := (&QSession{Settings: rfcBSettings, Steps: []QStep{{Kind: QStepSection, Data: section}}}).Bytes()
		if err := CheckQPACKDecoders(data, qpackDecoders); err != nil {
			t.Errorf("%s: %v", k.name, err)
		}
		saved := qpackDifferences
		qpackDifferences = nil
		if err := CheckQPACKDecoders(data, qpackDecoders); err == nil {
			t.Errorf("%s: the target passes without the entry", k.name)
		}
		qpackDifferences = saved
	}
}

// plantedEncoder wraps the reference encoder with a bug.
type plantedEncoder struct {
	qpack.Encoder
	encode func(e qpack.Encoder, stream uint64, fields []qpack.Field) ([]byte, []byte, error)
	told   func(e qpack.Encoder, data []byte) ([]byte, error)
}

func (p plantedEncoder) EncodeSection(stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
	if p.encode != nil {
		return p.encode(p.Encoder, stream, fields)
	}
	return p.Encoder.EncodeSection(stream, fields)
}

func (p plantedEncoder) DecoderStream(data []byte) ([]byte, error) {
	if p.told != nil {
		return p.told(p.Encoder, data)
	}
	return p.Encoder.DecoderStream(data)
}

// TestQPACKRoundTripCatches checks that the round-trip target passes the
// reference encoder on every seed, with a decoder with a dynamic table
// added, and catches planted encoder bugs, each on some seed.
func TestQPACKRoundTripCatches(t *testing.T) {
	seeds := committedSeeds(t, targetQPACKEncodeRoundTrip)
	decoders := append(slices.Clone(qpackDecoders), fullStrict)
	for name, data := range seeds {
		if err := CheckQPACKEncodeRoundTrip(data, newQPACKEncoder, decoders); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bugs := []struct {
		name, want string
		encode     func(e qpack.Encoder, stream uint64, fields []qpack.Field) ([]byte, []byte, error)
		told       func(e qpack.Encoder, data []byte) ([]byte, error)
	}{
		{name: "drops the last field", want: "the encoder was given", encode: func(e qpack.Encoder, stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
			return e.EncodeSection(stream, fields[:max(len(fields)-1, 0)])
		}},
		{name: "writes its inserts twice", want: "refuses", encode: func(e qpack.Encoder, stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
			section, enc, err := e.EncodeSection(stream, fields)
			return section, append(enc, enc...), err
		}},
		{name: "a Required Insert Count of 1 in static sections", want: "blocked", encode: func(e qpack.Encoder, stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
			section, enc, err := e.EncodeSection(stream, fields)
			if len(section) > 0 && section[0] == 0 {
				section[0] = 2 // 1, encoded
			}
			return section, enc, err
		}},
		{name: "refuses acknowledgments", want: "the encoder refuses", told: func(qpack.Encoder, []byte) ([]byte, error) {
			return nil, &qpack.ConnectionError{Code: qpack.DecoderStreamError, Reason: "planted"}
		}},
		{name: "panics", want: "the encoder panicked", encode: func(qpack.Encoder, uint64, []qpack.Field) ([]byte, []byte, error) {
			panic("planted")
		}},
	}
	for _, bug := range bugs {
		planted := func(s qpack.Settings) (qpack.Encoder, error) {
			e, err := newQPACKEncoder(s)
			return plantedEncoder{e, bug.encode, bug.told}, err
		}
		if !caught(seeds, func(data []byte) error { return CheckQPACKEncodeRoundTrip(data, planted, decoders) }, bug.want) {
			t.Errorf("%s: no seed fails with %q", bug.name, bug.want)
		}
	}
}

// caught reports whether check fails on some seed with an error that
// says want.
func caught(seeds map[string][]byte, check func([]byte) error, want string) bool {
	names := make([]string, 0, len(seeds))
	for name := range seeds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := check(seeds[name]); err != nil && strings.Contains(err.Error(), want) {
			return true
		}
	}
	return false
}

// plantedDecoder wraps a decoder with a bug in its sections or its
// encoder stream.
type plantedDecoder struct {
	qpack.Decoder
	section func(d qpack.Decoder, stream uint64, section []byte) (qpack.Decoded, []byte, error)
	stream  func(d qpack.Decoder, data []byte) ([]qpack.Decoded, []byte, error)
}

func (p plantedDecoder) DecodeSection(stream uint64, section []byte) (qpack.Decoded, []byte, error) {
	if p.section != nil {
		return p.section(p.Decoder, stream, section)
	}
	return p.Decoder.DecodeSection(stream, section)
}

func (p plantedDecoder) EncoderStream(data []byte) ([]qpack.Decoded, []byte, error) {
	if p.stream != nil {
		return p.stream(p.Decoder, data)
	}
	return p.Decoder.EncoderStream(data)
}

// TestQPACKDecodersCatches checks that the decoders target passes every
// seed, with a decoder with a dynamic table added, and catches planted
// bugs of a static-only decoder and of one with a dynamic table.
func TestQPACKDecodersCatches(t *testing.T) {
	seeds := committedSeeds(t, targetQPACKDecoders)
	decoders := append(slices.Clone(qpackDecoders), fullStrict)
	for name, data := range seeds {
		if err := CheckQPACKDecoders(data, decoders); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	dropLast := func(d qpack.Decoder, stream uint64, section []byte) (qpack.Decoded, []byte, error) {
		got, out, err := d.DecodeSection(stream, section)
		got.Fields = got.Fields[:max(len(got.Fields)-1, 0)]
		return got, out, err
	}
	acceptAll := func(_ qpack.Decoder, stream uint64, _ []byte) (qpack.Decoded, []byte, error) {
		return qpack.Decoded{Stream: stream}, nil, nil
	}
	neverUnblocks := func(d qpack.Decoder, data []byte) ([]qpack.Decoded, []byte, error) {
		_, out, err := d.EncoderStream(data)
		return nil, out, err
	}
	refusesStream := func(qpack.Decoder, []byte) ([]qpack.Decoded, []byte, error) {
		return nil, nil, errors.New("planted")
	}
	panics := func(qpack.Decoder, uint64, []byte) (qpack.Decoded, []byte, error) { panic("planted") }
	bugs := []struct {
		name, want string
		base       qpackDecoder
		section    func(d qpack.Decoder, stream uint64, section []byte) (qpack.Decoded, []byte, error)
		stream     func(d qpack.Decoder, data []byte) ([]qpack.Decoded, []byte, error)
	}{
		{name: "static-only, drops the last field", want: "quic-go/qpack decodes", base: qpackDecoders[0], section: dropLast},
		{name: "static-only, accepts anything", want: "quic-go/qpack returns", base: qpackDecoders[0], section: acceptAll},
		{name: "static-only, panics", want: "quic-go/qpack panicked", base: qpackDecoders[0], section: panics},
		{name: "dynamic, drops the last field", want: fullStrict.name + " decodes", base: fullStrict, section: dropLast},
		{name: "dynamic, never unblocks", want: "unblocks 0 sections", base: fullStrict, stream: neverUnblocks},
		{name: "dynamic, refuses the encoder stream", want: fullStrict.name + " returns planted", base: fullStrict, stream: refusesStream},
	}
	for _, bug := range bugs {
		planted := bug.base
		planted.open = func(s qpack.Settings) (qpack.Decoder, error) {
			d, err := bug.base.open(s)
			return plantedDecoder{d, bug.section, bug.stream}, err
		}
		if !caught(seeds, func(data []byte) error { return CheckQPACKDecoders(data, []qpackDecoder{planted}) }, bug.want) {
			t.Errorf("%s: no seed fails with %q", bug.name, bug.want)
		}
	}
}
