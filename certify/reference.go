package certify

import (
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle"
)

// Reference adapts the reference encoder (package encoder) to Encoder.
type Reference struct {
	enc *encoder.Encoder
}

// NewReference returns a reference encoder with the given configuration.
func NewReference(cfg encoder.Config) *Reference {
	return &Reference{enc: encoder.New(cfg)}
}

// SetMaxDynamicTableSize implements Encoder.
func (r *Reference) SetMaxDynamicTableSize(n uint32) error {
	r.enc.SetMaxDynamicTableSize(n)
	return nil
}

// EncodeBlock implements Encoder. The block starts with any pending size
// updates, so that a block without fields still carries them (RFC 7541
// §4.2).
func (r *Reference) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	dst = r.enc.AppendSizeUpdates(dst)
	for _, f := range fields {
		dst = r.enc.AppendFieldString(dst, f.Name, f.Value, f.Sensitive)
	}
	return dst, nil
}

// Table implements TableReader.
func (r *Reference) Table() []oracle.Field {
	out := make([]oracle.Field, r.enc.TableLen())
	for i := range out {
		name, value := r.enc.TableEntry(i)
		out[i] = oracle.Field{Name: string(name), Value: string(value)}
	}
	return out
}

// Reset starts a new context, as the determinism case checks.
func (r *Reference) Reset() { r.enc.Reset() }
