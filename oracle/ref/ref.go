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
// Memory. The decoder allocates its dynamic table for the acknowledged
// SETTINGS_HEADER_TABLE_SIZE, and a fuzzed setting of 2^32-1 would take
// 1.5 GiB for a table a session never fills. The oracle gives the decoder
// each setting capped at its room: the largest table size a block's
// leading size updates asked for within the setting (4096 at first, at
// most MaxTableSize). The cap changes no verdict (TestCappedSettings):
// size updates are checked against the setting (RFC 7541 §6.3) and the
// table's maximum size against the smallest setting (§4.2), and each
// comparison comes out the same with a setting capped at a room that is
// at least every update of the block and the table's maximum size. An
// update above MaxTableSize is refused where strict decodes it: the
// RejectsAllowed entry of oracle.KnownLeniencies for "ref" says so.
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
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
)

// Name is the name the decoder registers under and returns from Name.
const Name = "ref"

// DefaultMaxHeaderListSize is the header-list limit of a new Decoder, in
// octets counted as name + value + 32 per field, as the strict oracle's.
const DefaultMaxHeaderListSize = 64 << 10

// MaxTableSize is the largest dynamic table size the oracle lets a size
// update set (16 MiB): memory for it is 24 MiB of arena and 6 MiB of
// entries. A run of the certifier needs at most a few MiB (an update past
// 2^21 octets for the integer boundaries).
const MaxTableSize = 16 << 20

// ErrBroken is returned by DecodeBlock after an earlier block failed to
// decode: the compression context is no longer defined.
var ErrBroken = errors.New("hpack: decoding context broken by an earlier error")

func init() {
	oracle.Register(Name, func() oracle.Decoder { return New() })
}

// Decoder is one decoding context of the reference decoder.
type Decoder struct {
	d *decoder.Decoder
	// settings are the SETTINGS_HEADER_TABLE_SIZE values acknowledged
	// since the last block, in order, given to d at the next block;
	// acked is the last one given.
	settings []uint32
	acked    uint32
	// room is the cap of the settings given to d (see the package doc).
	room uint32
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
		acked:     spec.DefaultTableSize,
		room:      spec.DefaultTableSize,
		maxString: decoder.DefaultMaxStringLength,
	}
}

// Name returns "ref".
func (d *Decoder) Name() string { return Name }

// SetMaxDynamicTableSize records n as a SETTINGS_HEADER_TABLE_SIZE value
// this side acknowledged; it takes effect for the next block.
func (d *Decoder) SetMaxDynamicTableSize(n uint32) {
	d.settings = append(d.settings, n)
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
		var e *decoder.Error
		if errors.As(err, &e) {
			// The decoder's Error is a field of the decoder: a copy
			// does not keep its table and string room reachable for as
			// long as the caller keeps the error.
			own := *e
			err = &own
		}
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

// prepare readies d.d for block: a string bound the block cannot exceed,
// and the settings acknowledged since the last block, capped at a room
// raised to the block's leading size updates (see the package doc).
func (d *Decoder) prepare(block []byte) {
	if n := len(block)*8/5 + 1; n > d.maxString {
		d.d.SetMaxStringLength(n)
		d.maxString = n
	}
	last := d.acked
	if len(d.settings) > 0 {
		last = d.settings[len(d.settings)-1]
	}
	room := d.room
	if u := leadingUpdate(block); u <= last {
		// An update above the setting is refused whatever the room.
		room = max(room, min(u, MaxTableSize))
	}
	if room == d.room && len(d.settings) == 0 {
		return
	}
	if len(d.settings) == 0 {
		// A larger room widens the setting d has, with no new setting: a
		// repeat of the last one leaves the smallest since the last
		// block as it was.
		d.settings = append(d.settings, last)
	}
	d.room = room
	for _, n := range d.settings {
		d.d.SetTableSize(min(n, room))
	}
	d.acked, d.settings = last, d.settings[:0]
}

// leadingUpdate returns the largest dynamic table size update (RFC 7541
// §6.3) at the start of block, 0 when there is none. An update after a
// field is refused whatever its size (§4.2), so only those before the
// first field can need room.
func leadingUpdate(block []byte) uint32 {
	var largest uint64
	for p := 0; p < len(block) && block[p]&0xe0 == 0x20; {
		n, next, err := wire.ReadInt(block, p, 5)
		if err != nil {
			break
		}
		largest, p = max(largest, n.Value), next
	}
	return uint32(min(largest, math.MaxUint32))
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
