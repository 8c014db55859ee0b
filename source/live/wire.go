package live

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// wireConn is hpackcert's end of one HTTP/2 connection, client or server:
// it reads the peer's frames raw, keeps every header block with the
// SETTINGS_HEADER_TABLE_SIZE values the peer acknowledged before it,
// answers SETTINGS and PING, and writes what hpackcert sends, with an
// encoder of its own (never x/net's). It is used from one goroutine.
type wireConn struct {
	nc net.Conn
	fr *http2.Framer
	// pending holds each SETTINGS frame sent and not yet acknowledged.
	// The peer acknowledges SETTINGS frames in the order they were sent
	// (RFC 9113 §6.5.3).
	pending []sentSettings
	// before is the request of the schedule the SETTINGS frames sent now
	// come before, counted from 1 (0 as the connection begins).
	before int
	// acked lists the values acknowledged since the peer's last block.
	acked []uint32
	// building is the block being reassembled, with whether its first
	// frame ended the stream.
	building    *Block
	buildingEnd bool
	blocks      []Block
	maxBlock    int
	// label names the step of a stream and gives the list sent on it,
	// when known.
	label func(stream uint32) (step string, sent []vectors.Field)
	// onBlock, when set, is called for each finished block.
	onBlock func(b *Block, endStream bool)

	enc          certify.Encoder
	encBuf       []byte
	peerMaxFrame uint32
	// Flow control of what hpackcert sends: the connection's window, the
	// initial window of new streams, each open stream's window and the
	// data waiting for window.
	sendWindow    int64
	initialWindow int64
	streamWindow  map[uint32]int64
	queued        []queuedData

	// ended holds the streams hpackcert wrote headers on, and whether
	// each has ended.
	ended map[uint32]bool
	// reset holds the error code of each of those streams the peer reset
	// before it ended.
	reset map[uint32]http2.ErrCode
	// goAway is set once the peer sent GOAWAY.
	goAway *goAway
	notes  []string
	// dropped counts the notes past maxConnNotes.
	dropped int
	// budget bounds the blocks of the whole capture.
	budget *budget
	// frames and data count what the peer sent that carries no header
	// block, against maxFrames and maxData.
	frames, data       int
	maxFrames, maxData int
	// lastType is the type of the last frame read without a header
	// block.
	lastType http2.FrameType
	// lastPeerStream is the last stream the peer opened with HEADERS
	// that hpackcert took, for the GOAWAY it sends (RFC 9113 §6.8);
	// it stays 0 for hpackcert as a client, which takes no stream the
	// server opens (push is refused).
	lastPeerStream uint32
	server         bool
	// discard, when set, passes finished blocks to onBlock without
	// keeping them (a server that captures nothing).
	discard bool
	// acks counts the SETTINGS acknowledgements read.
	acks int
}

// goAway is what a GOAWAY frame said, copied out of the Framer's buffer:
// its debug data quoted (quotePeer), with a space before, when it has
// any.
type goAway struct {
	lastStream uint32
	code       http2.ErrCode
	debug      string
}

// graceful reports whether the peer closes the connection without an
// error (GOAWAY NO_ERROR) and without taking stream: a request to
// make again on a new connection (RFC 9113 §6.8).
func (g *goAway) graceful(stream uint32) bool {
	return g != nil && g.code == http2.ErrCodeNo && g.lastStream < stream
}

type queuedData struct {
	stream uint32
	data   []byte
}

// initialWindowSize is the window every HTTP/2 connection and stream
// starts with (RFC 9113 §6.9.2).
const initialWindowSize = 65535

// newWireConn returns hpackcert's end of the connection nc, reading its
// frames from r (nc, or a reader holding octets already read from it).
func newWireConn(nc net.Conn, r io.Reader, maxBlock int, enc certify.Encoder) *wireConn {
	if maxBlock <= 0 {
		maxBlock = DefaultMaxBlock
	}
	w := &wireConn{
		nc: nc, maxBlock: maxBlock, enc: enc, peerMaxFrame: 16384,
		sendWindow: initialWindowSize, initialWindow: initialWindowSize,
		streamWindow: map[uint32]int64{}, ended: map[uint32]bool{}, reset: map[uint32]http2.ErrCode{},
	}
	w.fr = http2.NewFramer(nc, r)
	w.fr.SetMaxReadFrameSize(maxReadFrame)
	w.budget = newBudget(1 << 30)
	w.expect(0)
	return w
}

