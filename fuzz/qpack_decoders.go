package fuzz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// A QSession is what the QPACK decoders target decodes its input into:
// what the decoder of one HTTP/3 connection receives, arbitrary octets on
// the encoder stream and arbitrary field sections, and the streams reset.
//
// ParseQSession reads any input; its format, two octets of
// SETTINGS_QPACK_MAX_TABLE_CAPACITY (big-endian), one of
// SETTINGS_QPACK_BLOCKED_STREAMS, then one step after another:
//
//	0x00-0x5f  that many octets of the encoder stream
//	0x60-0x6f  (low 4 bits << 8 | next octet) octets of the encoder stream
//	0x70-0x7f  the stream of section N = low 4 bits, modulo the sections
//	           so far, is reset (nothing before the first section)
//	0x80-0xdf  a field section of (octet - 0x80) octets on the next
//	           request stream (0, 4, 8, ...)
//	0xe0-0xff  a field section of (low 5 bits << 8 | next octet) octets
//
// fewer octets at the end of the input. It reads the first
// MaxSessionInput octets of its input and stops before the step past
// MaxSessionSteps, as ParseSession does.
type QSession struct {
	Settings qpack.Settings
	Steps    []QStep
}

// A QStep is encoder-stream octets, a field section, or a reset.
type QStep struct {
	Kind QStepKind
	// Data is the encoder-stream octets or the section.
	Data []byte
	// N picks the section whose stream a reset resets.
	N int
}

// QStepKind says what a QStep is.
type QStepKind uint8

// The kinds of QStep.
const (
	QStepEncoderStream QStepKind = iota
	QStepSection
	QStepReset
)

const (
	qstepStreamShortMax = 0x5f
	qstepStreamLongMax  = 0x6f
	qstepResetMax       = 0x7f
	qstepSectionBase    = 0x80
	qstepSectionLong    = 0xe0
)

// ParseQSession decodes data as a QSession; every input is one. Steps'
// Data are slices of data.
func ParseQSession(data []byte) *QSession {
	s := &QSession{}
	s.parse(data)
	return s
}

func (s *QSession) parse(data []byte) int {
	r := &scriptReader{data: data[:min(len(data), MaxSessionInput)]}
	*s = QSession{Steps: s.Steps[:0]}
	s.Settings.MaxTableCapacity = uint64(r.uint16())
	s.Settings.BlockedStreams = uint64(r.byte())
	for !r.done() {
		start := r.pos
		if len(s.Steps) == MaxSessionSteps {
			return start
		}
		b := r.byte()
		switch {
		case b <= qstepStreamShortMax:
			s.Steps = append(s.Steps, QStep{Kind: QStepEncoderStream, Data: r.slice(int(b))})
		case b <= qstepStreamLongMax:
			s.Steps = append(s.Steps, QStep{Kind: QStepEncoderStream, Data: r.slice(int(b&0x0f)<<8 | int(r.byte()))})
		case b <= qstepResetMax:
			s.Steps = append(s.Steps, QStep{Kind: QStepReset, N: int(b & 0x0f)})
		case b < qstepSectionLong:
			s.Steps = append(s.Steps, QStep{Kind: QStepSection, Data: r.slice(int(b - qstepSectionBase))})
		default:
			s.Steps = append(s.Steps, QStep{Kind: QStepSection, Data: r.slice(int(b&0x1f)<<8 | int(r.byte()))})
		}
	}
	return len(r.data)
}

// Bytes encodes s in the format ParseQSession reads. It fails for
// settings past their octets, a reset's N past 15, or octets too long
// for a step.
func (s *QSession) Bytes() ([]byte, error) {
	if s.Settings.MaxTableCapacity > 0xffff || s.Settings.BlockedStreams > 0xff {
		return nil, fmt.Errorf("fuzz: settings %+v do not fit the header", s.Settings)
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(s.Settings.MaxTableCapacity))
	out = append(out, byte(s.Settings.BlockedStreams))
	for i, st := range s.Steps {
		n := len(st.Data)
		switch {
		case st.Kind == QStepReset && st.N >= 0 && st.N <= 0x0f:
			out = append(out, qstepStreamLongMax+1+byte(st.N))
			continue
		case st.Kind == QStepEncoderStream && n <= qstepStreamShortMax:
			out = append(out, byte(n))
		case st.Kind == QStepEncoderStream && n < 1<<12:
			out = append(out, qstepStreamShortMax+1+byte(n>>8), byte(n))
		case st.Kind == QStepSection && n < qstepSectionLong-qstepSectionBase:
			out = append(out, qstepSectionBase+byte(n))
		case st.Kind == QStepSection && n < 1<<13:
			out = append(out, qstepSectionLong|byte(n>>8), byte(n))
		default:
			return nil, fmt.Errorf("fuzz: step %d (kind %d, N %d, %d octets) does not fit the format", i, st.Kind, st.N, n)
		}
		out = append(out, st.Data...)
	}
	return out, nil
}

