package hpack

import (
	"math/bits"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// initialStringBound is the string length the Decoder first gives package
// decoder room for; it grows to the longest string met.
const initialStringBound = 1024

// maxTableSize is the largest table size package decoder honours.
const maxTableSize = 1 << 30

// A Decoder decodes the header blocks of one HTTP/2 connection, as x/net's
// hpack.Decoder does, over package decoder. It is not safe for concurrent
// use.
type Decoder struct {
	dec    *decoder.Decoder
	fieldF func(name, value []byte, sensitive bool) error // d.field, bound once
	table  stringTable

	emit        func(HeaderField)
	emitEnabled bool
	maxStrLen   int // SetMaxStringLength's value; 0 for no limit
	// collecting is set by DecodeFull, whose fields go to collected
	// instead of emit.
	collecting bool
	collected  []HeaderField

	// allowed is the bound of size updates; minAllowed the smallest
	// since the block began, which its first update must not exceed.
	allowed, minAllowed uint32
	// inBlock is set from a block's first Write to its Close.
	inBlock bool
	// grown is the string length package decoder has room for; bound
	// what it was last told, grown or maxStrLen if lower.
	grown, bound int

	// saved holds the octets of a field cut by the end of a Write.
	saved []byte
	// fields are the chunk's fields, the first done of them decoded;
	// text holds the octets of those not given strings of their own.
	fields []pendingField
	done   int
	text   []byte
}

// NewDecoder returns a Decoder whose dynamic table's maximum size, and the
// bound of size updates, are maxDynamicTableSize (values above 1 GiB mean
// 1 GiB), calling emitFunc for each field decoded, as x/net's NewDecoder.
// A nil emitFunc discards the fields.
func NewDecoder(maxDynamicTableSize uint32, emitFunc func(f HeaderField)) *Decoder {
	size := min(maxDynamicTableSize, maxTableSize)
	d := &Decoder{
		emit:        emitFunc,
		emitEnabled: true,
		allowed:     size,
		minAllowed:  size,
		grown:       initialStringBound,
		bound:       initialStringBound,
	}
	// Package decoder reads a TableSize of 0 as the default 4096: a table
	// of size 0 is had by a setting of 0 and the size update it requires.
	d.dec = decoder.New(decoder.Config{TableSize: max(size, 1), MaxStringLength: initialStringBound})
	d.fieldF = d.field
	if size == 0 {
		d.dec.SetTableSize(0)
		d.SetMaxDynamicTableSize(0)
	}
	return d
}

// SetEmitFunc changes the function called for each field decoded; it does
// not change EmitEnabled.
func (d *Decoder) SetEmitFunc(emitFunc func(f HeaderField)) { d.emit = emitFunc }

// SetEmitEnabled sets whether fields are emitted (true at first). The
// emit function may turn it off to stop the fields after the current one
// from being emitted, as net/http2 does when a header list is over its
// limit: the block is still decoded, to keep the table in step.
func (d *Decoder) SetEmitEnabled(v bool) { d.emitEnabled = v }

// EmitEnabled reports whether fields are emitted.
func (d *Decoder) EmitEnabled() bool { return d.emitEnabled }

// SetMaxStringLength sets the longest name or value, in octets as sent
// and as decoded, that Write accepts; a longer one is ErrStringLength.
// 0 (the default), or a negative n, means no limit.
func (d *Decoder) SetMaxStringLength(n int) { d.maxStrLen = max(n, 0) }

// SetAllowedMaxDynamicTableSize sets the largest size a size update may
// set (RFC 7541 §4.2): call it with SETTINGS_HEADER_TABLE_SIZE once the
// peer has acknowledged it. A value below the table's maximum size
// requires the next block to begin with a size update to at most the
// smallest value set since the last block (RFC 9113 §4.3.1), which x/net
// does not require. The table's memory is allocated for the largest
// value set (up to 1 GiB).
func (d *Decoder) SetAllowedMaxDynamicTableSize(v uint32) {
	v = min(v, maxTableSize)
	d.allowed = v
	d.minAllowed = min(d.minAllowed, v)
	d.dec.SetTableSize(v)
}

// SetMaxDynamicTableSize sets the dynamic table's maximum size as a size
// update at the start of a block would, evicting entries if it shrinks:
// call it between blocks. Unlike x/net's, it is capped by the allowed
// maximum size; when that was lowered since the last block, the table is
// first shrunk to the lowest value, as the update the peer owes would.
func (d *Decoder) SetMaxDynamicTableSize(v uint32) {
	v = min(v, d.allowed)
	lowest := min(v, d.minAllowed)
	var buf [12]byte
	block := encoder.AppendInteger(buf[:0], 0x20, 5, uint64(lowest))
	if lowest != v {
		block = encoder.AppendInteger(block, 0x20, 5, uint64(v))
	}
	// The block is valid: updates before any field, the first within
	// the lowest setting since the last block, both within the allowed
	// size. So Decode returns no error.
	_ = d.dec.Decode(block, nil)
	d.minAllowed = d.allowed
	d.table.keep(d.dec.TableLen())
}

// Write decodes the octets of p, the next piece of a header block (a
// HEADERS or CONTINUATION frame's fragment), and emits its fields, before
// it returns, as x/net's Write: a field cut by p's end is kept and decoded
// with the next Write; Close ends the block. It returns len(p) and the
// first error in the block.
func (d *Decoder) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	input := p
	if len(d.saved) > 0 {
		d.saved = append(d.saved, p...)
		input = d.saved
	}
	if !d.inBlock {
		d.inBlock = true
		d.dec.BeginBlock()
		d.minAllowed = d.allowed
	}
	// base is the offset of input in the octets this Write decodes, for
	// errors.
	for base := 0; ; {
		sc := d.scan(input)
		if sc.end > 0 {
			d.setBound(sc.longest)
			n, err := d.dec.DecodeFragment(input[:sc.end], false, d.fieldF)
			if err == nil && n != sc.end {
				err = DecodingError{errOutOfStep}
			}
			if err != nil {
				err = decodingError(err, input, base)
				d.saved = d.saved[:0]
				d.flush()
				return len(p), err
			}
			d.flush()
			d.table.keep(d.dec.TableLen())
		}
		input, base = input[sc.end:], base+sc.end
		if sc.cut {
			return d.save(len(p), input, sc.cutLength)
		}
		if len(input) == 0 {
			d.saved = d.saved[:0]
			return len(p), nil
		}
	}
}

