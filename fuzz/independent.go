//go:build !gofuzz

package fuzz

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/oracle"
)

// independentName is how the differential target names the broken
// decoder without bugs in its failures.
// bugSet is the set of planted bugs of the second decoder.
type bugSet = broken.DecoderBugs

const independentName = "broken decoder (no bugs)"

// An independentDecoder is the differential target's second decoder of
// our own: internal/broken's decoder, written apart from oracle/strict,
// which without bugs must accept and refuse exactly what strict does,
// with the same fields (never-indexed marks included) and the same table.
// No leniency excuses a difference between the two, so a block that
// splits them is a bug in one of them. It implements oracle.Decoder.
type independentDecoder struct {
	d *broken.Decoder
	// err is a setting the decoder refused, reported by the next block:
	// oracle.Decoder's SetMaxDynamicTableSize returns nothing.
	err error
	// table is the dynamic table after the last block decoded.
	table []oracle.Field
}

// newIndependent returns a fresh context of the broken decoder with bugs
// (0 for the decoder the target compares with strict).
func newIndependent(bugs broken.DecoderBugs) *independentDecoder {
	return &independentDecoder{d: broken.NewDecoder(bugs)}
}

func (d *independentDecoder) Name() string { return independentName }

func (d *independentDecoder) SetMaxDynamicTableSize(n uint32) {
	if err := d.d.SetMaxDynamicTableSize(n); err != nil && d.err == nil {
		d.err = err
	}
}

// DecodeBlock decodes block and reads the table it leaves; a table the
// decoder cannot list fails the block, so that the comparison with strict
// reports it.
func (d *independentDecoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	if d.err != nil {
		return nil, d.err
	}
	fields, err := d.d.DecodeBlock(block)
	if err != nil {
		return nil, err
	}
	if d.table, err = d.d.DecoderTable(); err != nil {
		return nil, fmt.Errorf("listing the dynamic table: %w", err)
	}
	return fields, nil
}

// Table returns the dynamic table after the last block, newest entry
// first.
func (d *independentDecoder) Table() []oracle.Field { return d.table }