// expect raises the connection's bounds for a script of requests: each
// may bring a body of MaxBody octets and a few frames.
func (w *wireConn) expect(requests int) {
	w.maxFrames = max(maxConnFrames, 16*requests)
	w.maxData = max(maxConnData, 4*MaxBody*requests)
}

// closeWith ends the connection on an error of the peer's: a GOAWAY
// naming the last stream of the peer hpackcert took, with code, then the
// close.
func (w *wireConn) closeWith(code http2.ErrCode) {
	// The deadline of the read that failed may have passed; a peer that
	// does not read gets a second to take the GOAWAY.
	w.nc.SetWriteDeadline(time.Now().Add(time.Second))
	w.fr.WriteGoAway(w.lastPeerStream, code, nil)
	w.nc.Close()
}

// sendSettings writes one SETTINGS frame and remembers the
// SETTINGS_HEADER_TABLE_SIZE values it carries until it is acknowledged.
func (w *wireConn) sendSettings(settings ...http2.Setting) error {
	w.pending = append(w.pending, sentSettings{settings: settings, before: w.before})
	return w.fr.WriteSettings(settings...)
}

// sendTableSize writes a SETTINGS frame of one SETTINGS_HEADER_TABLE_SIZE
// value.
func (w *wireConn) sendTableSize(n uint32) error {
	return w.sendSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: n})
}

