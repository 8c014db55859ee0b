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

// DefaultMaxBlock is the largest header block a peer may write, in
// octets, before hpackcert gives up on the connection: certify's default
// per-block limit.
const DefaultMaxBlock = certify.DefaultMaxBlockSize

// wireConn is hpackcert's end of one HTTP/2 connection, client or server:
// it reads the peer's frames raw, keeps every header block with the
// SETTINGS_HEADER_TABLE_SIZE values the peer acknowledged before it,
// answers SETTINGS and PING, and writes what hpackcert sends, with an
// encoder of its own (never x/net's). It is used from one goroutine.
type wireConn struct {
	nc net.Conn
	fr *http2.Framer
	// pending holds, for each SETTINGS frame sent and not yet
	// acknowledged, the SETTINGS_HEADER_TABLE_SIZE values it carried.
	// The peer acknowledges SETTINGS frames in the order they were sent
	// (RFC 9113 §6.5.3).
	pending [][]uint32
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

	ended  map[uint32]bool
	goAway *http2.GoAwayFrame
	notes  []string
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
		streamWindow: map[uint32]int64{}, ended: map[uint32]bool{},
	}
	w.fr = http2.NewFramer(nc, r)
	return w
}

// sendSettings writes one SETTINGS frame and remembers the
// SETTINGS_HEADER_TABLE_SIZE values it carries until it is acknowledged.
func (w *wireConn) sendSettings(settings ...http2.Setting) error {
	var sizes []uint32
	for _, s := range settings {
		if s.ID == http2.SettingHeaderTableSize {
			sizes = append(sizes, s.Val)
		}
	}
	w.pending = append(w.pending, sizes)
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
	if err != nil {
		return nil, err
	}
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if f.IsAck() {
			if len(w.pending) == 0 {
				return nil, errors.New("a SETTINGS acknowledgement for no SETTINGS frame")
			}
			w.acked = append(w.acked, w.pending[0]...)
			w.pending = w.pending[1:]
			break
		}
		// A real peer applies the settings, then acknowledges them.
		err := f.ForeachSetting(func(s http2.Setting) error {
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
		w.start("HEADERS", f.StreamID, f.StreamEnded())
		if err := w.extend(f.HeaderBlockFragment(), f.HeadersEnded()); err != nil {
			return nil, err
		}
	case *http2.PushPromiseFrame:
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
			w.ended[f.StreamID] = true
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
		w.ended[f.StreamID] = true
		w.drop(f.StreamID)
		w.note(fmt.Sprintf("stream %d reset by the peer: %v", f.StreamID, f.ErrCode))
	case *http2.GoAwayFrame:
		w.goAway = f
		if f.ErrCode != http2.ErrCodeNo {
			w.note(fmt.Sprintf("GOAWAY from the peer: %v %q", f.ErrCode, f.DebugData()))
		}
	}
	return f, nil
}

func (w *wireConn) note(s string) { w.notes = append(w.notes, s) }

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
		return fmt.Errorf("stream %d: a header block of more than %d octets", b.Stream, w.maxBlock)
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
	if w.buildingEnd {
		w.ended[b.Stream] = true
	}
	w.blocks = append(w.blocks, *b)
	if w.onBlock != nil {
		w.onBlock(&w.blocks[len(w.blocks)-1], w.buildingEnd)
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

// toFields converts a story header list to certify fields.
func toFields(list []vectors.Field) []certify.Field {
	out := make([]certify.Field, len(list))
	for i, f := range list {
		out[i] = certify.Field{Name: f.Name, Value: f.Value}
	}
	return out
}
