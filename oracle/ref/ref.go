// Package ref is the oracle backed by package decoder, hpackcert's
// reference decoder: zero-allocation and as strict as oracle/strict, with
// which it shares no code. It registers itself with package oracle as
// "ref", so that the certifier's panel and the fuzz differential decode
// every block with it too.
//
// Limits. The header list is bounded as the strict oracle bounds it
// (DefaultMaxHeaderListSize, SetMaxHeaderListSize), before a field is
// expanded. The decoder's string length bound is raised before each
// block to the longest string the block can hold (8/5 of its length, a
// Huffman code taking 5 bits at least), so no string is refused that the
// strict oracle decodes: the header-list limit is the bound that matters.
//
// Settings. Each SETTINGS_HEADER_TABLE_SIZE acknowledged is given to the
// decoder as it comes (decoder.SetTableSize applies it from the next
// block): a setting of 2^32-1 costs nothing, the decoder's table growing
// with the entries a session inserts (TestHugeSettingMemory).
//
// As in HTTP/2, where any decoding error is a connection error
// (COMPRESSION_ERROR), a decoder that has returned an error returns
// ErrBroken from every later DecodeBlock.
package ref

import (
	"errors"
	"fmt"
	"math"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// Name is the name the decoder registers under and returns from Name.
const Name = "ref"

// DefaultMaxHeaderListSize is the header-list limit of a new Decoder, in
// octets counted as name + value + 32 per field, as the strict oracle's.
const DefaultMaxHeaderListSize = 64 << 10

// ErrBroken is returned by DecodeBlock after an earlier block failed to
// decode: the compression context is no longer defined.
var ErrBroken = errors.New("hpack: decoding context broken by an earlier error")

func init() {
	oracle.Register(Name, func() oracle.Decoder { return New() })
}

// Decoder is one decoding context of the reference decoder.
type Decoder struct {
	d *decoder.Decoder
	// maxString is d's string length bound.
	maxString int
	fields    []oracle.Field
	err       error // first decoding error, sticky
}

// New returns a decoder with a fresh context: a dynamic table of maximum
// size 4096, an acknowledged SETTINGS_HEADER_TABLE_SIZE of 4096 and a
// header-list limit of DefaultMaxHeaderListSize.
func New() *Decoder {
	return &Decoder{
		d: decoder.New(decoder.Config{
			TableSize:         spec.DefaultTableSize,
			MaxStringLength:   decoder.DefaultMaxStringLength,
			MaxHeaderListSize: DefaultMaxHeaderListSize,
		}),
		maxString: decoder.DefaultMaxStringLength,
	}
}

// Name returns "ref".
func (d *Decoder) Name() string { return Name }

// SetMaxDynamicTableSize records n as a SETTINGS_HEADER_TABLE_SIZE value
// this side acknowledged; it takes effect for the next block.
func (d *Decoder) SetMaxDynamicTableSize(n uint32) {
	d.d.SetTableSize(n)
}

// SetMaxHeaderListSize sets the largest header list a block may decode to,
// counting name + value + 32 octets per field. n <= 0 removes the limit;
// a limit above 2^32-1 is 2^32-1.
func (d *Decoder) SetMaxHeaderListSize(n int) {
	d.d.SetMaxHeaderListSize(uint32(min(max(n, 0), math.MaxUint32)))
}

// DecodeBlock decodes one complete header block. Sensitive is set for the
// "Literal Header Field Never Indexed" representation (RFC 7541 §6.2.3).
func (d *Decoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	if d.err != nil {
		return nil, fmt.Errorf("%w (first error: %v)", ErrBroken, d.err)
	}
	d.prepare(block)
	d.fields = nil
	if err := d.d.Decode(block, d.emit); err != nil {
		err = decoder.Keep(err)
		d.err = err
		return nil, err
	}
	fields := d.fields
	d.fields = nil
	return fields, nil
}

// emit keeps a copy of a field: the decoder's views last only until emit
// returns.
func (d *Decoder) emit(name, value []byte, sensitive bool) error {
	d.fields = append(d.fields, oracle.Field{Name: string(name), Value: string(value), Sensitive: sensitive})
	return nil
}

// prepare readies d.d for block: a string bound the block cannot exceed.
func (d *Decoder) prepare(block []byte) {
	if n := len(block)*8/5 + 1; n > d.maxString {
		d.d.SetMaxStringLength(n)
		d.maxString = n
	}
}

// Table returns the dynamic table, newest entry first.
func (d *Decoder) Table() []oracle.Field {
	table := make([]oracle.Field, d.d.TableLen())
	for i := range table {
		name, value := d.d.TableEntry(i)
		table[i] = oracle.Field{Name: string(name), Value: string(value)}
	}
	return table
}