// String prints the session one step a line, octets in hex.
func (s *QSession) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "qpack session: SETTINGS_QPACK_MAX_TABLE_CAPACITY %d, SETTINGS_QPACK_BLOCKED_STREAMS %d, %d steps\n",
		s.Settings.MaxTableCapacity, s.Settings.BlockedStreams, len(s.Steps))
	sections := 0
	for _, st := range s.Steps {
		switch st.Kind {
		case QStepEncoderStream:
			fmt.Fprintf(&b, "  encoder stream (%d octets): %x\n", len(st.Data), st.Data)
		case QStepSection:
			fmt.Fprintf(&b, "  section %d, stream %d (%d octets): %x\n", sections, 4*sections, len(st.Data), st.Data)
			sections++
		case QStepReset:
			fmt.Fprintf(&b, "  reset the stream of section %d modulo the sections so far\n", st.N)
		}
	}
	return b.String()
}

// CheckQPACKDecoders is the body of the QPACK decoders target. It feeds
// the QSession decoded from data to the strict decoder (oracle/qstrict)
// and to each decoder of decoders (qpackDecoders in the targets), and
// fails when
//
//   - a decoder panics, or qstrict returns an error that is not its
//     *qstrict.Error with the code of the stream at fault
//     (QPACK_ENCODER_STREAM_ERROR for the encoder stream,
//     QPACK_DECOMPRESSION_FAILED for a section), or writes decoder-stream
//     octets that are not well-formed instructions or hold an Insert Count
//     Increment of 0 (§4.4.3);
//   - a static-only decoder (quic-go/qpack) and qstrict disagree on a
//     section with a Required Insert Count of 0, accept or refuse, or the
//     fields (names and values), except as qpackDifferences explains;
//   - another decoder and qstrict disagree on any step: accept or refuse,
//     a section blocked or not, the fields with their N bits, the sections
//     an insert unblocks.
//
// Once qstrict refuses a step, the connection is closed and the session
// ends. The error ends with the session.
func CheckQPACKDecoders(data []byte, decoders []qpackDecoder) error {
	s := ParseQSession(data)
	if err := runQPACKDecoders(s, decoders); err != nil {
		return fmt.Errorf("%w\n%s", err, s)
	}
	return nil
}

func runQPACKDecoders(s *QSession, decoders []qpackDecoder) error {
	strict := qstrict.New(qstrictSettings(s.Settings))
	var open []openQPACK
	for _, d := range decoders {
		o := openQPACK{qpackDecoder: d}
		if err := guard(d.name, func() (err error) { o.d, err = d.open(s.Settings); return err }); err != nil {
			return fmt.Errorf("opening %s: %v", d.name, err)
		}
		open = append(open, o)
	}
	var streams []uint64
	for i, st := range s.Steps {
		var err error
		var stop bool
		switch st.Kind {
		case QStepEncoderStream:
			stop, err = encoderStreamStep(strict, open, st.Data)
		case QStepSection:
			stream := 4 * uint64(len(streams))
			streams = append(streams, stream)
			stop, err = sectionStep(strict, open, stream, st.Data, s.Settings)
		case QStepReset:
			if len(streams) > 0 {
				err = resetStep(strict, open, streams[st.N%len(streams)])
			}
		}
		if err == nil {
			err = checkDecoderStream(strict.DecoderStreamOut())
		}
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		if stop {
			return nil
		}
	}
	return nil
}

// strictError checks that qstrict's error err is an *qstrict.Error with
// code.
func strictError(err error, code string) error {
	var e *qstrict.Error
	if !errors.As(err, &e) || e.Code != code {
		return fmt.Errorf("strict returns %v (%T); want a *qstrict.Error with code %s", err, err, code)
	}
	return nil
}

