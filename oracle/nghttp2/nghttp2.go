//go:build nghttp2

package nghttp2

import (
	"github.com/hpackcert/hpackcert/internal/libnghttp2"
	"github.com/hpackcert/hpackcert/oracle"
)

func init() {
	oracle.Register("nghttp2", func() oracle.Decoder { return New() })
}

// DefaultMaxHeaderListSize is the header list size a new Decoder accepts in
// one block, counted as RFC 9113 §6.5.2 counts it: name length plus value
// length plus 32 for each field.
const DefaultMaxHeaderListSize = libnghttp2.DefaultMaxHeaderListSize

// ErrClosed is returned by DecodeBlock on a Decoder after Close.
var ErrClosed = libnghttp2.ErrClosed

// Error is a header block that libnghttp2 refused, or that outgrew the
// header list limit: where nghttp2 stopped, after how many fields, and
// nghttp2's error code and reason.
type Error = libnghttp2.InflateError

// Decoder is one libnghttp2 HPACK inflater (nghttp2_hd_inflater), bound in
// internal/libnghttp2. Its C memory is released by Close, or by the
// garbage collector when a Decoder is dropped without Close. A Decoder is
// not safe for concurrent use.
type Decoder = libnghttp2.Inflater

// New returns a Decoder with a fresh inflater: an empty dynamic table of
// at most 4096 bytes (the initial SETTINGS_HEADER_TABLE_SIZE) and a header
// list limit of DefaultMaxHeaderListSize. It panics only when C memory is
// exhausted.
func New() *Decoder { return libnghttp2.NewInflater() }

// Version returns the version of the libnghttp2 the binary runs with, such
// as "1.52.0".
func Version() string { return libnghttp2.Version() }
