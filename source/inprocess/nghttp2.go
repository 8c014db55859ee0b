//go:build nghttp2

package inprocess

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/libnghttp2"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

func init() {
	builtins["nghttp2"] = func() certify.Encoder { return NewNghttp2() }
	builtinNames["nghttp2"] = "nghttp2"
}

// Nghttp2 adapts libnghttp2's HPACK deflater (nghttp2_hd_deflater, through
// internal/libnghttp2) to certify.Encoder. It exists only in binaries built
// with -tags nghttp2.
type Nghttp2 struct {
	d *libnghttp2.Deflater
}

// NewNghttp2 returns an nghttp2 deflater whose table may grow to 4096
// octets, the size an HTTP/2 connection starts with.
func NewNghttp2() *Nghttp2 {
	return &Nghttp2{d: libnghttp2.NewDeflater(spec.DefaultTableSize)}
}

// SetMaxDynamicTableSize implements Encoder.
func (n *Nghttp2) SetMaxDynamicTableSize(size uint32) error {
	return n.d.ChangeTableSize(size)
}

// EncodeBlock implements Encoder.
func (n *Nghttp2) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	return n.d.EncodeBlock(dst, fields)
}

// Table implements TableReader.
func (n *Nghttp2) Table() []oracle.Field {
	return n.d.Table()
}

// Close frees the deflater's C memory.
func (n *Nghttp2) Close() error { return n.d.Close() }
