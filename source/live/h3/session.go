package h3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/quic-go/quic-go"
)

// session is the certifier's side of one HTTP/3 connection: its control
// and decoder streams opened, the peer's unidirectional streams read,
// and the first fault that ended the capture.
type session struct {
	conn  *quic.Conn
	rec   *recorder
	limit int
	wg    sync.WaitGroup

	// peerIsClient is set when the peer is a client under capture: it
	// closes the connection when its requests are done, with whatever
	// code its library uses, and reports its own failures.
	peerIsClient bool

	mu      sync.Mutex
	closing bool
	err     error
}

// open opens the certifier's control stream, with its SETTINGS, and its
// decoder stream on conn, and starts reading the streams the peer opens;
// peerIsClient says the peer is the client of the connection.
func open(ctx context.Context, conn *quic.Conn, name string, limit int, peerIsClient bool) (*session, error) {
	control, err := conn.OpenUniStreamSync(ctx)
	if err != nil {
		return nil, fmt.Errorf("h3: opening the control stream: %w", err)
	}
	if _, err := control.Write(append([]byte{streamControl}, settingsFrame(settings.MaxTableCapacity, settings.BlockedStreams)...)); err != nil {
		return nil, fmt.Errorf("h3: writing the control stream: %w", err)
	}
	decoder, err := conn.OpenUniStreamSync(ctx)
	if err != nil {
		return nil, fmt.Errorf("h3: opening the decoder stream: %w", err)
	}
	if _, err := decoder.Write([]byte{streamDecoder}); err != nil {
		return nil, fmt.Errorf("h3: writing the decoder stream: %w", err)
	}
	s := &session{conn: conn, rec: newRecorder(name, decoder, limit), limit: limit, peerIsClient: peerIsClient}
	s.rec.refuse = s.refuse
	s.wg.Add(1)
	go s.acceptUni(ctx)
	return s, nil
}

// fail ends the capture on its first fault, closing the connection with
// code; a read cut by the certifier's own close is no fault.
func (s *session) fail(code quic.ApplicationErrorCode, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.err != nil || s.closedByPeer(err) {
		return
	}
	s.err = err
	s.conn.CloseWithError(code, err.Error())
}

// refuse ends the capture as a decoder ends a connection on a QPACK
// connection error: closed with the error's code. It is no fault of the
// capture: the transcript holds what the peer's encoder did wrong, for
// the grading to find again.
func (s *session) refuse(code uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.err != nil {
		return
	}
	s.closing = true
	s.conn.CloseWithError(quic.ApplicationErrorCode(code), err.Error())
}

// closedByPeer reports whether err is the peer closing the connection
// in a way that is no fault of the capture: with H3_NO_ERROR, or, for a
// client, with any code (the client says itself what went wrong).
func (s *session) closedByPeer(err error) bool {
	var ae *quic.ApplicationError
	return errors.As(err, &ae) && ae.Remote && (ae.ErrorCode == errNoError || s.peerIsClient)
}

// finish closes the connection, waits for the readers and returns the
// first fault.
func (s *session) finish() error {
	s.mu.Lock()
	s.closing = true
	err := s.err
	s.mu.Unlock()
	s.conn.CloseWithError(errNoError, "")
	s.wg.Wait()
	return err
}

// spawn runs f in a goroutine that finish waits for.
func (s *session) spawn(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

func (s *session) acceptUni(ctx context.Context) {
	defer s.wg.Done()
	for {
		str, err := s.conn.AcceptUniStream(ctx)
		if err != nil {
			s.fail(errNoError, fmt.Errorf("h3: accepting the peer's streams: %w", err))
			return
		}
		s.spawn(func() { s.uni(str) })
	}
}

// uni reads one unidirectional stream of the peer (RFC 9114 §6.2): the
// encoder stream is recorded; the control and decoder streams are read
// and dropped, within the capture limit (the certifier's encoder inserts
// nothing, and the peer's settings do not change what is captured); any
// other type is refused.
func (s *session) uni(str *quic.ReceiveStream) {
	r := newReader(str, fmt.Sprintf("unidirectional stream %d", str.StreamID()))
	typ, err := r.varint("stream type")
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.fail(errFrame, err)
		}
		return
	}
	switch typ {
	case streamEncoder:
		s.encoder(r)
	case streamControl, streamDecoder:
		n, err := io.CopyN(io.Discard, r.r, int64(s.limit)+1)
		switch {
		case n > int64(s.limit):
			s.fail(errExcessiveLoad, r.fault(r.off+int64(s.limit), fmt.Sprintf("stream of type %#x longer than the capture limit of %d octets", typ, s.limit)))
		case err != nil && !errors.Is(err, io.EOF):
			s.fail(errNoError, fmt.Errorf("h3: reading %s: %w", r.what, err))
		}
	default:
		str.CancelRead(errStreamCreation)
	}
}

// encoder records the peer's encoder stream as its octets arrive.
func (s *session) encoder(r *reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.r.Read(buf)
		if n > 0 {
			if rerr := s.rec.encoderStream(buf[:n]); rerr != nil {
				s.fail(errExcessiveLoad, rerr)
				return
			}
		}
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			s.fail(errNoError, fmt.Errorf("h3: reading the encoder stream: %w", err))
			return
		}
	}
}

// request reads the frames of request stream str until it ends,
// recording each HEADERS frame as a field section.
func (s *session) request(str *quic.Stream) error {
	id := uint64(str.StreamID())
	r := newReader(str, fmt.Sprintf("request stream %d", id))
	var recErr error
	err := r.headers(s.limit, func(p []byte) {
		if recErr == nil {
			recErr = s.rec.section(id, p)
		}
	})
	if err == nil {
		err = recErr
	}
	return err
}
