package h3

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The HTTP/3 frame and stream types this package reads or writes (RFC
// 9114 §6.2, §7.2; RFC 9204 §4.2).
const (
	frameData     = 0x00
	frameHeaders  = 0x01
	frameSettings = 0x04

	streamControl = 0x00
	streamEncoder = 0x02
	streamDecoder = 0x03
)

// The settings identifiers of RFC 9204 §5.
const (
	settingMaxTableCapacity = 0x01
	settingBlockedStreams   = 0x07
)

// The HTTP/3 error codes this package closes streams and connections
// with (RFC 9114 §8.1).
const (
	errNoError        = 0x100
	errStreamCreation = 0x103
	errFrame          = 0x106
	errExcessiveLoad  = 0x107
)

// appendVarint appends v as a QUIC variable-length integer (RFC 9000
// §16), in the shortest form.
func appendVarint(b []byte, v uint64) []byte {
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return append(b, 0x40|byte(v>>8), byte(v))
	case v < 1<<30:
		return append(b, 0x80|byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	default:
		return append(b, 0xc0|byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
}

// appendFrame appends a frame of type typ carrying payload (RFC 9114
// §7.1).
func appendFrame(b []byte, typ uint64, payload []byte) []byte {
	b = appendVarint(b, typ)
	b = appendVarint(b, uint64(len(payload)))
	return append(b, payload...)
}

// settingsFrame is the SETTINGS frame the certifier sends as a decoder:
// the capacity and blocked streams it lets the peer's encoder use.
func settingsFrame(capacity, blocked uint64) []byte {
	var p []byte
	p = appendVarint(p, settingMaxTableCapacity)
	p = appendVarint(p, capacity)
	p = appendVarint(p, settingBlockedStreams)
	p = appendVarint(p, blocked)
	return appendFrame(nil, frameSettings, p)
}

// reader reads a stream of the peer, counting octets so that a fault is
// reported at its offset.
type reader struct {
	r    *bufio.Reader
	what string // "stream 4", "encoder stream", said in errors
	off  int64
}

func newReader(r io.Reader, what string) *reader {
	return &reader{r: bufio.NewReader(r), what: what}
}

// errEnd is returned by next at a clean end of the stream: between
// frames.
var errEnd = errors.New("h3: end of stream")

// varint reads a QUIC variable-length integer. An end of the stream
// before its first octet is io.EOF; inside it, a fault.
func (r *reader) varint(what string) (uint64, error) {
	start := r.off
	first, err := r.r.ReadByte()
	if err != nil {
		return 0, err
	}
	r.off++
	n := 1 << (first >> 6)
	v := uint64(first & 0x3f)
	for i := 1; i < n; i++ {
		c, err := r.r.ReadByte()
		if err != nil {
			return 0, r.fault(start, fmt.Sprintf("%s cut after %d of its %d octets (%v)", what, i, n, err))
		}
		r.off++
		v = v<<8 | uint64(c)
	}
	return v, nil
}

// fault returns the error of a malformed stream at offset off.
func (r *reader) fault(off int64, reason string) error {
	return fmt.Errorf("h3: %s offset %d: %s", r.what, off, reason)
}

// frame is one HTTP/3 frame header read from a stream; its payload
// follows.
type frame struct {
	typ, length uint64
	off         int64 // of the frame's first octet
}

// next reads the header of the next frame, or returns errEnd when the
// stream ended cleanly before it.
func (r *reader) next() (frame, error) {
	off := r.off
	typ, err := r.varint("frame type")
	if errors.Is(err, io.EOF) {
		return frame{}, errEnd
	}
	if err != nil {
		return frame{}, err
	}
	length, err := r.varint("frame length")
	if errors.Is(err, io.EOF) {
		return frame{}, r.fault(off, fmt.Sprintf("frame of type %#x cut before its length", typ))
	}
	if err != nil {
		return frame{}, err
	}
	return frame{typ: typ, length: length, off: off}, nil
}

// payload reads the payload of f, refused when longer than limit: the
// capture keeps at most limit octets of a frame.
func (r *reader) payload(f frame, limit int) ([]byte, error) {
	if f.length > uint64(limit) {
		return nil, r.fault(f.off, fmt.Sprintf("frame of type %#x is %d octets long, over the capture limit of %d", f.typ, f.length, limit))
	}
	b := make([]byte, f.length)
	n, err := io.ReadFull(r.r, b)
	r.off += int64(n)
	if err != nil {
		return nil, r.fault(f.off, fmt.Sprintf("frame of type %#x cut after %d of its %d payload octets (%v)", f.typ, n, f.length, err))
	}
	return b, nil
}

// skip discards the payload of f.
func (r *reader) skip(f frame) error {
	n, err := io.CopyN(io.Discard, r.r, int64(min(f.length, 1<<62)))
	r.off += n
	if err != nil {
		return r.fault(f.off, fmt.Sprintf("frame of type %#x cut after %d of its %d payload octets (%v)", f.typ, n, f.length, err))
	}
	return nil
}

// headers reads the frames of a request stream until it ends, handing
// the payload of each HEADERS frame to section and discarding the rest;
// at most limit octets of frames are read in all.
func (r *reader) headers(limit int, section func([]byte)) error {
	for {
		f, err := r.next()
		if errors.Is(err, errEnd) {
			return nil
		}
		if err != nil {
			return err
		}
		if r.off+int64(min(f.length, 1<<62)) > int64(limit) {
			return r.fault(f.off, fmt.Sprintf("frame of type %#x of %d octets takes the stream over the capture limit of %d octets", f.typ, f.length, limit))
		}
		if f.typ != frameHeaders {
			if err := r.skip(f); err != nil {
				return err
			}
			continue
		}
		p, err := r.payload(f, limit)
		if err != nil {
			return err
		}
		section(p)
	}
}
