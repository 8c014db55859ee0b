package property

import (
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// pair is an encoder and the strict decoder on the other end of its
// connection, kept in step: every block one encodes the other decodes.
type pair struct {
	cfg encoder.Config
	enc *encoder.Encoder
	dec *strict.Decoder
	buf []byte
}

func newPair(cfg encoder.Config) *pair {
	p := &pair{cfg: cfg, enc: encoder.New(cfg)}
	p.reset()
	return p
}

// reset starts a new connection on both ends.
func (p *pair) reset() {
	p.enc.Reset()
	p.dec = strict.New()
	p.dec.SetMaxHeaderListSize(0)
}

// setSize acks a SETTINGS_HEADER_TABLE_SIZE on both ends.
func (p *pair) setSize(n uint32) {
	p.enc.SetMaxDynamicTableSize(n)
	p.dec.SetMaxDynamicTableSize(n)
}

// block encodes fields as one block, checks the table's self-consistency
// (tableConsistent), the block's form (checkForm) and that
// the strict decoder gets the same names and values back, and returns the
// wire and its representations. The wire aliases p's buffer.
func (p *pair) block(fields ...genField) ([]byte, []rep, error) {
	p.buf = p.buf[:0]
	for _, f := range fields {
		p.buf = p.enc.AppendFieldString(p.buf, f.Name, f.Value, f.Sensitive)
	}
	// A table inconsistent with itself can send the next call into an
	// endless eviction loop; catch it first. Big tables (the integer
	// properties fill 16,000 entries) are not summed on every block.
	if p.enc.TableLen() <= 256 {
		if err := tableConsistent(p.enc, p.cfg); err != nil {
			return p.buf, nil, fmt.Errorf("after block %s: %v", hexShort(p.buf), err)
		}
	}
	reps, err := walkBlock(p.buf)
	if err != nil {
		return p.buf, nil, fmt.Errorf("block %s: %v", hexShort(p.buf), err)
	}
	plain := make([][2]string, len(fields))
	for i, f := range fields {
		plain[i] = [2]string{f.Name, f.Value}
	}
	if err := checkForm(reps, plain, p.cfg.Policy.Huffman); err != nil {
		return p.buf, reps, fmt.Errorf("block %s: %v", hexShort(p.buf), err)
	}
	got, err := p.dec.DecodeBlock(p.buf)
	if err != nil {
		return p.buf, reps, fmt.Errorf("block %s: strict decoder: %v", hexShort(p.buf), err)
	}
	if len(got) != len(fields) {
		return p.buf, reps, fmt.Errorf("block %s decodes to %d fields; want %d", hexShort(p.buf), len(got), len(fields))
	}
	for i, f := range fields {
		if got[i].Name != f.Name || got[i].Value != f.Value {
			return p.buf, reps, fmt.Errorf("block %s: field %d decodes to %s: %s; want %s: %s", hexShort(p.buf), i, short(got[i].Name), short(got[i].Value), short(f.Name), short(f.Value))
		}
	}
	return p.buf, reps, nil
}