// save keeps rest, a field cut by the end of a Write of n octets whose
// strings are declared up to cutLength octets long, for the next Write.
// As x/net's Write, it first checks what of the field is there: a literal
// naming an index past the table is an InvalidIndexError, a declared
// string over the maximum string length ErrStringLength. (x/net also
// refuses a field kept over twice that length; with integers of at most 5
// continuation octets, no such field gets here.)
func (d *Decoder) save(n int, rest []byte, cutLength uint64) (int, error) {
	if idx := literalIndex(rest); idx > spec.StaticTableLen+uint32(d.dec.TableLen()) {
		d.saved = d.saved[:0]
		return n, DecodingError{InvalidIndexError(idx)}
	}
	if d.maxStrLen > 0 && cutLength > uint64(d.maxStrLen) {
		d.saved = d.saved[:0]
		return n, ErrStringLength
	}
	// rest may be the end of saved: append moves it to the front.
	d.saved = append(d.saved[:0], rest...)
	return n, nil
}

// Close ends the header block, as x/net's Close: it returns a
// DecodingError if the block ends inside a field, or lacks the size
// update a lowered allowed size requires.
func (d *Decoder) Close() error {
	if len(d.saved) > 0 {
		d.saved = d.saved[:0]
		return DecodingError{errTruncated}
	}
	if !d.inBlock {
		return nil
	}
	d.inBlock = false
	if _, err := d.dec.DecodeFragment(nil, true, d.fieldF); err != nil {
		return decodingError(err, nil, 0)
	}
	return nil
}

// DecodeFull decodes p, a whole header block, and returns its fields (nil
// when none are emitted), as x/net's DecodeFull: the emit function is not
// called, EmitEnabled is obeyed.
func (d *Decoder) DecodeFull(p []byte) ([]HeaderField, error) {
	d.collecting = true
	_, err := d.Write(p)
	if err == nil {
		err = d.Close()
	}
	fields := d.collected
	d.collecting, d.collected = false, nil
	if err != nil {
		return nil, err
	}
	return fields, nil
}

// setBound gives package decoder a string length bound for a chunk whose
// longest string is longest octets on the wire: the maximum string length
// if there is one and it is lower, else room for that string decoded
// (Huffman decodes at most 8 octets from 5), rounded up to a power of two
// so that memory grows a few times at most.
func (d *Decoder) setBound(longest uint64) {
	if need := longest + longest*3/5 + 1; need > uint64(d.grown) {
		d.grown = 1 << bits.Len64(need-1)
	}
	bound := d.grown
	if d.maxStrLen > 0 && d.maxStrLen < bound {
		bound = d.maxStrLen
	}
	if bound != d.bound {
		d.bound = bound
		d.dec.SetMaxStringLength(bound)
	}
}
