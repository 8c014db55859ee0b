package inprocess

import (
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/certify"
)

// XNetDecoder adapts golang.org/x/net/http2/hpack's Decoder to
// certify.Decoder, driven as net/http2's Framer drives it:
//
//   - the acknowledged SETTINGS_HEADER_TABLE_SIZE goes to
//     SetAllowedMaxDynamicTableSize, the bound of size updates;
//   - the header-list limit is counted as the Framer counts it, name +
//     value + 32 per emitted field; the field that goes over it turns
//     emission off (SetEmitEnabled(false)), the block is decoded to its
//     end to keep the table in step, and then refused; strings longer than
//     the limit are refused by the library (SetMaxStringLength);
//   - Sensitive comes from HeaderField.Sensitive, which the library sets
//     for never-indexed literals.
//
// The library does not show its dynamic table, so XNetDecoder is no
// certify.DecoderTableReader. It is not safe for concurrent use.
type XNetDecoder struct {
	dec    *hpack.Decoder
	limit  uint32 // header-list limit; 0: none
	fields []certify.Field
	size   uint64 // header list size of the block so far
	over   bool   // the block went over limit
	err    error  // first error, sticky
}

// NewXNetDecoder returns an x/net decoder with a fresh context: an empty
// table of 4096 octets, an acknowledged setting of 4096 and no
// header-list limit.
func NewXNetDecoder() *XNetDecoder {
	x := &XNetDecoder{}
	x.dec = hpack.NewDecoder(4096, x.emit)
	x.dec.SetMaxStringLength(0)
	return x
}

// SetMaxDynamicTableSize implements certify.Decoder.
func (x *XNetDecoder) SetMaxDynamicTableSize(n uint32) error {
	x.dec.SetAllowedMaxDynamicTableSize(n)
	return nil
}

// SetMaxHeaderListSize implements certify.Decoder; 0 removes the limit.
func (x *XNetDecoder) SetMaxHeaderListSize(n uint32) error {
	x.limit = n
	// As the Framer does: no string may be longer than the whole list.
	x.dec.SetMaxStringLength(listLimit(n))
	return nil
}

// emit is the library's emit function: it keeps fields up to the
// header-list limit and turns emission off past it.
func (x *XNetDecoder) emit(f hpack.HeaderField) {
	x.size += uint64(f.Size())
	if x.limit != 0 && x.size > uint64(x.limit) {
		x.dec.SetEmitEnabled(false)
		x.over, x.fields = true, nil
		return
	}
	x.fields = append(x.fields, certify.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
}

// DecodeBlock implements certify.Decoder.
func (x *XNetDecoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	if x.err != nil {
		// Wrapping keeps the first error's kind: a rejection stays one.
		return nil, fmt.Errorf("inprocess: x/net decoding context broken by an earlier error: %w", x.err)
	}
	x.fields, x.size, x.over = nil, 0, false
	x.dec.SetEmitEnabled(true)
	fields, err := guard("x/net", func() ([]certify.Field, error) {
		if _, err := x.dec.Write(block); err != nil {
			return nil, certify.Reject(err)
		}
		if err := x.dec.Close(); err != nil {
			return nil, certify.Reject(err)
		}
		if x.over {
			return nil, certify.Reject(fmt.Errorf("hpack: decoded header list exceeds %d octets (name + value + 32 per field), the SETTINGS_MAX_HEADER_LIST_SIZE advertised", x.limit))
		}
		return x.fields, nil
	})
	x.fields = nil
	if err != nil {
		x.err = err
		return nil, err
	}
	return fields, nil
}
