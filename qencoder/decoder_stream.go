package qencoder

import (
	"fmt"
	"math"

	"github.com/hpackcert/hpackcert/internal/qspec"
)

// outstanding is a field section with dynamic references that the decoder
// has neither acknowledged (§4.4.1) nor cancelled (§4.4.2). Until then no
// entry from minRef on may be evicted (§2.1.1), and while required is
// above the Known Received Count its stream could be blocked (§2.1.2).
type outstanding struct {
	streamID uint64
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
		if stream, next, ok := readSectionAck(b, p); ok {
			if err := e.acknowledge(stream, p); err != nil {
				return p, err
			}
			p = next
			continue
		}
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

// readSectionAck reads the Section Acknowledgment (§4.4.1) at b[p], the
// instruction a decoder sends most, without the general reader's
// Instruction, and returns its stream and the offset after it. It reports
// false for any other instruction, and for one that is incomplete or
// whose stream takes more than 8 continuation octets, which the general
// reader then reads (as valid up to 2^62-1, §4.1.1) or rejects.
func readSectionAck(b []byte, p int) (stream uint64, next int, ok bool) {
	if b[p]&0x80 == 0 {
		return 0, p, false
	}
	stream = uint64(b[p] & 0x7f)
	if p++; stream < 0x7f {
		return stream, p, true
	}
	for shift := uint(0); shift < 56 && p < len(b); shift += 7 {
		c := b[p]
		p++
		stream += uint64(c&0x7f) << shift
		if c < 0x80 {
			return stream, p, true
		}
	}
	return 0, p, false
}

// acknowledge takes the Section Acknowledgment of streamID's earliest
// unacknowledged section (§2.2.2.1, §4.4.1): its inserts are received.
func (e *Encoder) acknowledge(streamID uint64, offset int) error {
	for i, s := range e.sections {
		if s.streamID == streamID {
			e.known = max(e.known, s.required)
			e.sections = append(e.sections[:i], e.sections[i+1:]...)
			e.repin()
			return nil
		}
	}
	return &DecoderError{Offset: offset, Reason: fmt.Sprintf("Section Acknowledgment for stream %d, which has no unacknowledged field section (§4.4.1)", streamID)}
}

// cancel forgets streamID's unacknowledged sections (§4.4.2): their
// references no longer hold entries in the table, and the stream no
// longer counts as one that could become blocked.
func (e *Encoder) cancel(streamID uint64) {
	kept := e.sections[:0]
	for _, s := range e.sections {
		if s.streamID != streamID {
			kept = append(kept, s)
		}
	}
	e.sections = kept
	e.repin()
}

// repin recomputes pinned after sections were removed.
func (e *Encoder) repin() {
	e.pinned = math.MaxUint64
	for _, s := range e.sections {
		e.pinned = min(e.pinned, s.minRef)
	}
}

// evictable returns the absolute index below which entries may be
// evicted: those the decoder has received and no unacknowledged section,
// nor the one being written (whose lowest reference is sectionMin),
// references (§2.1.1).
func (e *Encoder) evictable(sectionMin uint64) uint64 {
	return min(e.known, e.pinned, sectionMin)
}

// mayBlock reports whether a section of streamID may reference entries the
// decoder has not acknowledged (§2.1.2): the stream already counts among
// those that could become blocked, having a section whose Required Insert
// Count is above the Known Received Count, or fewer than
// SETTINGS_QPACK_BLOCKED_STREAMS streams do.
func (e *Encoder) mayBlock(streamID uint64) bool {
	if e.blockedStreams == 0 {
		return false
	}
	if e.known == e.table.inserted {
		return true // no section can be above the Known Received Count
	}
	var streams uint64
	for i, s := range e.sections {
		if s.required <= e.known {
			continue
		}
		if s.streamID == streamID {
			return true
		}
		if !e.blockingBefore(i, s.streamID) {
			streams++
		}
	}
	return streams < e.blockedStreams
}

// blockingBefore reports whether a section before the i-th one of stream
// streamID is above the Known Received Count: the stream is counted there.
func (e *Encoder) blockingBefore(i int, streamID uint64) bool {
	for _, s := range e.sections[:i] {
		if s.streamID == streamID && s.required > e.known {
			return true
		}
	}
	return false
}
