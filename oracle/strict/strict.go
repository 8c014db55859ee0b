// Package strict is hpackcert's own HPACK decoder, written from RFC 7541
// alone to judge encoders by the letter of the RFC. It favours plain code
// over speed: Huffman strings are decoded one bit at a time down a tree,
// and the dynamic table is a slice. It shares no code with the encoder
// package (an oracle that shares the encoder's code shares its bugs) and
// takes only the RFC's data from internal/spec. It registers itself with
// package oracle as "strict".
//
// Every violation is reported as an *Error carrying the byte offset in the
// block, the RFC 7541 section and a sentence. The decoder rejects:
//
//   - index 0 (§6.1) and indices past the static and dynamic tables, in
//     indexed fields and in literal fields' name references (§2.3.3);
//   - a dynamic table size update after a header field representation
//     (§4.2);
//   - a dynamic table size update above the acknowledged
//     SETTINGS_HEADER_TABLE_SIZE (§6.3);
//   - a missing size update after the setting went down (§4.2; rule (a)
//     below);
//   - Huffman padding longer than 7 bits, padding that is not the most
//     significant bits of EOS, and EOS inside a string (§5.2);
//   - integers of 2^32 or more, integers with more continuation octets than
//     a value below 2^32 needs, and integers or strings cut off by the end of
//     the block (§5.1, §5.2; §5.1 lets a decoder limit integers "in value or
//     octet length");
//   - a decoded header list larger than the limit set by
//     SetMaxHeaderListSize, 64 KiB by default, counted as HTTP/2 counts
//     SETTINGS_MAX_HEADER_LIST_SIZE (name + value + 32 per field). This is
//     not an RFC 7541 rule but the HPACK-bomb defence of §7.3 and §7.4: a
//     small block can reference a large table entry many times. The error
//     says so.
//
// # Settings history
//
// SetMaxDynamicTableSize records each SETTINGS_HEADER_TABLE_SIZE value this
// side acknowledged, and may be called any number of times between blocks.
// From that history the decoder enforces, for the dynamic table size
// updates at the start of the next block:
//
//	(a) If the smallest value acknowledged since the previous block is below
//	    the table's maximum size in effect when the block starts, the block
//	    must start with an update to at most that smallest value. §4.2: "the
//	    smallest maximum table size that occurs in that interval MUST be
//	    signaled in a dynamic table size update", at "the beginning of the
//	    first header block following the change"; the final size may follow.
//	    Updates replay the interval in order, so the smallest comes first:
//	    4096 then 1024 after settings of 1024 then 4096 is an error, as it is
//	    for libnghttp2 (x/net rejects it too, for another reason).
//	(b) Every update must be at most the last acknowledged value. By the time
//	    the encoder writes the block it has acknowledged every setting in the
//	    interval, and §6.3 names "the last value of the
//	    SETTINGS_HEADER_TABLE_SIZE parameter ... acknowledged by the encoder"
//	    as the limit, so a larger value acknowledged earlier in the interval
//	    does not widen it.
//	(c) Updates that are legal but unusual produce a Warning rather than an
//	    error, for the certifier to grade as non-strict: more than two updates
//	    (§4.2 says the smallest and the final size result "in at most two"),
//	    and two or more updates whose first is not the smallest, when rule
//	    (a) does not already make that an error (§4.2 lists the smallest
//	    first, then the final).
//
// A setting that rises needs no update: the encoder may keep using a
// smaller table. An update may also come without any setting change.
//
// As in HTTP/2, where any decoding error is a connection error
// (COMPRESSION_ERROR), a decoder that has returned an error returns
// ErrBroken from every later DecodeBlock.
//
// The decoder accepts nothing RFC 7541 forbids, as far as its tests know.
// By choice, where the RFC lets a decoder set limits, it rejects header
// lists over its limit and integers with more than five continuation
// octets.
//
// Files: strict.go (Decoder, Error, Warning and the settings history),
// decode.go (DecodeBlock: the representations, integers and strings of a
// block), huffman.go (the Huffman tree, walked one bit at a time) and
// table.go (the dynamic table and TableEvents).
package strict

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// Name is the name the decoder registers under and returns from Name.
const Name = "strict"

// DefaultMaxHeaderListSize is the header-list limit of a new Decoder, in
// octets counted as name + value + 32 per field.
const DefaultMaxHeaderListSize = 64 << 10

func init() {
	oracle.Register(Name, func() oracle.Decoder { return New() })
}

// ErrBroken is returned by DecodeBlock after an earlier block failed to
// decode: the compression context is no longer defined.
var ErrBroken = errors.New("hpack: decoding context broken by an earlier error")

