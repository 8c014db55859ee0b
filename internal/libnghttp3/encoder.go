//go:build nghttp3

package libnghttp3

// #include "encoder.h"
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// MaxTableCapacity is the most dynamic table an Encoder uses, whatever the
// decoder allows: the hard maximum given to nghttp3_qpack_encoder_new,
// libnghttp3's own default for an HTTP/3 connection.
const MaxTableCapacity = 4096

// Encoder is one libnghttp3 QPACK encoder (nghttp3_qpack_encoder), the
// encoder of one HTTP/3 connection. It is not safe for concurrent use.
type Encoder struct {
	c       *C.hc3enc
	cleanup runtime.Cleanup
	in      fieldArrays // the section being encoded, reused
	// broken is the first failure, after which libnghttp3 refuses to
	// encode (NGHTTP3_ERR_QPACK_FATAL).
	broken error
}

// NewEncoder returns the encoder of a connection whose decoder sent
// SETTINGS_QPACK_MAX_TABLE_CAPACITY peerCapacity and
// SETTINGS_QPACK_BLOCKED_STREAMS blockedStreams: its table may grow to
// min(MaxTableCapacity, peerCapacity), and libnghttp3 sets that capacity
// on the encoder stream with the first section that inserts.
//
// libnghttp3 (0.8.0 and later) computes the MaxEntries of the Required
// Insert Count's encoding (RFC 9204 §4.5.1.1) from its hard maximum,
// MaxTableCapacity, not from the decoder's peerCapacity: with a decoder
// whose setting is not 4096, a section whose Required Insert Count
// reaches 2*MaxEntries is encoded modulo the wrong range and the decoder
// cannot recover it. nghttp3_conn creates its encoder the same way (its
// local qpack_encoder_max_dtable_capacity as the hard maximum), so this
// binding keeps the library's behaviour for the certifier to grade.
func NewEncoder(peerCapacity, blockedStreams uint64) (*Encoder, error) {
	c := C.hc3enc_new(MaxTableCapacity, C.uint64_t(peerCapacity), C.uint64_t(blockedStreams))
	if c == nil {
		return nil, &Error{Op: "NewEncoder", Code: C.NGHTTP3_ERR_NOMEM, Reason: "out of memory"}
	}
	e := &Encoder{c: c}
	e.cleanup = runtime.AddCleanup(e, func(c *C.hc3enc) { C.hc3enc_del(c) }, c)
	return e, nil
}

// Close frees the encoder's C memory. It is safe to call more than once
// and always returns nil.
func (e *Encoder) Close() error {
	if e.c == nil {
		return nil
	}
	e.cleanup.Stop()
	C.hc3enc_del(e.c)
	e.c = nil
	return nil
}

// Encode encodes fields as the field section of request stream stream
// (nghttp3_qpack_encoder_encode) and returns the section — its prefix
// and field lines — and the encoder-stream instructions written for it,
// both owned by the caller.
func (e *Encoder) Encode(stream uint64, fields []Field) (section, encoderStream []byte, err error) {
	if e.c == nil {
		return nil, nil, ErrClosed
	}
	if e.broken != nil {
		return nil, nil, fmt.Errorf("nghttp3: encoder unusable after an earlier error: %w", e.broken)
	}
	if err := checkStream("Encode", stream); err != nil {
		return nil, nil, err
	}
	e.in.reset()
	e.in.append(fields)
	// The arrays are Go memory without pointers, read by C only during
	// the call, as the cgo pointer rules allow.
	rv := C.hc3enc_encode(e.c, C.int64_t(stream), e.in.dataPtr(), e.in.lensPtr(), e.in.flagsPtr(), C.size_t(len(fields)))
	if rv != 0 {
		e.broken = newError("Encode", rv)
		return nil, nil, e.broken
	}
	section = append(bufBytes(&e.c.prefix), bufBytes(&e.c.lines)...)
	encoderStream = bufBytes(&e.c.stream)
	runtime.KeepAlive(e)
	return section, encoderStream, nil
}

// fieldArrays holds fields as the C half reads them: names and values one
// after the other, two lengths and a flags octet per field.
type fieldArrays struct {
	data  []byte
	lens  []C.size_t
	flags []uint8
}

func (a *fieldArrays) reset() { a.data, a.lens, a.flags = a.data[:0], a.lens[:0], a.flags[:0] }

func (a *fieldArrays) append(fields []Field) {
	for _, f := range fields {
		a.data = append(append(a.data, f.Name...), f.Value...)
		a.lens = append(a.lens, C.size_t(len(f.Name)), C.size_t(len(f.Value)))
		var flags uint8
		if f.Sensitive {
			flags = C.NGHTTP3_NV_FLAG_NEVER_INDEX
		}
		a.flags = append(a.flags, flags)
	}
}

func (a *fieldArrays) dataPtr() *C.uint8_t  { return (*C.uint8_t)(unsafe.SliceData(a.data)) }
func (a *fieldArrays) lensPtr() *C.size_t   { return unsafe.SliceData(a.lens) }
func (a *fieldArrays) flagsPtr() *C.uint8_t { return (*C.uint8_t)(unsafe.SliceData(a.flags)) }

// bufBytes returns a Go copy of the octets of b, nil when there are none.
func bufBytes(b *C.nghttp3_buf) []byte {
	n := C.nghttp3_buf_len(b)
	if n == 0 {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(b.pos), C.int(n))
}

// ReadDecoder hands the encoder the next octets of the decoder stream
// (nghttp3_qpack_encoder_read_decoder): Section Acknowledgments, Stream
// Cancellations and Insert Count Increments (RFC 9204 §4.4), cut
// anywhere. libnghttp3 writes nothing on the encoder stream in answer. An
// *Error whose RFCCode is QPACK_DECODER_STREAM_ERROR is the encoder
// refusing the octets; the encoder is then unusable.
func (e *Encoder) ReadDecoder(data []byte) error {
	if e.c == nil {
		return ErrClosed
	}
	if e.broken != nil {
		return fmt.Errorf("nghttp3: encoder unusable after an earlier error: %w", e.broken)
	}
	n := C.nghttp3_qpack_encoder_read_decoder(e.c.enc, (*C.uint8_t)(unsafe.SliceData(data)), C.size_t(len(data)))
	runtime.KeepAlive(e)
	if n < 0 {
		e.broken = newError("ReadDecoder", C.int(n))
		return e.broken
	}
	if int(n) != len(data) {
		e.broken = fmt.Errorf("nghttp3: ReadDecoder: libnghttp3 read %d of %d octets", n, len(data))
		return e.broken
	}
	return nil
}
