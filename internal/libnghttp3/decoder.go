//go:build nghttp3

package libnghttp3

// #include "decoder.h"
import "C"

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"
)

// Section is a field section a Decoder decoded or holds blocked.
type Section struct {
	Stream uint64
	// Blocked is set when the section waits for inserts (RFC 9204
	// §2.2.1); Fields is then empty.
	Blocked bool
	// Fields is the header list; Sensitive is set on each field line
	// libnghttp3 emitted with NGHTTP3_NV_FLAG_NEVER_INDEX (the N bit).
	Fields []Field
}

// Decoder is one libnghttp3 QPACK decoder (nghttp3_qpack_decoder), the
// decoder of one HTTP/3 connection. It is not safe for concurrent use.
// After a call returns an *Error, the decoder refuses every other.
type Decoder struct {
	c       *C.hc3dec
	cleanup runtime.Cleanup
	broken  error
}

// NewDecoder returns the decoder of a connection that sent
// SETTINGS_QPACK_MAX_TABLE_CAPACITY maxCapacity (the hard maximum given
// to nghttp3_qpack_decoder_new: a Set Dynamic Table Capacity above it is
// refused), SETTINGS_QPACK_BLOCKED_STREAMS blockedStreams, and
// SETTINGS_MAX_FIELD_SECTION_SIZE maxFieldSectionSize (0: none).
func NewDecoder(maxCapacity, blockedStreams, maxFieldSectionSize uint64) (*Decoder, error) {
	c := C.hc3dec_new(C.uint64_t(maxCapacity), C.uint64_t(blockedStreams), C.uint64_t(maxFieldSectionSize))
	if c == nil {
		return nil, &Error{Op: "NewDecoder", Code: C.NGHTTP3_ERR_NOMEM, Reason: "out of memory"}
	}
	d := &Decoder{c: c}
	d.cleanup = runtime.AddCleanup(d, func(c *C.hc3dec) { C.hc3dec_del(c) }, c)
	return d, nil
}

// Close frees the decoder's C memory, blocked sections included. It is
// safe to call more than once and always returns nil.
func (d *Decoder) Close() error {
	if d.c == nil {
		return nil
	}
	d.cleanup.Stop()
	C.hc3dec_del(d.c)
	d.c = nil
	return nil
}

// usable returns why the decoder cannot be called, or nil.
func (d *Decoder) usable() error {
	if d.c == nil {
		return ErrClosed
	}
	if d.broken != nil {
		return fmt.Errorf("nghttp3: decoder unusable after an earlier error: %w", d.broken)
	}
	return nil
}

// fail records the failure of op with code as the decoder's last.
func (d *Decoder) fail(op string, code C.int) error {
	d.broken = newError(op, code)
	return d.broken
}

// Decode decodes the field section of request stream stream
// (nghttp3_qpack_decoder_read_request, the section being the whole
// HEADERS frame). A section waiting for inserts is kept and returned
// Blocked; ReadEncoder returns it once they arrive.
func (d *Decoder) Decode(stream uint64, section []byte) (Section, error) {
	if err := d.usable(); err != nil {
		return Section{}, err
	}
	if err := checkStream("Decode", stream); err != nil {
		return Section{}, err
	}
	rv := C.hc3dec_decode(d.c, C.int64_t(stream), (*C.uint8_t)(unsafe.SliceData(section)), C.size_t(len(section)))
	switch rv {
	case C.HC3_DECODED:
		s := Section{Stream: stream, Fields: d.fields()}
		runtime.KeepAlive(d)
		return s, nil
	case C.HC3_BLOCKED:
		return Section{Stream: stream, Blocked: true}, nil
	}
	return Section{}, d.fail("Decode", rv)
}

// fields parses the records (see decoder.h) C left in d.c.fields. The
// octets are copied into one Go string that every name and value slices.
func (d *Decoder) fields() []Field {
	data := C.GoStringN((*C.char)(unsafe.Pointer(d.c.fields.p)), C.int(d.c.fields.len))
	var fields []Field
	for len(data) > 0 {
		nameLen := int(binary.NativeEndian.Uint32([]byte(data[0:4])))
		valueLen := int(binary.NativeEndian.Uint32([]byte(data[4:8])))
		flags := data[8]
		data = data[C.HC3_RECORD_HEADER:]
		fields = append(fields, Field{
			Name:      data[:nameLen],
			Value:     data[nameLen : nameLen+valueLen],
			Sensitive: flags&C.NGHTTP3_NV_FLAG_NEVER_INDEX != 0,
		})
		data = data[nameLen+valueLen:]
	}
	return fields
}

// ReadEncoder hands the decoder the next octets of the encoder stream
// (nghttp3_qpack_decoder_read_encoder), cut anywhere, and returns the
// blocked sections they unblocked, decoded, oldest first. An *Error
// whose RFCCode is QPACK_ENCODER_STREAM_ERROR is the decoder refusing
// the stream; QPACK_DECOMPRESSION_FAILED, an unblocked section.
func (d *Decoder) ReadEncoder(data []byte) ([]Section, error) {
	if err := d.usable(); err != nil {
		return nil, err
	}
	if rv := C.hc3dec_read_encoder(d.c, (*C.uint8_t)(unsafe.SliceData(data)), C.size_t(len(data))); rv != 0 {
		return nil, d.fail("ReadEncoder", rv)
	}
	var unblocked []Section
	for {
		var stream C.int64_t
		switch rv := C.hc3dec_resume(d.c, &stream); rv {
		case C.HC3_NONE:
			runtime.KeepAlive(d)
			return unblocked, nil
		case C.HC3_DECODED:
			unblocked = append(unblocked, Section{Stream: uint64(stream), Fields: d.fields()})
		default:
			return nil, d.fail("ReadEncoder", rv)
		}
	}
}

// Cancel says stream was reset (nghttp3_qpack_decoder_cancel_stream): a
// blocked section of it is dropped, and a Stream Cancellation (RFC 9204
// §4.4.2) is owed on the decoder stream.
func (d *Decoder) Cancel(stream uint64) error {
	if err := d.usable(); err != nil {
		return err
	}
	if err := checkStream("Cancel", stream); err != nil {
		return err
	}
	if rv := C.hc3dec_cancel(d.c, C.int64_t(stream)); rv != 0 {
		return d.fail("Cancel", rv)
	}
	return nil
}

// DecoderStream returns the decoder-stream octets owed since the last
// call (nghttp3_qpack_decoder_write_decoder): Section Acknowledgments,
// Stream Cancellations and an Insert Count Increment.
func (d *Decoder) DecoderStream() ([]byte, error) {
	if d.c == nil {
		return nil, ErrClosed
	}
	if rv := C.hc3dec_flush(d.c); rv != 0 {
		return nil, d.fail("DecoderStream", rv)
	}
	var out []byte
	if d.c.decoder.len > 0 {
		out = C.GoBytes(unsafe.Pointer(d.c.decoder.p), C.int(d.c.decoder.len))
	}
	runtime.KeepAlive(d)
	return out, nil
}
