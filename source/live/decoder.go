package live

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// DefaultBlockTimeout bounds how long a live decoder waits for the
// target's verdict on one header block (an answer, a reset stream, a
// GOAWAY or a close), and for a new connection's settings.
const DefaultBlockTimeout = 5 * time.Second

// settleWait is how long a live decoder waits, after the target accepted
// a block, for a close or a GOAWAY that refuses it after all (a target
// that answers a decoding error as a stream error, then ends the
// connection); preSendWait is how long it looks, before the next block,
// for a close that came later.
const (
	settleWait  = 5 * time.Millisecond
	preSendWait = time.Millisecond
)

// defaultPeerTableSize is SETTINGS_HEADER_TABLE_SIZE until the peer says
// otherwise (RFC 9113 §6.5.2).
const defaultPeerTableSize = 4096

// DecoderOptions configures NewDecoderTarget.
type DecoderOptions struct {
	// Name names the target in reports.
	Name string
	// URL is the server or proxy: http://HOST:PORT for h2c with prior
	// knowledge, https://HOST:PORT for TLS with ALPN h2.
	URL string
	// BlockTimeout bounds the wait for the verdict on each block and for
	// each new connection's settings; 0 means DefaultBlockTimeout.
	BlockTimeout time.Duration
	// PID is the process (and process group) the target runs as, 0 when
	// unknown or when it runs in this process: the decoders then report
	// no memory.
	PID int
	// Stop, when set, stops the target; Close calls it once.
	Stop func() error
	// Shown, when set, is the origin the target shows the fields it
	// decoded to, as View declares: the request a proxy relays, or an
	// app's echo. Without it the target shows no fields (FieldsHidden).
	Shown *Origin
	View  *DecoderView
}

// DecoderTarget is a live server or proxy as a certify.DecoderTarget: the
// certifier's header blocks go to it as requests, and its HPACK decoder
// accepts or refuses each. It runs one story at a time: NewDecoder ends
// the connection of the previous decoder before it opens its own.
type DecoderTarget struct {
	o   DecoderOptions
	u   *url.URL
	mu  sync.Mutex
	cur *Decoder
	// opened counts the connections opened; last says how the latest
	// ended, for the error of a NewDecoder that cannot connect.
	opened int
	last   string
	closed bool
}

// NewDecoderTarget returns the target o names. It connects to nothing
// until NewDecoder.
func NewDecoderTarget(o DecoderOptions) (*DecoderTarget, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("live: decoder target %s: %w", o.Name, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Port() == "" {
		return nil, fmt.Errorf("live: decoder target %s: %q: want http://HOST:PORT (h2c) or https://HOST:PORT (TLS)", o.Name, o.URL)
	}
	if o.BlockTimeout <= 0 {
		o.BlockTimeout = DefaultBlockTimeout
	}
	return &DecoderTarget{o: o, u: u}, nil
}

// Name returns the target's name.
func (t *DecoderTarget) Name() string { return t.o.Name }

// Live marks the target as driven over a live HTTP/2 connection
// (certify.Live): the engine sends it requests and holds it to RFC 9113
// as well as RFC 7541.
func (t *DecoderTarget) Live() {}

// Close ends the open connection and stops the target.
func (t *DecoderTarget) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	if t.cur != nil {
		t.cur.close()
		t.cur = nil
	}
	if t.o.Stop != nil {
		return t.o.Stop()
	}
	return nil
}

// NewDecoder opens a new HTTP/2 connection to the target: the preface, a
// SETTINGS frame (no push, a window of 1 GiB so that what the target
// answers never waits for flow control), the acknowledgement of the
// target's SETTINGS, which gives its SETTINGS_HEADER_TABLE_SIZE and
// SETTINGS_MAX_HEADER_LIST_SIZE. A target that takes no connection, or
// whose settings do not come within the block timeout, has stopped
// serving: the error says after what.
func (t *DecoderTarget) NewDecoder() (certify.Decoder, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, fmt.Errorf("live: %s: the decoder target is closed", t.o.Name)
	}
	if t.cur != nil {
		t.last = t.cur.summary()
		t.cur.close()
		t.cur = nil
	}
	d, err := openDecoder(t.u, t.o)
	if err != nil {
		after := "before any connection was served"
		if t.opened > 0 {
			after = fmt.Sprintf("after %s (the last: %s)", counted(t.opened, "connection"), t.last)
		}
		return nil, fmt.Errorf("live: %s: target stopped serving %s: %w", t.o.Name, after, err)
	}
	t.opened++
	t.cur = d
	return d, nil
}

