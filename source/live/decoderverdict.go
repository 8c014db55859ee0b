package live

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
)

// settle reads, for settleWait, what the target sends after accepting the
// last block: a close or a GOAWAY with an error refuses the block after
// all, as a target does that answers a decoding error as a stream error
// and then ends the connection.
func (d *Decoder) settle() error {
	err := d.pending(settleWait)
	g := d.w.goAway
	switch {
	case g != nil && g.code != http2.ErrCodeNo:
		return d.refused(&GoAwayError{Code: g.code, LastStream: g.lastStream, Debug: g.debug, After: d.answer})
	case err == nil:
		return nil
	case closedConn(err) && g != nil:
		// A graceful end after the answer: the block stands accepted;
		// the next one cannot go on this connection.
		d.dead = fmt.Sprintf("the target ended the connection gracefully (GOAWAY NO_ERROR, last stream %d) after block %d", g.lastStream, d.blocks)
		d.lastResult = d.dead
		d.close()
		return nil
	case closedConn(err):
		return d.refused(&ClosedError{Reset: errors.Is(err, syscall.ECONNRESET), After: d.answer})
	}
	var pe *PeerError
	if errors.As(err, &pe) {
		d.w.closeWith(pe.Code)
		return d.breakdown(fmt.Sprintf("after block %d %s", d.blocks, pe.Error()))
	}
	d.w.closeWith(http2.ErrCodeProtocol)
	return d.breakdown(fmt.Sprintf("after block %d the target sent what is not HTTP/2: %s", d.blocks, PeerText(err.Error())))
}

// pending reads the frames the target has sent, until none comes within
// wait: nil then, or the error that ended the reading. A frame begun is
// read whole, within the block timeout.
func (d *Decoder) pending(wait time.Duration) error {
	for {
		d.nc.SetReadDeadline(time.Now().Add(wait))
		if _, err := d.br.Peek(1); err != nil {
			if isTimeout(err) {
				return nil
			}
			return err
		}
		if _, err := d.w.readFrame(time.Now().Add(d.o.BlockTimeout)); err != nil {
			return err
		}
	}
}

// verdict reads the target's frames until its verdict on the block sent
// on stream; writeErr is the error of sending it, if any.
func (d *Decoder) verdict(stream uint32, deadline time.Time, writeErr error) ([]certify.Field, error) {
	n := d.blocks
	for {
		if g := d.w.goAway; g != nil && g.code != http2.ErrCodeNo {
			return nil, d.refused(&GoAwayError{Code: g.code, LastStream: g.lastStream, Debug: g.debug})
		}
		if status, ok := d.answered[stream]; ok {
			if status == statusTooLarge {
				return nil, d.refused(ErrStatus431)
			}
			d.answer = "answered " + status
			if status == "" {
				d.answer = "answered (no :status read)"
			}
			d.lastResult = fmt.Sprintf("block %d %s", n, d.answer)
			return nil, nil
		}
		if code, reset := d.w.reset[stream]; reset {
			d.answer = fmt.Sprintf("reset the stream (RST_STREAM %v)", code)
			d.lastResult = fmt.Sprintf("block %d: %s", n, d.answer)
			return nil, nil
		}
		if g := d.w.goAway; g != nil && g.lastStream < stream {
			return nil, d.breakdown(fmt.Sprintf("the target ended the connection gracefully (GOAWAY NO_ERROR, last stream %d) without taking block %d (stream %d)", g.lastStream, n, stream))
		}
		_, err := d.w.readFrame(deadline)
		if err == nil {
			continue
		}
		var pe *PeerError
		switch {
		case errors.As(err, &pe):
			d.w.closeWith(pe.Code)
			return nil, d.breakdown(fmt.Sprintf("after block %d %s", n, pe.Error()))
		case isTimeout(err):
			what := "no answer"
			if writeErr != nil {
				what = "the block could not be sent (" + PeerText(writeErr.Error()) + ") and no answer came"
			}
			return nil, d.breakdown(fmt.Sprintf("%s to block %d (stream %d) within %v%s", what, n, stream, d.o.BlockTimeout, d.w.meanwhile()))
		case closedConn(err):
			if g := d.w.goAway; g != nil {
				return nil, d.refused(&GoAwayError{Code: g.code, LastStream: g.lastStream, Debug: g.debug, Closed: true})
			}
			return nil, d.refused(&ClosedError{Reset: errors.Is(err, syscall.ECONNRESET), WhileSending: writeErr != nil})
		default:
			// The Framer's own errors: a frame that is not HTTP/2.
			d.w.closeWith(http2.ErrCodeProtocol)
			return nil, d.breakdown(fmt.Sprintf("after block %d the target sent what is not HTTP/2: %s%s", n, PeerText(err.Error()), d.w.meanwhile()))
		}
	}
}
