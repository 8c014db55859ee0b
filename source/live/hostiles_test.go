package live

import (
	"bytes"
	"io"
	"strings"
	"time"

	"golang.org/x/net/http2"
)

// hostileText is debug data meant to reach a terminal raw if hpackcert
// printed it so: ESC, BEL, C1 CSI, a bidirectional override.
const hostileText = "\x1b[31mred\a\u009b2J\u202eevil"

// hostiles is the battery: every misbehaving peer, by name.
var hostiles = []hostile{
	{name: "continuation-endless", want: "header block of more than", act: func(p *peerConn) error {
		if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(16384)}); err != nil {
			return err
		}
		for p.running() {
			if err := p.fr.WriteContinuation(1, false, block(16384)); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "header-list-bomb", want: "verdict: FAIL", answers: true,
		stop:       "target stopped at request 3 of 79 on connection c00-targeted: the target closed the connection before the response to request 3 ended",
		clientStop: "target stopped at request 3 of 16: the client ended after 2 requests",
		act: func(p *peerConn) error {
			// Every request (as a server) or answer (as a client) is met with
			// one block just under the per-block limit whose every octet is a
			// field, a header list of 1M fields for the decoders; SETTINGS
			// are acknowledged, so that the blocks are graded. Two per
			// connection, on the script's six connections, stay under
			// the capture's 16 MiB.
			stream := uint32(1)
			for range 2 {
				if err := p.bomb(stream); err != nil {
					return err
				}
				for next := false; !next; {
					select {
					case ev, ok := <-p.events:
						if !ok {
							return nil
						}
						if ev.settings {
							p.fr.WriteSettingsAck()
						} else if ev.headers {
							next = true
							stream = ev.stream
							if !p.server {
								stream += 2
							}
						}
					case <-time.After(time.Until(p.stop)):
						return nil
					}
				}
			}
			return nil
		}},
	{name: "headers-many-streams", want: "header blocks", act: func(p *peerConn) error {
		for id := uint32(1); p.running(); id += 2 {
			stream := id
			if p.server && id > 1 {
				stream = id - 1 // even streams, the server's
			}
			if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block(8192), EndHeaders: true, EndStream: true}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "push-promise-spam", want: "header blocks", act: func(p *peerConn) error {
		for id := uint32(2); p.running(); id += 2 {
			if err := p.fr.WritePushPromise(http2.PushPromiseParam{StreamID: 1, PromiseID: id, BlockFragment: block(4096), EndHeaders: true}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "goaway-flood", want: "GOAWAY|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteGoAway(0, http2.ErrCodeEnhanceYourCalm, []byte(strings.Repeat(hostileText, 64))); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "goaway-64MB-debug", want: "frame", act: func(p *peerConn) error {
		debug := bytes.Repeat([]byte(hostileText), (1<<24-1-8)/len(hostileText))
		for range 4 {
			if err := p.fr.WriteGoAway(0, http2.ErrCodeEnhanceYourCalm, debug); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "rst-stream-flood", want: "RST_STREAM|frames", act: func(p *peerConn) error {
		for id := uint32(1); p.running(); id += 2 {
			if err := p.fr.WriteRSTStream(id, http2.ErrCodeCancel); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "settings-flood", want: "SETTINGS|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 100}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "ping-flood", want: "PING|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WritePing(false, [8]byte{1}); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "window-update-flood", want: "WINDOW_UPDATE|frames", act: func(p *peerConn) error {
		for p.running() {
			if err := p.fr.WriteWindowUpdate(0, 1); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "data-flood", want: "DATA", act: func(p *peerConn) error {
		if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: p.fields(), EndHeaders: true}); err != nil {
			return err
		}
		data := make([]byte, 16384)
		for p.running() {
			if err := p.fr.WriteData(1, false, data); err != nil {
				return err
			}
		}
		return nil
	}},
	// A client that writes a frame of 1 MiB and hangs up can reset the
	// connection before hpackcert reads the frame's header: hpackcert then
	// names the reset it got instead.
	{name: "oversize-frame", want: "frame|reset by peer", act: func(p *peerConn) error {
		return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(1 << 20), EndHeaders: true})
	}},
	{name: "slowloris", want: "within 1s|no connection|no header block", raw: func(p *peerConn) error {
		p.drain()
		var first bytes.Buffer
		if !p.server {
			first.WriteString(http2.ClientPreface)
		}
		http2.NewFramer(&first, nil).WriteSettings()
		for _, b := range first.Bytes() {
			if !p.running() {
				return nil
			}
			if _, err := p.nc.Write([]byte{b}); err != nil {
				return err
			}
			time.Sleep(time.Second)
		}
		return nil
	}},
	{name: "silence", want: "within 1s|no connection|no header block", raw: func(p *peerConn) error {
		io.Copy(io.Discard, p.nc)
		return nil
	}},
	{name: "settings-never-acknowledged", want: "never acknowledged",
		stop:       "target stopped at request 2 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 1 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_MAX_CONCURRENT_STREAMS = 1) sent at the start of the connection within 1s (RFC 9113 §6.5.3)",
		raw: func(p *peerConn) error {
			// Answers every request (a server) or makes one (a client), and
			// never acknowledges a SETTINGS frame.
			if !p.server {
				io.WriteString(p.nc, http2.ClientPreface)
			}
			if err := p.fr.WriteSettings(); err != nil {
				return err
			}
			if !p.server {
				if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: p.fields(), EndHeaders: true, EndStream: true}); err != nil {
					return err
				}
			} else if _, err := io.ReadFull(p.nc, make([]byte, len(http2.ClientPreface))); err != nil {
				return err
			}
			for p.running() {
				f, err := p.fr.ReadFrame()
				if err != nil {
					return err
				}
				if h, ok := f.(*http2.HeadersFrame); ok && p.server {
					if err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: h.StreamID, BlockFragment: p.fields(), EndHeaders: true, EndStream: true}); err != nil {
						return err
					}
				}
			}
			return nil
		}},
	// The peers that behave for a while, then stop: the blocks before
	// are graded, and the stop is the one failure.
	{name: "settings-table-size-never-acknowledged", want: "never acknowledged", answers: true, act: behaveThen(neverAckSizes),
		stop:       "target stopped at request 2 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 2 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 0) sent before request 2 within 1s (RFC 9113 §6.5.3)"},
	{name: "stops-after-10", want: "stopped at request 11", answers: true, act: behaveThen(closeConn),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target closed the connection",
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "resets-after-10", want: "stopped at request 11", answers: true, act: behaveThen(resetConn),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target reset the connection (TCP reset)",
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "goaway-error-after-10", want: "stopped at request 11", answers: true, act: behaveThen(goAwayError),
		stop:       `target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 (RFC 9113 §6.5.3): the target sent GOAWAY PROTOCOL_ERROR "\x1b[31mred\a\u009b2J\u202eevil" (last stream 19)`,
		clientStop: "target stopped at request 11 of 16: the client ended after 10 requests"},
	{name: "rst-stream-at-11", want: "stopped at request 1[12]", answers: true, act: behaveThen(resetStream),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target reset the stream of request 11 (RST_STREAM INTERNAL_ERROR)",
		clientStop: "target stopped at request 12 of 16: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 159) sent before request 12 (RFC 9113 §6.5.3): the target closed the connection"},
	{name: "silent-after-10", want: "stopped at request 11", answers: true, act: behaveThen(silent),
		stop:       "target stopped at request 11 of 79 on connection c00-targeted: the target never acknowledged the SETTINGS frame (SETTINGS_HEADER_TABLE_SIZE = 16384) sent before request 11 within 1s (RFC 9113 §6.5.3)",
		clientStop: "target stopped at request 11 of 16: the client was stopped at the time limit of 5s after 10 requests"},
	{name: "connection-churn", want: "connection", raw: func(p *peerConn) error {
		// A server closes every connection at once; a client opens and
		// closes thousands (runHostileClient).
		return nil
	}},
}

func lookupHostile(name string) *hostile {
	for i := range hostiles {
		if hostiles[i].name == name {
			return &hostiles[i]
		}
	}
	return nil
}
