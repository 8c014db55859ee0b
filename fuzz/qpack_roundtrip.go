package fuzz

import (
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// CheckQPACKEncodeRoundTrip is the body of the QPACK round-trip target. It
// opens an encoder by newEncoder (the reference encoder in the targets)
// under the settings of the QScript decoded from data, has it encode each
// header list, and plays the script's schedule: the encoder stream
// reaches the decoders in pieces and late, sections out of order, some
// streams are reset, and what the strict decoder writes on the decoder
// stream reaches the encoder in pieces. It fails when
//
//   - the encoder breaks down, or refuses the strict decoder's
//     decoder-stream octets;
//   - the strict decoder (oracle/qstrict) refuses anything the encoder
//     wrote, or decodes a section to other fields than the list given
//     (a field asked to be sensitive must carry the N bit), or still
//     holds a section blocked once everything has arrived;
//   - a decoder of decoders (qpackDecoders in the targets) does not decode a section to the same
//     fields: a static-only decoder (quic-go/qpack) each section with a
//     Required Insert Count of 0, others every section.
//
// The error ends with the script.
func CheckQPACKEncodeRoundTrip(data []byte, newEncoder func(qpack.Settings) (qpack.Encoder, error), decoders []qpackDecoder) error {
	s := ParseQScript(data)
	if err := runQPACKRoundTrip(s, newEncoder, decoders); err != nil {
		return fmt.Errorf("%w\n%s", err, s)
	}
	return nil
}

// A qsent is a field section the encoder wrote.
type qsent struct {
	index   int
	stream  uint64
	section []byte
	list    []qpack.Field
	// arrived or reset, it is no longer pending; decoded counts the
	// decoders (strict and the others) that decoded it.
	arrived, reset bool
	decoded        int
}

// An openQPACK is a decoder of qpackDecoders open on the connection.
type openQPACK struct {
	qpackDecoder
	d qpack.Decoder
}

type qroundTrip struct {
	enc       qpack.Encoder
	strict    *qstrict.Decoder
	others    []openQPACK
	written   []byte // the encoder stream so far
	delivered int    // octets of it the decoders have
	feedback  []byte // decoder-stream octets not yet handed to the encoder
	sections  []*qsent
	list      []qpack.Field
}

func runQPACKRoundTrip(s *QScript, newEncoder func(qpack.Settings) (qpack.Encoder, error), decoders []qpackDecoder) error {
	rt := &qroundTrip{strict: qstrict.New(qstrictSettings(s.Settings))}
	err := guard("the encoder", func() (err error) { rt.enc, err = newEncoder(s.Settings); return err })
	if err != nil {
		return fmt.Errorf("opening the encoder: %v", err)
	}
	for _, d := range decoders {
		open := openQPACK{qpackDecoder: d}
		if err := guard(d.name, func() (err error) { open.d, err = d.open(s.Settings); return err }); err != nil {
			return fmt.Errorf("opening %s: %v", d.name, err)
		}
		rt.others = append(rt.others, open)
	}
	for _, op := range s.Ops {
		var err error
		switch op.Kind {
		case QOpField:
			rt.list = append(rt.list, qpack.Field{Name: op.Name, Value: op.Value, Sensitive: op.Sensitive})
		case QOpEndSection:
			err = rt.encode()
		case QOpEncoderStream:
			err = rt.deliverStream(op.N)
		case QOpSection:
			if p := rt.pending(); len(p) > 0 {
				err = rt.deliverSection(p[op.N%len(p)])
			}
		case QOpFeedback:
			err = rt.feedBack(op.N)
		case QOpReset:
			if p := rt.pending(); len(p) > 0 {
				err = rt.resetStream(p[op.N%len(p)])
			}
		}
		if err != nil {
			return err
		}
	}
	return rt.finish()
}

// finish delivers everything still held back and checks that every
// section not reset was decoded by every decoder that was handed it.
func (rt *qroundTrip) finish() error {
	if err := rt.deliverStream(0); err != nil {
		return err
	}
	for _, sent := range rt.pending() {
		if err := rt.deliverSection(sent); err != nil {
			return err
		}
	}
	if err := rt.feedBack(0); err != nil {
		return err
	}
	for _, sent := range rt.sections {
		want := 1
		for _, d := range rt.others {
			if !d.staticOnly || requiredInsertCountZero(sent.section) {
				want++
			}
		}
		if !sent.reset && sent.decoded != want {
			return fmt.Errorf("section %d (stream %d, %x): decoded by %d of the %d decoders handed it once every octet arrived; blocked for good in strict: %v",
				sent.index, sent.stream, sent.section, sent.decoded, want, rt.strict.BlockedStreams())
		}
	}
	return nil
}

func (rt *qroundTrip) pending() []*qsent {
	var p []*qsent
	for _, sent := range rt.sections {
		if !sent.arrived && !sent.reset {
			p = append(p, sent)
		}
	}
	return p
}

// encode has the encoder write the header list as the next section.
func (rt *qroundTrip) encode() error {
	sent := &qsent{index: len(rt.sections), stream: 4 * uint64(len(rt.sections)), list: rt.list}
	rt.list = nil
	var stream []byte
	err := guard("the encoder", func() (err error) {
		sent.section, stream, err = rt.enc.EncodeSection(sent.stream, sent.list)
		return err
	})
	if err != nil {
		return fmt.Errorf("section %d: the encoder breaks down on %s: %v", sent.index, fieldsString(sent.list), err)
	}
	rt.written = append(rt.written, stream...)
	rt.sections = append(rt.sections, sent)
	return nil
}

// deliverStream hands the decoders the next n octets of the encoder
// stream written (all of them for 0).
func (rt *qroundTrip) deliverStream(n int) error {
	left := len(rt.written) - rt.delivered
	if n == 0 || n > left {
		n = left
	}
	if n == 0 {
		return nil
	}
	from := rt.delivered
	chunk := rt.written[from : from+n]
	rt.delivered += n
	if err := guard(qstrictName, func() error { return rt.strict.EncoderStream(chunk) }); err != nil {
		return fmt.Errorf("strict refuses encoder-stream octets %d to %d (%x): %v", from, from+n, chunk, err)
	}
	for _, u := range rt.strict.Unblocked() {
		if err := rt.decoded(qstrictName, u.StreamID, u.Fields, false); err != nil {
			return err
		}
	}
	rt.feedback = append(rt.feedback, rt.strict.DecoderStreamOut()...)
	for _, d := range rt.others {
		if d.staticOnly {
			continue
		}
		var unblocked []qpack.Decoded
		if err := guard(d.name, func() (err error) { unblocked, _, err = d.d.EncoderStream(chunk); return err }); err != nil {
			return fmt.Errorf("%s refuses encoder-stream octets %d to %d (%x): %v", d.name, from, from+n, chunk, err)
		}
		for _, u := range unblocked {
			if err := rt.decoded(d.name, u.Stream, u.Fields, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// deliverSection hands the decoders a section.
func (rt *qroundTrip) deliverSection(sent *qsent) error {
	sent.arrived = true
	var fields []qpack.Field
	var status qstrict.Status
	err := guard(qstrictName, func() (err error) {
		fields, status, err = rt.strict.DecodeSection(sent.stream, sent.section)
		return err
	})
	if err != nil {
		return fmt.Errorf("section %d (stream %d): strict refuses %x: %v", sent.index, sent.stream, sent.section, err)
	}
	if status == qstrict.Decoded {
		if err := rt.decoded(qstrictName, sent.stream, fields, false); err != nil {
			return err
		}
	}
	rt.feedback = append(rt.feedback, rt.strict.DecoderStreamOut()...)
	for _, d := range rt.others {
		if d.staticOnly && !requiredInsertCountZero(sent.section) {
			continue
		}
		var got qpack.Decoded
		if err := guard(d.name, func() (err error) { got, _, err = d.d.DecodeSection(sent.stream, sent.section); return err }); err != nil {
			return fmt.Errorf("section %d (stream %d): %s refuses %x: %v", sent.index, sent.stream, d.name, sent.section, err)
		}
		if !got.Blocked {
			if err := rt.decoded(d.name, sent.stream, got.Fields, d.staticOnly); err != nil {
				return err
			}
		}
	}
	return nil
}

// decoded checks what the decoder who decoded for stream against the
// header list of its section.
func (rt *qroundTrip) decoded(who string, stream uint64, fields []qpack.Field, staticOnly bool) error {
	i := int(stream / 4)
	if stream%4 != 0 || i >= len(rt.sections) || !rt.sections[i].arrived {
		return fmt.Errorf("%s decodes a section for stream %d, whose section it was not handed", who, stream)
	}
	sent := rt.sections[i]
	sent.decoded++
	ok := len(fields) == len(sent.list)
	for j := 0; ok && j < len(fields); j++ {
		got, want := fields[j], sent.list[j]
		ok = got.Name == want.Name && got.Value == want.Value && (staticOnly || got.Sensitive || !want.Sensitive)
	}
	if !ok {
		return fmt.Errorf("section %d (stream %d, %x): %s decodes %s; the encoder was given %s",
			sent.index, stream, sent.section, who, fieldsString(fields), fieldsString(sent.list))
	}
	return nil
}

// feedBack hands the encoder the next n octets of the decoder stream (all
// of them for 0); the encoder must accept them.
func (rt *qroundTrip) feedBack(n int) error {
	if n == 0 || n > len(rt.feedback) {
		n = len(rt.feedback)
	}
	if n == 0 {
		return nil
	}
	chunk := rt.feedback[:n:n]
	rt.feedback = rt.feedback[n:]
	var stream []byte
	if err := guard("the encoder", func() (err error) { stream, err = rt.enc.DecoderStream(chunk); return err }); err != nil {
		return fmt.Errorf("the encoder refuses strict's decoder-stream octets %x: %v", chunk, err)
	}
	rt.written = append(rt.written, stream...)
	return nil
}

// resetStream resets the stream of a section not yet delivered: the
// decoders abandon it and owe a Stream Cancellation.
func (rt *qroundTrip) resetStream(sent *qsent) error {
	sent.reset = true
	if err := guard(qstrictName, func() error { return rt.strict.Cancel(sent.stream) }); err != nil {
		return fmt.Errorf("strict refuses to reset stream %d: %v", sent.stream, err)
	}
	rt.feedback = append(rt.feedback, rt.strict.DecoderStreamOut()...)
	for _, d := range rt.others {
		if err := guard(d.name, func() error { _, err := d.d.Cancel(sent.stream); return err }); err != nil {
			return fmt.Errorf("%s refuses to reset stream %d: %v", d.name, sent.stream, err)
		}
	}
	return nil
}
