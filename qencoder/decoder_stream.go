package qencoder

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/qspec"
)

// unacked is a field section with dynamic references that the decoder
// has not acknowledged (§4.4.1) nor cancelled (§4.4.2). Until then no
// entry from minRef on may be evicted (§2.1.1).
type unacked struct {
	used     bool
	streamID uint64
	seq      uint64 // order of sending, to acknowledge the oldest first
	required uint64 // its Required Insert Count
	minRef   uint64 // the lowest absolute index it references
}

// DecoderError is a decoder-stream instruction the encoder cannot accept,
// which RFC 9204 makes a QPACK_DECODER_STREAM_ERROR: the offset of the
// instruction in the octets given to DecoderStream, and what is wrong.
type DecoderError struct {
	Offset int
	Reason string
}

func (e *DecoderError) Error() string {
	return fmt.Sprintf("qpack decoder stream: offset %d: %s (QPACK_DECODER_STREAM_ERROR)", e.Offset, e.Reason)
}

// DecoderStream reads the decoder-stream instructions (§4.4) in b and
// returns the number of octets of the whole instructions it read: the
// caller keeps the rest and passes it again with the octets that follow.
// A Section Acknowledgment for a stream with no unacknowledged section, an
// Insert Count Increment of 0 or past the inserts sent, and a malformed
// instruction are errors (*DecoderError or *qspec.Error) after which the
// connection must be closed.
func (e *Encoder) DecoderStream(b []byte) (int, error) {
	p := 0
	for p < len(b) {
		in, next, err := qspec.ReadDecoderInstruction(b, p)
		if err == qspec.ErrIncomplete {
			return p, nil
		}
		if err != nil {
			return p, err
		}
		switch in.Kind {
		case qspec.SectionAck:
			err = e.acknowledge(in.Value, p)
		case qspec.StreamCancel:
			e.cancel(in.Value)
		case qspec.InsertCountIncrement:
			if in.Value > e.table.inserted-e.known {
				err = &DecoderError{Offset: p, Reason: fmt.Sprintf("Insert Count Increment of %d past the %d inserts sent, %d known received (§4.4.3)", in.Value, e.table.inserted, e.known)}
			} else {
				e.known += in.Value
			}
		}
		if err != nil {
			return p, err
		}
		p = next
	}
	return p, nil
}

// acknowledge takes the Section Acknowledgment of streamID's oldest
// unacknowledged section (§4.4.1): its inserts are received.
func (e *Encoder) acknowledge(streamID uint64, offset int) error {
	oldest := -1
	for i, u := range e.unacked {
		if u.used && u.streamID == streamID && (oldest < 0 || u.seq < e.unacked[oldest].seq) {
			oldest = i
		}
	}
	if oldest < 0 {
		return &DecoderError{Offset: offset, Reason: fmt.Sprintf("Section Acknowledgment for stream %d, which has no unacknowledged field section (§4.4.1)", streamID)}
	}
	e.known = max(e.known, e.unacked[oldest].required)
	e.unacked[oldest].used = false
	return nil
}

// cancel forgets streamID's unacknowledged sections (§4.4.2).
func (e *Encoder) cancel(streamID uint64) {
	for i := range e.unacked {
		if e.unacked[i].streamID == streamID {
			e.unacked[i].used = false
		}
	}
}

// freeSlot returns the index of a free unacked slot, or -1.
func (e *Encoder) freeSlot() int {
	for i := range e.unacked {
		if !e.unacked[i].used {
			return i
		}
	}
	return -1
}

// evictable returns the absolute index below which entries may be
// evicted: those the decoder has received and no unacknowledged section,
// nor the one being written (whose lowest reference is sectionMin),
// references (§2.1.1).
func (e *Encoder) evictable(sectionMin uint64) uint64 {
	bound := min(e.known, sectionMin)
	for _, u := range e.unacked {
		if u.used {
			bound = min(bound, u.minRef)
		}
	}
	return bound
}