// Error is a violation of RFC 7541 (or of the header-list limit) found
// while decoding a block. DecodeBlock returns it as *Error.
type Error struct {
	// Offset is the position in the block of the octet where the violation
	// was found: the first octet of the representation, integer or string
	// at fault, or the octet holding the faulty Huffman bits.
	Offset int
	// Section is the RFC 7541 section broken, such as "6.1".
	Section string
	// Reason is one sentence saying what was wrong.
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("hpack: offset %d: RFC 7541 §%s: %s", e.Offset, e.Section, e.Reason)
}

// Warning notes something legal but unusual in the last block, which the
// certifier grades as non-strict.
type Warning struct {
	Offset  int
	Section string
	Reason  string
}

func (w Warning) String() string {
	return fmt.Sprintf("offset %d: RFC 7541 §%s: %s", w.Offset, w.Section, w.Reason)
}

// Decoder is one HPACK decoding context: the dynamic table, the history of
// acknowledged settings and the header-list limit.
type Decoder struct {
	table dynamicTable

	// acked is the last acknowledged SETTINGS_HEADER_TABLE_SIZE.
	acked uint32
	// minAcked is the smallest value acknowledged since the previous block;
	// it is meaningful only when settingChanged is true.
	minAcked       uint32
	settingChanged bool

	maxHeaderListSize int

	updates  []uint32
	warnings []Warning
	err      error
}

// New returns a decoder with a fresh context: an empty dynamic table of
// maximum size 4096, an acknowledged SETTINGS_HEADER_TABLE_SIZE of 4096
// and a header-list limit of DefaultMaxHeaderListSize.
func New() *Decoder {
	return &Decoder{
		table:             dynamicTable{maxSize: spec.DefaultTableSize},
		acked:             spec.DefaultTableSize,
		maxHeaderListSize: DefaultMaxHeaderListSize,
	}
}

// Reset returns d to the state of a new connection, as New leaves it: an
// empty dynamic table of maximum size 4096, an acknowledged
// SETTINGS_HEADER_TABLE_SIZE of 4096, no settings history, updates,
// warnings or error. It keeps the limit set by SetMaxHeaderListSize and
// the memory of its table, so a decoder can serve connection after
// connection, as a fuzz target's executions do.
func (d *Decoder) Reset() {
	d.table.reset()
	d.acked = spec.DefaultTableSize
	d.minAcked = 0
	d.settingChanged = false
	d.updates = d.updates[:0]
	d.warnings = d.warnings[:0]
	d.err = nil
}

// Name returns "strict".
func (d *Decoder) Name() string { return Name }

// SetMaxDynamicTableSize records n as a SETTINGS_HEADER_TABLE_SIZE value
// this side acknowledged. It may be called several times between blocks;
// the decoder keeps the smallest and the last value for the next block.
func (d *Decoder) SetMaxDynamicTableSize(n uint32) {
	if !d.settingChanged || n < d.minAcked {
		d.minAcked = n
	}
	d.settingChanged = true
	d.acked = n
}

// SetMaxHeaderListSize sets the largest header list a block may decode to,
// counting name + value + 32 octets per field. n <= 0 removes the limit.
func (d *Decoder) SetMaxHeaderListSize(n int) {
	d.maxHeaderListSize = n
}

// Table returns the dynamic table, newest entry first.
func (d *Decoder) Table() []oracle.Field {
	out := make([]oracle.Field, d.table.len())
	for i := range out {
		e := d.table.entry(i)
		out[i] = oracle.Field{Name: e.Name, Value: e.Value}
	}
	return out
}

// Warnings returns the warnings about the last block decoded, in the order
// of their offsets.
func (d *Decoder) Warnings() []Warning {
	return append([]Warning(nil), d.warnings...)
}

// Updates returns the dynamic table size updates at the start of the last
// block decoded, in order.
func (d *Decoder) Updates() []uint32 {
	return append([]uint32(nil), d.updates...)
}

// TableEvents returns what the last block decoded did to the dynamic
// table: insertions, evictions by size update and by insertion, entries
// too large to be added. For a block that failed, the events up to the
// violation.
func (d *Decoder) TableEvents() TableEvents { return d.table.events }

// MaxTableSize returns the maximum size of the dynamic table in effect,
// as set by the last dynamic table size update (initially 4096).
func (d *Decoder) MaxTableSize() uint32 { return d.table.maxSize }

// TableSize returns the size of the dynamic table (RFC 7541 §4.1).
func (d *Decoder) TableSize() uint32 { return uint32(d.table.size) }
