package inprocess

import (
	"fmt"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/decoder"
)

// refMaxStringLength is the string length bound of RefDecoder: 64 KiB,
// libnghttp2's (NGHTTP2_HD_MAX_NV). The decoder's own default, 16 KiB,
// would refuse the 40000-octet string dec/7.3/2 times and the 16511-octet
// lengths of dec/5.1/1, leaving them unjudged (§7.4 allows the limit).
const refMaxStringLength = 64 << 10

// RefDecoder adapts package decoder, hpackcert's reference decoder, to
// certify.Decoder and certify.DecoderTableReader, configured as a server
// runs it: strings bounded by refMaxStringLength, and the header-list
// limit given by SetMaxHeaderListSize checked before a field is expanded.
// Sensitive is set for never-indexed literals. It is not safe for
// concurrent use.
type RefDecoder struct {
	d      *decoder.Decoder
	fields []certify.Field
	err    error // first error, sticky
}

// NewRefDecoder returns a reference decoder with a fresh context: an
// empty table of 4096 octets, an acknowledged setting of 4096 and no
// header-list limit.
func NewRefDecoder() *RefDecoder {
	return &RefDecoder{d: decoder.New(decoder.Config{MaxStringLength: refMaxStringLength})}
}

// SetMaxDynamicTableSize implements certify.Decoder.
func (r *RefDecoder) SetMaxDynamicTableSize(n uint32) error {
	r.d.SetTableSize(n)
	return nil
}

// SetMaxHeaderListSize implements certify.Decoder; 0 removes the limit.
func (r *RefDecoder) SetMaxHeaderListSize(n uint32) error {
	r.d.SetMaxHeaderListSize(n)
	return nil
}

// emit keeps a copy of a field: the decoder's views last only until emit
// returns.
func (r *RefDecoder) emit(name, value []byte, sensitive bool) error {
	r.fields = append(r.fields, certify.Field{Name: string(name), Value: string(value), Sensitive: sensitive})
	return nil
}

// DecodeBlock implements certify.Decoder: every error of the decoder (an
// *decoder.Error naming the offset and the rule, or the first one again
// after it) is a rejection.
func (r *RefDecoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	if r.err != nil {
		// Wrapping keeps the first error's kind: a rejection stays one.
		return nil, fmt.Errorf("inprocess: ref decoding context broken by an earlier error: %w", r.err)
	}
	r.fields = nil
	fields, err := guard("ref", func() ([]certify.Field, error) {
		if err := r.d.Decode(block, r.emit); err != nil {
			return nil, certify.Reject(decoder.Keep(err))
		}
		return r.fields, nil
	})
	r.fields = nil
	if err != nil {
		r.err = err
		return nil, err
	}
	return fields, nil
}

// DecoderTable implements certify.DecoderTableReader.
func (r *RefDecoder) DecoderTable() ([]certify.Field, error) {
	return guard("ref", func() ([]certify.Field, error) {
		table := make([]certify.Field, r.d.TableLen())
		for i := range table {
			name, value := r.d.TableEntry(i)
			table[i] = certify.Field{Name: string(name), Value: string(value)}
		}
		return table, nil
	})
}