// Decoder is one connection to a live target as a certify.Decoder. The
// fields of an accepted block are what the target shows of them at the
// origin (DecoderOptions.Shown; decoderfields.go); a block whose fields
// it does not show decodes to nil fields (FieldsHidden). Beside the verdicts it measures each
// block: LastElapsed, PeakMemory and PeakMemoryRise. It is used from one
// goroutine.
type Decoder struct {
	o  DecoderOptions
	nc net.Conn
	// br holds what was read from nc and not yet framed, so that a look
	// for pending frames (pending) loses nothing when it times out.
	br *bufio.Reader
	w  *wireConn
	// table records the target's SETTINGS_HEADER_TABLE_SIZE as its
	// SETTINGS frames bring it; agreed is the value the certifier was
	// told to work with.
	table  *peerTableSize
	agreed uint32
	// maxList is the target's SETTINGS_MAX_HEADER_LIST_SIZE, when it
	// advertised one.
	maxList    uint32
	hasMaxList bool
	// stream is the stream the next block goes on; blocks counts the
	// blocks sent.
	stream uint32
	blocks int
	// answered holds the streams the target wrote response headers on,
	// each with its :status ("" when the block did not decode or had
	// none); responses decodes those blocks.
	answered  map[uint32]string
	responses *strict.Decoder
	// dead, once set, says why the connection takes no more blocks.
	dead string
	// Measures of the last block.
	elapsed    time.Duration
	peak, rise int64
	peakKnown  bool
	lastResult string
	// answer says how the target took the last block it accepted.
	answer string
	// sent decodes the blocks as the certifier wrote them, to compare
	// with what the target shows; hidden is set when the target showed
	// nothing of the last block.
	sent   *strict.Decoder
	hidden bool
}

// openDecoder connects to the target and reads its settings.
func openDecoder(u *url.URL, o DecoderOptions) (*Decoder, error) {
	ctx, cancel := context.WithTimeout(context.Background(), o.BlockTimeout)
	defer cancel()
	nc, err := dial(ctx, u, o.BlockTimeout)
	if err != nil {
		return nil, fmt.Errorf("the target took no new connection: %s", PeerText(err.Error()))
	}
	table := &peerTableSize{size: defaultPeerTableSize}
	d := &Decoder{o: o, nc: nc, table: table, stream: 1, answered: map[uint32]string{}, responses: strict.New()}
	d.responses.SetMaxHeaderListSize(maxResponseList)
	d.br = bufio.NewReader(nc)
	d.w = newWireConn(nc, d.br, 0, table)
	d.w.discard = true
	d.w.onBlock = func(b *Block, _ bool) {
		if b.Frame != "HEADERS" {
			return
		}
		// Every response block goes through the decoder, to keep its
		// table; a target whose encoder breaks it leaves the status
		// unknown.
		fields, _ := d.responses.DecodeBlock(b.Wire)
		if _, seen := d.answered[b.Stream]; seen {
			return
		}
		d.answered[b.Stream] = ""
		for _, f := range fields {
			if f.Name == ":status" {
				d.answered[b.Stream] = f.Value
			}
		}
	}
	fail := func(err error) (*Decoder, error) {
		d.close()
		return nil, err
	}
	deadline := time.Now().Add(o.BlockTimeout)
	nc.SetDeadline(deadline)
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		return fail(fmt.Errorf("writing the connection preface: %s", d.w.why(err)))
	}
	err = d.w.sendSettings(http2.Setting{ID: http2.SettingEnablePush, Val: 0}, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 30})
	if err == nil {
		err = d.w.fr.WriteWindowUpdate(0, 1<<30-initialWindowSize)
	}
	if err != nil {
		return fail(fmt.Errorf("writing the connection's SETTINGS: %s", d.w.why(err)))
	}
	peerSettings := false
	for !peerSettings || len(d.w.pending) > 0 {
		f, err := d.w.readFrame(deadline)
		if err != nil {
			if isTimeout(err) {
				err = errNoAnswer
			}
			what := "SETTINGS frame"
			if peerSettings {
				what = "acknowledgement of its SETTINGS frame"
			}
			return fail(fmt.Errorf("no %s from the target within %v: %s%s", what, o.BlockTimeout, d.w.why(err), d.w.meanwhile()))
		}
		if g := d.w.goAway; g != nil {
			return fail(fmt.Errorf("%s as the connection began", d.w.goAwayText()))
		}
		if sf, ok := f.(*http2.SettingsFrame); ok && !sf.IsAck() {
			peerSettings = true
			if v, ok := sf.Value(http2.SettingMaxHeaderListSize); ok {
				d.maxList, d.hasMaxList = v, true
			}
		}
	}
	d.agreed = table.size
	d.sent, d.hidden = newSentDecoder(d.agreed), true
	return d, nil
}

