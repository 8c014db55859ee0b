package live

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
)

// maxResponseList bounds the header list of the target's responses that
// a live decoder reads for their status.
const maxResponseList = 1 << 20

// statusTooLarge is the status of a response refusing a request's header
// list as too large (RFC 6585 §5).
const statusTooLarge = "431"

// ErrStatus431 is the reason of a live decoder's refusal of a block the
// target answered with status 431.
var ErrStatus431 error = status431{}

// status431 is ErrStatus431's type: a refusal of the header list as too
// large, not a decoding error (certify.DecodingErrorer).
type status431 struct{}

func (status431) Error() string {
	return "the target answered 431 (Request Header Fields Too Large): it refused the header list as too large (RFC 9113 §6.5.2)"
}

// DecodingError is false: 431 refuses the list's size, not its encoding.
func (status431) DecodingError() bool { return false }

// closedConn reports whether err is the connection ending: closed, reset
// or cut short.
func closedConn(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)
}

// GoAwayError is a target's refusal of a block by GOAWAY, the reason of
// the *certify.Rejection a live Decoder returns.
type GoAwayError struct {
	Code       http2.ErrCode
	LastStream uint32
	// Debug is the GOAWAY's debug data, quoted, with a space before;
	// empty when there was none.
	Debug string
	// Closed is set when the GOAWAY was NO_ERROR and the target then
	// closed the connection without answering.
	Closed bool
	// After, when set, is the target's answer to the block, which the
	// GOAWAY followed ("answered 200").
	After string
}

func (e *GoAwayError) Error() string {
	s := fmt.Sprintf("GOAWAY %v", e.Code)
	if e.Debug != "" {
		s += ":" + e.Debug
	}
	s += fmt.Sprintf(" (last stream %d)", e.LastStream)
	if e.Closed {
		s += ", then the connection closed without an answer"
	}
	if e.After != "" {
		s += ", just after the target " + e.After
	}
	return s
}

// ClosedError is a target's refusal of a block by ending the connection
// without a GOAWAY read.
type ClosedError struct {
	// Reset is set for a TCP reset, and WhileSending when the connection
	// ended before the whole block was written.
	Reset, WhileSending bool
	// After, when set, is the target's answer to the block, which the
	// close followed ("answered 200").
	After string
}

func (e *ClosedError) Error() string {
	s := "the target closed the connection without GOAWAY"
	if e.Reset {
		s = "the target reset the connection (TCP reset) without a GOAWAY read"
	}
	if e.WhileSending {
		s += ", while the block was being sent"
	}
	if e.After != "" {
		s += ", just after it " + e.After
	}
	return s
}

// peerTableSize stands in for an encoder on a live decoder's connection:
// it records the SETTINGS_HEADER_TABLE_SIZE the target advertises, which
// the certifier's blocks are written for. It encodes nothing.
type peerTableSize struct{ size uint32 }

func (p *peerTableSize) SetMaxDynamicTableSize(n uint32) error {
	p.size = n
	return nil
}

func (p *peerTableSize) EncodeBlock(dst []byte, _ []certify.Field) ([]byte, error) {
	return dst, errors.New("live: a decoder's connection encodes no header block of its own")
}

// DecodingError reports whether the GOAWAY was for a decoding error
// (COMPRESSION_ERROR, RFC 9113 §4.3); certify.DecodingErrorer.
func (e *GoAwayError) DecodingError() bool { return e.Code == http2.ErrCodeCompression }

// DecodingError is false: a close without GOAWAY does not say why;
// certify.DecodingErrorer.
func (e *ClosedError) DecodingError() bool { return false }
