package h3

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// recorder builds the transcript of one connection as the peer's
// encoder output arrives, and plays the decoder: the strict decoder
// takes each part as it comes, and what it owes on the decoder stream
// is sent to the peer at once and logged as a Told event. The goroutines
// reading the peer's streams share it; the order of its events is the
// order in which their octets reached the certifier.
type recorder struct {
	mu sync.Mutex
	t  *qpack.Transcript
	// dec is nil once it refused what the peer wrote: the fault stays
	// in the transcript, for the grading to find, and the connection is
	// closed (refuse).
	dec *qstrict.Decoder
	// decoderStream is the certifier's decoder stream to the peer.
	decoderStream io.Writer
	// refuse closes the connection with the code of the QPACK
	// connection error the strict decoder found, as a decoder must
	// (RFC 9204 §2.2.3, §6); nil when there is no connection.
	refuse func(code uint64, err error)
	// encoderOctets counts the encoder stream, bounded by limit.
	encoderOctets, limit int
	err                  error
}

// settings are what the certifier announces as the peer's decoder: room
// for a dynamic table and blocked streams, so that an encoder able to use
// them does.
var settings = qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100}

func newRecorder(name string, decoderStream io.Writer, limit int) *recorder {
	return &recorder{
		t:   &qpack.Transcript{Name: name, Settings: settings},
		dec: qstrict.New(qstrict.Settings{MaxTableCapacity: settings.MaxTableCapacity, BlockedStreams: settings.BlockedStreams}),

		decoderStream: decoderStream,
		limit:         limit,
	}
}

// encoderStream records octets of the peer's encoder stream, written and
// delivered as they arrived.
func (r *recorder) encoderStream(data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.encoderOctets+len(data) > r.limit {
		return fmt.Errorf("h3: encoder stream offset %d: longer than the capture limit of %d octets", r.encoderOctets, r.limit)
	}
	r.encoderOctets += len(data)
	data = append([]byte(nil), data...)
	r.t.Events = append(r.t.Events,
		qpack.Event{Kind: qpack.Wrote, Data: data},
		qpack.Event{Kind: qpack.DeliverEncoderStream, Count: len(data)})
	if r.dec != nil {
		r.feedback(r.dec.EncoderStream(data))
	}
	return r.err
}

// section records the field section of request stream stream, written
// and delivered as it arrived.
func (r *recorder) section(stream uint64, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.t.Events = append(r.t.Events,
		qpack.Event{Kind: qpack.Section, Stream: stream, Data: data, List: -1},
		qpack.Event{Kind: qpack.DeliverSection, Stream: stream})
	if r.dec != nil {
		_, _, err := r.dec.DecodeSection(stream, data)
		r.feedback(err)
	}
	return r.err
}

// feedback sends the peer what the strict decoder owes after a call
// that returned err, and logs it; a decoder that refused the peer's
// octets is dropped.
func (r *recorder) feedback(err error) {
	if err != nil {
		r.dec = nil
		if r.refuse != nil {
			r.refuse(qpackCode(err), err)
		}
		return
	}
	// The sections unblocked are graded from the transcript, not here:
	// dropped, so that a long capture does not keep them.
	r.dec.Unblocked()
	out := r.dec.DecoderStreamOut()
	if len(out) == 0 || r.err != nil {
		return
	}
	if _, werr := r.decoderStream.Write(out); werr != nil {
		r.err = fmt.Errorf("h3: writing the decoder stream: %w", werr)
		return
	}
	r.t.Events = append(r.t.Events, qpack.Event{Kind: qpack.Told, Data: out})
}

// The QPACK error codes of RFC 9204 §6.
const (
	errDecompressionFailed = 0x200
	errEncoderStream       = 0x201
)

// qpackCode returns the code of the QPACK connection error err, an error
// of the strict decoder.
func qpackCode(err error) uint64 {
	var qe *qstrict.Error
	if errors.As(err, &qe) && qe.Code == qstrict.EncoderStreamError {
		return errEncoderStream
	}
	return errDecompressionFailed
}

// transcript returns the transcript, with the header lists the peer's
// encoder was given when they are known: lists[i] is the list of the
// first section of stream 4i, the i-th request of a client that made
// them one after another (RFC 9000 §2.1 numbers its streams in order).
func (r *recorder) transcript(lists [][]qpack.Field) *qpack.Transcript {
	r.mu.Lock()
	defer r.mu.Unlock()
	if lists == nil {
		return r.t
	}
	r.t.Lists = lists
	seen := map[uint64]bool{}
	for i := range r.t.Events {
		e := &r.t.Events[i]
		if e.Kind != qpack.Section || seen[e.Stream] {
			continue
		}
		seen[e.Stream] = true
		if e.Stream%4 == 0 && e.Stream/4 < uint64(len(lists)) {
			e.List = int(e.Stream / 4)
		}
	}
	return r.t
}
