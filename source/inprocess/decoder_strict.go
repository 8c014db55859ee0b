package inprocess

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// StrictDecoder adapts oracle/strict, hpackcert's RFC-literal decoder, to
// certify.Decoder and certify.DecoderTableReader. It reports never-indexed
// literals as Sensitive and rejects everything RFC 7541 forbids.
type StrictDecoder struct {
	d *strict.Decoder
}

// NewStrictDecoder returns a strict decoder with a fresh context: an
// empty table of 4096 octets and no header-list limit.
func NewStrictDecoder() *StrictDecoder {
	d := strict.New()
	d.SetMaxHeaderListSize(0)
	return &StrictDecoder{d: d}
}

// SetMaxDynamicTableSize implements certify.Decoder.
func (s *StrictDecoder) SetMaxDynamicTableSize(n uint32) error {
	s.d.SetMaxDynamicTableSize(n)
	return nil
}

// SetMaxHeaderListSize implements certify.Decoder; 0 removes the limit.
func (s *StrictDecoder) SetMaxHeaderListSize(n uint32) error {
	s.d.SetMaxHeaderListSize(listLimit(n))
	return nil
}

// DecodeBlock implements certify.Decoder: every error of the strict
// decoder (an *strict.Error, or strict.ErrBroken after one) is a
// rejection.
func (s *StrictDecoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	return guard("strict", func() ([]certify.Field, error) {
		fields, err := s.d.DecodeBlock(block)
		return fields, certify.Reject(err)
	})
}

// DecoderTable implements certify.DecoderTableReader.
func (s *StrictDecoder) DecoderTable() ([]certify.Field, error) {
	return guard("strict", func() ([]certify.Field, error) { return s.d.Table(), nil })
}