// PeerSettings returns the SETTINGS_HEADER_TABLE_SIZE the target
// advertised (4096 when it said nothing) and its
// SETTINGS_MAX_HEADER_LIST_SIZE, with whether it advertised one.
func (d *Decoder) PeerSettings() (tableSize, maxHeaderList uint32, hasMaxHeaderList bool) {
	return d.agreed, d.maxList, d.hasMaxList
}

// SetMaxDynamicTableSize accepts n when it is the SETTINGS_HEADER_TABLE_SIZE
// the target advertised: the certifier cannot change the setting of the
// target's decoder, only acknowledge it. Any other value is refused with
// an error wrapping certify.ErrSettingUnsupported.
func (d *Decoder) SetMaxDynamicTableSize(n uint32) error {
	if n == d.agreed {
		return nil
	}
	return fmt.Errorf("%w: the target advertised SETTINGS_HEADER_TABLE_SIZE %d, not %d", certify.ErrSettingUnsupported, d.agreed, n)
}

// SetMaxHeaderListSize accepts n when it is 0 (no limit), when the target
// advertised no SETTINGS_MAX_HEADER_LIST_SIZE (its own limit, if any, is
// what is graded) or when n is at least what it advertised (a peer may
// enforce a lower limit than the one it is given, RFC 9113 §6.5.2). A
// lower n is refused with an error wrapping certify.ErrSettingUnsupported:
// the target would accept lists between the two.
func (d *Decoder) SetMaxHeaderListSize(n uint32) error {
	if n == 0 || !d.hasMaxList || n >= d.maxList {
		return nil
	}
	return fmt.Errorf("%w: the target advertised SETTINGS_MAX_HEADER_LIST_SIZE %d, above %d", certify.ErrSettingUnsupported, d.maxList, n)
}

// FieldsHidden reports whether the target showed nothing of the fields
// of the last block it accepted, which then decoded to nil fields: it
// shows none (no DecoderOptions.Shown), or no request of it reached the
// origin (a server that answered on its own).
func (d *Decoder) FieldsHidden() bool { return d.hidden }

// LastAnswer says how the target took the last block it accepted: its
// response's status ("answered 404") or the reset of the stream
// ("reset the stream (RST_STREAM PROTOCOL_ERROR)"), for the reports.
func (d *Decoder) LastAnswer() string { return d.answer }

// LastElapsed returns how long the target took to give its verdict on
// the last block, from the first octet of its HEADERS frame written to
// the answer, reset, GOAWAY or close read.
func (d *Decoder) LastElapsed() time.Duration { return d.elapsed }

// PeakMemory returns the highest resident set size the target's processes
// reached, in octets, read after the last block: the sum of the peak
// resident sizes (VmHWM) of the processes of the target's process group.
// The peak catches a bomb expanded and freed before the verdict came.
// It is false when the target's process is unknown (a target in this
// process) or its /proc entries cannot be read.
func (d *Decoder) PeakMemory() (int64, bool) { return d.peak, d.peakKnown }

// PeakMemoryRise returns how much PeakMemory rose over the last block, in
// octets, from just before its first frame was written to just after the
// verdict: what decoding the block (a bomb's expansion) cost the target
// at its highest. It is false when PeakMemory is.
func (d *Decoder) PeakMemoryRise() (int64, bool) { return d.rise, d.peakKnown }

