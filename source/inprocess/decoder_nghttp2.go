//go:build nghttp2

package inprocess

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/libnghttp2"
)

func init() {
	builtinDecoders["nghttp2"] = builtinDecoder{"nghttp2", func() certify.Decoder { return NewNghttp2Decoder() }}
}

// Nghttp2Decoder adapts libnghttp2's HPACK inflater (nghttp2_hd_inflater,
// through internal/libnghttp2, as the oracle) to certify.Decoder and
// certify.DecoderTableReader. Sensitive comes from NGHTTP2_NV_FLAG_NO_INDEX;
// the header-list limit stops the inflate loop at the first field past
// it, so a bomb is refused without being expanded. It exists only in
// binaries built with -tags nghttp2; its C memory is freed when it is
// garbage collected.
type Nghttp2Decoder struct {
	d *libnghttp2.Inflater
}

// NewNghttp2Decoder returns an nghttp2 inflater with a fresh context: an
// empty table of 4096 octets and no header-list limit.
func NewNghttp2Decoder() *Nghttp2Decoder {
	d := libnghttp2.NewInflater()
	d.SetMaxHeaderListSize(0)
	return &Nghttp2Decoder{d: d}
}

// SetMaxDynamicTableSize implements certify.Decoder
// (nghttp2_hd_inflate_change_table_size). A failure of the library makes
// the next block fail.
func (n *Nghttp2Decoder) SetMaxDynamicTableSize(size uint32) error {
	_, err := guard("nghttp2", func() (struct{}, error) {
		n.d.SetMaxDynamicTableSize(size)
		return struct{}{}, nil
	})
	return err
}

// SetMaxHeaderListSize implements certify.Decoder; 0 removes the limit.
func (n *Nghttp2Decoder) SetMaxHeaderListSize(size uint32) error {
	n.d.SetMaxHeaderListSize(listLimit(size))
	return nil
}

// DecodeBlock implements certify.Decoder: every error of the inflater
// (an *libnghttp2.InflateError, and the errors after one) is a rejection.
func (n *Nghttp2Decoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	return guard("nghttp2", func() ([]certify.Field, error) {
		fields, err := n.d.DecodeBlock(block)
		return fields, certify.Reject(err)
	})
}

// DecoderTable implements certify.DecoderTableReader.
func (n *Nghttp2Decoder) DecoderTable() ([]certify.Field, error) {
	return guard("nghttp2", func() ([]certify.Field, error) { return n.d.Table(), nil })
}
