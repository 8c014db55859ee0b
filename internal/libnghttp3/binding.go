//go:build nghttp3

package libnghttp3

// #cgo pkg-config: libnghttp3
// #include "codes.h"
// #include "mem.h"
import "C"

import (
	"errors"
	"fmt"
	"math"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// Field is one header field: spec.Field, the module's one header-field
// type. Sensitive stands for NGHTTP3_NV_FLAG_NEVER_INDEX, a field line
// with the N bit (RFC 9204 §4.5.4-§4.5.6).
type Field = spec.Field

// ErrClosed is returned by an Encoder or a Decoder used after Close.
var ErrClosed = errors.New("nghttp3: used after Close")

// maxStreamID is the largest stream id, a 62-bit integer (RFC 9000 §2.1).
const maxStreamID = 1<<62 - 1

// Version returns the version of the libnghttp3 the binary runs with, such
// as "0.8.0".
func Version() string {
	return C.GoString(C.nghttp3_version(0).version_str)
}

// Error is a failure libnghttp3 reported, or one of the limits this
// package enforces for it.
type Error struct {
	Op     string // the method of this package that failed
	Code   int    // the nghttp3 error code
	Reason string // nghttp3_strerror(Code), or the limit broken
}

func (e *Error) Error() string {
	return fmt.Sprintf("nghttp3: %s: %s (nghttp3 error %d)", e.Op, e.Reason, e.Code)
}

// RFCCode returns the name of the connection error the failure stands
// for (RFC 9204 §6; FIELD_SECTION_TOO_LARGE for a header list over
// SETTINGS_MAX_FIELD_SECTION_SIZE), or "" for a failure that is none:
// memory exhausted, or libnghttp3 unusable after an earlier error.
func (e *Error) RFCCode() string {
	if e.Code < math.MinInt32 || e.Code > 0 {
		return ""
	}
	return C.GoString(C.hc3_rfc_code(C.int(e.Code)))
}

func newError(op string, code C.int) *Error {
	return &Error{Op: op, Code: int(code), Reason: C.GoString(C.hc3_reason(code))}
}

// checkStream returns an error naming op when stream is not a stream id.
func checkStream(op string, stream uint64) error {
	if stream > maxStreamID {
		return fmt.Errorf("nghttp3: %s: stream id %d is over 2^62-1", op, stream)
	}
	return nil
}

// liveCBytes returns the C heap held by every Encoder and Decoder of the
// process.
func liveCBytes() int { return int(C.hc3mem_live()) }