// DecodeBlock sends block as the header block of a request: one HEADERS
// frame (END_STREAM, and END_HEADERS on the last frame) on the next
// stream, followed by CONTINUATION frames when the block is larger than
// the target's SETTINGS_MAX_FRAME_SIZE. It then reads until the target
// gives its verdict:
//
//   - response headers or RST_STREAM on the stream: the target's HPACK
//     decoder took the block (a malformed request is a stream error, not
//     a decoding error, RFC 9113 §8.1.1); the fields are nil;
//   - but a response of status 431 (Request Header Fields Too Large) is
//     the target refusing the header list as too large, as RFC 9113
//     §6.5.2 allows it to: a refusal, the reason saying so;
//   - GOAWAY with an error code, or the connection closed or reset: the
//     target refused the block, an error wrapping a *certify.Rejection
//     whose reason names the GOAWAY code and debug data (a *GoAwayError),
//     or says the connection ended without GOAWAY;
//   - an acceptance followed, within a few milliseconds, by a close or a
//     GOAWAY with an error: a refusal too, the reason saying the target
//     answered first (a decoding error answered as a stream error);
//   - nothing of these within the block timeout, a GOAWAY NO_ERROR that
//     leaves the stream untaken, or a peer breaking the bounds of
//     PeerError: a breakdown, a plain error.
//
// After a refusal or a breakdown the connection is dead, and the next
// block is a breakdown too.
func (d *Decoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	if d.dead != "" {
		return nil, fmt.Errorf("live: %s: no block can go on this connection: %s", d.o.Name, d.dead)
	}
	if d.table.size != d.agreed {
		return nil, d.breakdown(fmt.Sprintf("the target changed its SETTINGS_HEADER_TABLE_SIZE from %d to %d mid-connection, before block %d", d.agreed, d.table.size, d.blocks+1))
	}
	if d.blocks > 0 {
		if err := d.pending(preSendWait); err != nil {
			return nil, d.breakdown(fmt.Sprintf("after block %d was accepted (%s), before block %d: %s", d.blocks, d.answer, d.blocks+1, d.w.why(err)))
		}
		if g := d.w.goAway; g != nil && (g.code != http2.ErrCodeNo || g.lastStream < d.stream) {
			return nil, d.breakdown(fmt.Sprintf("%s after block %d was answered, before block %d", d.w.goAwayText(), d.blocks, d.blocks+1))
		}
	}
	if d.stream > 1<<31-1 {
		return nil, d.breakdown("the connection ran out of stream identifiers")
	}
	d.blocks++
	stream := d.stream
	d.stream += 2
	began := time.Now()
	deadline := began.Add(d.o.BlockTimeout)
	d.w.ended[stream] = false
	before, knownBefore := groupPeakMemory(d.o.PID)
	d.nc.SetDeadline(deadline)
	mark := d.markShown()
	writeErr := d.writeBlock(stream, block)
	fields, err := d.verdict(stream, deadline, writeErr)
	d.elapsed = time.Since(began)
	if err == nil {
		err = d.settle()
	}
	if err == nil {
		fields = d.shownFields(mark, block)
	}
	d.peak, d.peakKnown = groupPeakMemory(d.o.PID)
	d.rise = 0
	if d.peakKnown && knownBefore && d.peak > before {
		d.rise = d.peak - before
	}
	return fields, err
}

// writeBlock writes block on stream as a HEADERS frame and as many
// CONTINUATION frames as the target's SETTINGS_MAX_FRAME_SIZE needs.
func (d *Decoder) writeBlock(stream uint32, block []byte) error {
	size := int(d.w.peerMaxFrame)
	first := block[:min(len(block), size)]
	rest := block[len(first):]
	err := d.w.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: first, EndStream: true, EndHeaders: len(rest) == 0})
	for err == nil && len(rest) > 0 {
		chunk := rest[:min(len(rest), size)]
		rest = rest[len(chunk):]
		err = d.w.fr.WriteContinuation(stream, len(rest) == 0, chunk)
	}
	return err
}

// refused ends the connection on the target's refusal of the last block.
func (d *Decoder) refused(why error) error {
	d.dead = fmt.Sprintf("block %d was refused (%v)", d.blocks, why)
	d.lastResult = d.dead
	d.close()
	return certify.Reject(why)
}

// breakdown ends the connection on what is neither an acceptance nor a
// refusal, and returns it as an error.
func (d *Decoder) breakdown(what string) error {
	d.dead = what
	d.lastResult = what
	d.close()
	return fmt.Errorf("live: %s: %s", d.o.Name, what)
}

// summary says how the connection ended, for a later NewDecoder's error.
func (d *Decoder) summary() string {
	if d.lastResult == "" {
		return fmt.Sprintf("%d blocks sent", d.blocks)
	}
	return d.lastResult
}

// close ends the connection: a GOAWAY NO_ERROR when it is still up, then
// the close.
func (d *Decoder) close() {
	if d.nc == nil {
		return
	}
	if d.dead == "" {
		d.dead = "the connection was closed"
	}
	d.nc.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	d.w.fr.WriteGoAway(0, http2.ErrCodeNo, nil)
	d.nc.Close()
	d.nc = nil
}