// readFrame reads one frame before deadline and does the connection's
// bookkeeping; it returns the frame for the caller's own logic.
func (w *wireConn) readFrame(deadline time.Time) (http2.Frame, error) {
	w.nc.SetDeadline(deadline)
	f, err := w.fr.ReadFrame()
	if os.Getenv("LIVEDEBUG") != "" {
		fmt.Fprintf(os.Stderr, "read %v %v\n", f, err)
	}
	if errors.Is(err, http2.ErrFrameTooLarge) {
		return nil, peerError(http2.ErrCodeFrameSize, "sent a frame larger than the %d octets of SETTINGS_MAX_FRAME_SIZE (RFC 9113 §4.2)", maxReadFrame)
	}
	if err != nil {
		return nil, err
	}
	switch f.(type) {
	case *http2.HeadersFrame, *http2.PushPromiseFrame, *http2.ContinuationFrame:
	default:
		w.lastType = f.Header().Type
		if w.frames++; w.frames > w.maxFrames {
			return nil, peerError(http2.ErrCodeEnhanceYourCalm, "sent more than %d frames without a header block on one connection (a flood; the last %s)", w.maxFrames, f.Header().Type)
		}
	}
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if f.IsAck() {
			if len(w.pending) == 0 {
				return nil, errors.New("a SETTINGS acknowledgement for no SETTINGS frame")
			}
			w.acked = append(w.acked, w.pending[0].sizes()...)
			w.pending = w.pending[1:]
			w.acks++
			break
		}
		// A real peer applies the settings, then acknowledges them.
		err := f.ForeachSetting(func(s http2.Setting) error {
			if err := s.Valid(); err != nil {
				return peerError(http2.ErrCodeProtocol, "sent an invalid setting %v (RFC 9113 §6.5.2)", s)
			}
			switch s.ID {
			case http2.SettingHeaderTableSize:
				return w.enc.SetMaxDynamicTableSize(s.Val)
			case http2.SettingMaxFrameSize:
				w.peerMaxFrame = s.Val
			case http2.SettingInitialWindowSize:
				delta := int64(s.Val) - w.initialWindow
				w.initialWindow = int64(s.Val)
				for id := range w.streamWindow {
					w.streamWindow[id] += delta
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := w.fr.WriteSettingsAck(); err != nil {
			return nil, err
		}
		if err := w.flush(); err != nil {
			return nil, err
		}
	case *http2.HeadersFrame:
		if w.building != nil {
			return nil, peerError(http2.ErrCodeProtocol, "began a header block on stream %d inside the block of stream %d (RFC 9113 §6.10)", f.StreamID, w.building.Stream)
		}
		if w.server && f.StreamID%2 == 1 && f.StreamID > w.lastPeerStream {
			w.lastPeerStream = f.StreamID
		}
		w.start("HEADERS", f.StreamID, f.StreamEnded())
		if err := w.extend(f.HeaderBlockFragment(), f.HeadersEnded()); err != nil {
			return nil, err
		}
	case *http2.PushPromiseFrame:
		if w.building != nil {
			return nil, peerError(http2.ErrCodeProtocol, "began a header block on stream %d inside the block of stream %d (RFC 9113 §6.10)", f.StreamID, w.building.Stream)
		}
		w.start("PUSH_PROMISE", f.StreamID, false)
		if err := w.extend(f.HeaderBlockFragment(), f.HeadersEnded()); err != nil {
			return nil, err
		}
		// Push was disabled; the promise's block still went through the
		// peer's encoder, and is kept, but the stream is refused.
		if err := w.fr.WriteRSTStream(f.PromiseID, http2.ErrCodeRefusedStream); err != nil {
			return nil, err
		}
	case *http2.ContinuationFrame:
		if err := w.extend(f.HeaderBlockFragment(), f.HeadersEnded()); err != nil {
			return nil, err
		}
	case *http2.DataFrame:
		if w.data += int(f.Length); w.data > w.maxData {
			return nil, peerError(http2.ErrCodeEnhanceYourCalm, "sent more than %d MiB of DATA on one connection (the origin's bodies are 16 KiB at most)", w.maxData>>20)
		}
		if f.Length > 0 {
			// Give back what was read, padding included, at once.
			if err := w.fr.WriteWindowUpdate(0, f.Length); err != nil {
				return nil, err
			}
			if !f.StreamEnded() {
				if err := w.fr.WriteWindowUpdate(f.StreamID, f.Length); err != nil {
					return nil, err
				}
			}
		}
		if f.StreamEnded() {
			w.end(f.StreamID)
		}
	case *http2.WindowUpdateFrame:
		if f.StreamID == 0 {
			w.sendWindow += int64(f.Increment)
		} else if _, open := w.streamWindow[f.StreamID]; open {
			w.streamWindow[f.StreamID] += int64(f.Increment)
		}
		if err := w.flush(); err != nil {
			return nil, err
		}
	case *http2.PingFrame:
		if !f.IsAck() {
			if err := w.fr.WritePing(true, f.Data); err != nil {
				return nil, err
			}
		}
	case *http2.RSTStreamFrame:
		ended, ok := w.ended[f.StreamID]
		if ok && !ended {
			w.reset[f.StreamID] = f.ErrCode
		}
		w.end(f.StreamID)
		w.drop(f.StreamID)
		// A server may end a stream whose response is complete with
		// RST_STREAM NO_ERROR (RFC 9113 §8.1), as gRPC does: no note.
		if !(ok && ended && f.ErrCode == http2.ErrCodeNo) {
			w.note(fmt.Sprintf("stream %d reset by the peer: %v", f.StreamID, f.ErrCode))
		}
	case *http2.GoAwayFrame:
		// A peer may announce a shutdown with a GOAWAY naming the largest
		// stream, then name the last one it took in a second (RFC 9113
		// §6.8): the last GOAWAY counts; only the first is noted.
		first := w.goAway == nil
		w.goAway = &goAway{lastStream: f.LastStreamID, code: f.ErrCode}
		if debug := f.DebugData(); len(debug) > 0 {
			w.goAway.debug = " " + quotePeer(debug)
		}
		if first && f.ErrCode != http2.ErrCodeNo {
			w.note(fmt.Sprintf("GOAWAY from the peer: %v%s", f.ErrCode, w.goAway.debug))
		}
	}
	return f, nil
}

// meanwhile says, for an error, what the peer sent besides header
// blocks: its GOAWAY, or how many other frames.
func (w *wireConn) meanwhile() string {
	switch {
	case w.goAway != nil:
		return fmt.Sprintf(" (the peer sent GOAWAY %v, last stream %d)", w.goAway.code, w.goAway.lastStream)
	case w.frames > 0:
		return fmt.Sprintf(" (the peer sent %d frames without a header block, the last %v)", w.frames, w.lastType)
	case len(w.blocks) == 0:
		return " (the peer sent no frame)"
	}
	return ""
}

// end marks a stream hpackcert wrote headers on as ended; other streams
// are not remembered, so that a peer naming streams without end costs
// nothing.
func (w *wireConn) end(stream uint32) {
	if _, ok := w.ended[stream]; ok {
		w.ended[stream] = true
	}
}

// note keeps a line about the connection, up to maxConnNotes; Notes
// returns them with a count of the rest.
func (w *wireConn) note(s string) {
	if len(w.notes) >= maxConnNotes {
		w.dropped++
		return
	}
	w.notes = append(w.notes, s)
}

// Notes returns the connection's notes, the last saying how many were
// left out.
func (w *wireConn) Notes() []string {
	if w.dropped == 0 {
		return w.notes
	}
	return append(w.notes, fmt.Sprintf("and %d more notes like these", w.dropped))
}

// start begins a block.
func (w *wireConn) start(frame string, stream uint32, endStream bool) {
	w.building = &Block{Stream: stream, Frame: frame}
	w.buildingEnd = endStream
}

// extend appends a fragment to the block and finishes it when the
// fragment ends it.
func (w *wireConn) extend(fragment []byte, ended bool) error {
	b := w.building
	if b == nil {
		return errors.New("a header block fragment outside any block")
	}
	if len(b.Wire)+len(fragment) > w.maxBlock {
		return peerError(http2.ErrCodeEnhanceYourCalm, "sent a header block of more than %d octets on stream %d", w.maxBlock, b.Stream)
	}
	b.Wire = append(b.Wire, fragment...)
	if !ended {
		return nil
	}
	b.Acked, w.acked = w.acked, nil
	if w.label != nil {
		b.Step, b.Sent = w.label(b.Stream)
	}
	w.building = nil
	if err := w.budget.take(len(b.Wire)); err != nil {
		return err
	}
	if w.buildingEnd {
		w.end(b.Stream)
	}
	if !w.discard {
		w.blocks = append(w.blocks, *b)
		b = &w.blocks[len(w.blocks)-1]
	}
	if w.onBlock != nil {
		w.onBlock(b, w.buildingEnd)
	}
	return nil
}

// writeHeaders encodes fields with hpackcert's encoder and writes them as
// a HEADERS frame and as many CONTINUATION frames as the peer's maximum
// frame size needs.
func (w *wireConn) writeHeaders(stream uint32, fields []certify.Field, endStream bool) error {
	block, err := w.enc.EncodeBlock(w.encBuf[:0], fields)
	if err != nil {
		return err
	}
	if _, ok := w.ended[stream]; !ok {
		w.ended[stream] = false
	}
	w.encBuf = block
	max := int(w.peerMaxFrame)
	first := block[:min(len(block), max)]
	rest := block[len(first):]
	err = w.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: first, EndStream: endStream, EndHeaders: len(rest) == 0})
	for err == nil && len(rest) > 0 {
		chunk := rest[:min(len(rest), max)]
		rest = rest[len(chunk):]
		err = w.fr.WriteContinuation(stream, len(rest) == 0, chunk)
	}
	return err
}

// writeData sends data on stream as flow control allows, ending the
// stream with the last octet; what the windows do not allow waits for
// WINDOW_UPDATE.
func (w *wireConn) writeData(stream uint32, data []byte) error {
	if _, open := w.streamWindow[stream]; !open {
		w.streamWindow[stream] = w.initialWindow
	}
	w.queued = append(w.queued, queuedData{stream, data})
	return w.flush()
}

// drop forgets the data queued on a stream the peer reset.
func (w *wireConn) drop(stream uint32) {
	kept := w.queued[:0]
	for _, q := range w.queued {
		if q.stream != stream {
			kept = append(kept, q)
		}
	}
	w.queued = kept
	delete(w.streamWindow, stream)
}

// flush writes the queued data the windows allow.
func (w *wireConn) flush() error {
	kept := w.queued[:0]
	for _, q := range w.queued {
		for {
			n := min(int64(len(q.data)), w.sendWindow, w.streamWindow[q.stream], int64(w.peerMaxFrame))
			if n <= 0 && len(q.data) > 0 {
				break
			}
			end := int(n) == len(q.data)
			if err := w.fr.WriteData(q.stream, end, q.data[:n]); err != nil {
				return err
			}
			w.sendWindow -= n
			w.streamWindow[q.stream] -= n
			q.data = q.data[n:]
			if end {
				delete(w.streamWindow, q.stream)
				break
			}
		}
		if len(q.data) > 0 {
			kept = append(kept, q)
		}
	}
	w.queued = kept
	return nil
}
