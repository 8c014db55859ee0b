package qbroken

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// DecoderStream reads the decoder's instructions (§4.4); an instruction
// cut by the end of data waits for the rest. It writes nothing on the
// encoder stream in answer. A Section Acknowledgment of a stream with no
// section outstanding, an Insert Count Increment of 0 or past the inserts
// sent, and a malformed instruction are refused with
// QPACK_DECODER_STREAM_ERROR.
func (e *conn) DecoderStream(data []byte) ([]byte, error) {
	if e.closed {
		return nil, errClosed
	}
	e.pending = append(e.pending, data...)
	p := 0
	for p < len(e.pending) {
		if e.bug == IncrementZeroAccepted && e.pending[p] == 0 {
			p++ // the one-octet Insert Count Increment of 0
			continue
		}
		in, next, err := qspec.ReadDecoderInstruction(e.pending, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			break
		}
		if err != nil {
			return nil, e.refuse(err.Error(), err)
		}
		if reason := e.apply(in); reason != "" {
			return nil, e.refuse(reason, nil)
		}
		p = next
	}
	e.pending = append(e.pending[:0], e.pending[p:]...)
	return nil, nil
}

// refuse closes the connection with QPACK_DECODER_STREAM_ERROR.
func (e *conn) refuse(reason string, err error) error {
	e.closed = true
	return &qpack.ConnectionError{Code: qpack.DecoderStreamError, Reason: reason, Err: err}
}

// apply carries out one decoder instruction, or says why it is refused.
func (e *conn) apply(in qspec.Instruction) string {
	switch in.Kind {
	case qspec.SectionAck:
		for i, s := range e.sections {
			if s.stream == in.Value {
				e.knownReceived = max(e.knownReceived, s.ric)
				e.sections = append(e.sections[:i], e.sections[i+1:]...)
				return ""
			}
		}
		if e.bug == BogusAckAccepted {
			return ""
		}
		return fmt.Sprintf("Section Acknowledgment of stream %d, which has no field section outstanding (§4.4.1)", in.Value)
	case qspec.StreamCancel:
		kept := e.sections[:0]
		for _, s := range e.sections {
			if s.stream != in.Value {
				kept = append(kept, s)
			}
		}
		e.sections = kept
	case qspec.InsertCountIncrement:
		unknown := e.table.inserts() - e.knownReceived
		if in.Value > unknown {
			if e.bug == IncrementPastAccepted {
				e.knownReceived = e.table.inserts()
				return ""
			}
			return fmt.Sprintf("Insert Count Increment of %d with %d inserts not yet acknowledged (§4.4.3)", in.Value, unknown)
		}
		e.knownReceived += in.Value
	}
	return ""
}