func encoderStreamStep(strict *qstrict.Decoder, open []openQPACK, data []byte) (stop bool, err error) {
	strictErr := guard(qstrictName, func() error { return strict.EncoderStream(data) })
	unblocked := strict.Unblocked()
	if strictErr != nil {
		code := qstrict.EncoderStreamError
		if e := (*qstrict.Error)(nil); errors.As(strictErr, &e) && e.Stream == "field section" {
			code = qstrict.DecompressionFailed // a section the inserts unblocked
		}
		if err := strictError(strictErr, code); err != nil {
			return true, err
		}
	}
	for _, d := range open {
		if d.staticOnly {
			continue
		}
		var got []qpack.Decoded
		err := guard(d.name, func() (err error) { got, _, err = d.d.EncoderStream(data); return err })
		if (err == nil) != (strictErr == nil) {
			return true, fmt.Errorf("encoder stream %x: %s returns %v; strict %v", data, d.name, err, strictErr)
		}
		if err != nil {
			continue
		}
		if len(got) != len(unblocked) {
			return true, fmt.Errorf("encoder stream %x: %s unblocks %d sections; strict %d", data, d.name, len(got), len(unblocked))
		}
		for j, u := range unblocked {
			if got[j].Stream != u.StreamID || !sameFields(got[j].Fields, u.Fields, false) {
				return true, fmt.Errorf("encoder stream %x: %s unblocks stream %d as %s; strict stream %d as %s",
					data, d.name, got[j].Stream, fieldsString(got[j].Fields), u.StreamID, fieldsString(u.Fields))
			}
		}
	}
	return strictErr != nil, nil
}

func sectionStep(strict *qstrict.Decoder, open []openQPACK, stream uint64, section []byte, settings qpack.Settings) (stop bool, err error) {
	var want []qpack.Field
	var status qstrict.Status
	strictErr := guard(qstrictName, func() (err error) { want, status, err = strict.DecodeSection(stream, section); return err })
	if strictErr != nil {
		if err := strictError(strictErr, qstrict.DecompressionFailed); err != nil {
			return true, err
		}
	}
	for _, d := range open {
		if d.staticOnly && !requiredInsertCountZero(section) {
			continue
		}
		var got qpack.Decoded
		err := guard(d.name, func() (err error) { got, _, err = d.d.DecodeSection(stream, section); return err })
		switch {
		case (err == nil) != (strictErr == nil):
			if d.staticOnly && knownDifference(d.qpackDecoder, section, err, settings) != "" {
				continue
			}
			return true, fmt.Errorf("section %x on stream %d: %s returns %s, %v; strict %s, %v",
				section, stream, d.name, fieldsString(got.Fields), err, fieldsString(want), strictErr)
		case err != nil:
		case got.Blocked != (status == qstrict.Blocked) || !sameFields(got.Fields, want, d.staticOnly):
			return true, fmt.Errorf("section %x on stream %d: %s decodes %s (blocked %v); strict %s (blocked %v)",
				section, stream, d.name, fieldsString(got.Fields), got.Blocked, fieldsString(want), status == qstrict.Blocked)
		}
	}
	return strictErr != nil, nil
}

func resetStep(strict *qstrict.Decoder, open []openQPACK, stream uint64) error {
	if err := guard(qstrictName, func() error { return strict.Cancel(stream) }); err != nil {
		return fmt.Errorf("strict refuses to reset stream %d: %v", stream, err)
	}
	for _, d := range open {
		if err := guard(d.name, func() error { _, err := d.d.Cancel(stream); return err }); err != nil {
			return fmt.Errorf("%s refuses to reset stream %d: %v", d.name, stream, err)
		}
	}
	return nil
}

// checkDecoderStream checks the octets qstrict wrote on the decoder
// stream: whole, well-formed instructions (§4.4), and no Insert Count
// Increment of 0 (§4.4.3).
func checkDecoderStream(out []byte) error {
	for p := 0; p < len(out); {
		in, next, err := qspec.ReadDecoderInstruction(out, p)
		if err != nil {
			return fmt.Errorf("strict's decoder stream %x: offset %d: %v", out, p, err)
		}
		if in.Kind == qspec.InsertCountIncrement && in.Value == 0 {
			return fmt.Errorf("strict's decoder stream %x: offset %d: an Insert Count Increment of 0 (§4.4.3)", out, p)
		}
		p = next
	}
	return nil
}
