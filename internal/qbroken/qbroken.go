// Package qbroken is a small, plain QPACK (RFC 9204) encoder with
// switchable bugs, the proof that the certifier's qenc/ cases catch them.
// Without a bug it is a second correct encoder, written apart from package
// qencoder: a slice for the dynamic table scanned linearly, one Set
// Dynamic Table Capacity of min(1024, SETTINGS_QPACK_MAX_TABLE_CAPACITY)
// before its first insertion, Huffman when shorter, the N bit for
// sensitive fields, and the decoder stream read with its
// QPACK_DECODER_STREAM_ERROR refusals. Each Bug breaks exactly one rule,
// the one Bugs pairs it with.
//
// The indexing policy: a field equal to a static entry is an Indexed
// Field Line of it; one equal to a dynamic entry it may reference is a
// reference to that entry, or to a Duplicate of it when the entry is close
// to eviction (the oldest quarter of the capacity, §2.1.1.1); any other
// field of at most half the capacity is inserted the second time it is
// seen, with a static or dynamic name reference when there is one, and
// referenced with a post-base index when the blocked-streams budget allows
// it, sent as a literal otherwise.
// An entry is referenced when acknowledged (below the Known Received
// Count), or while fewer than SETTINGS_QPACK_BLOCKED_STREAMS streams could
// be blocked, or on a stream that could already be. An insertion that
// would evict an entry not evictable (unacknowledged, or referenced by a
// section not acknowledged, §2.1.1) is not made.
//
// Files: qbroken.go (Bug, Bugs, New, Target), encoder.go (EncodeSection:
// choosing each field's representation), table.go (the dynamic table, the
// sections outstanding and the blocked-streams count), wire.go (writing
// integers, strings, field lines and instructions, where most bugs sit)
// and decoder_stream.go (DecoderStream).
package qbroken

import (
	"github.com/hpackcert/hpackcert/certify/qpack"
)

// Bug names the one rule the encoder breaks; None breaks none.
type Bug string

// The bugs, each named after what the encoder gets wrong. What each does
// and what it leaves intact is in the comment of its constant.
const (
	None Bug = ""

	// CapacityAboveMax sends Set Dynamic Table Capacity of
	// SETTINGS_QPACK_MAX_TABLE_CAPACITY+1 while keeping its own table to
	// min(1024, setting): a decoder that accepted the capacity holds every
	// entry the encoder references. With a setting of 0 it writes
	// nothing, as without the bug.
	CapacityAboveMax Bug = "capacity-above-max"
	// InstructionWithZeroMax writes a Set Dynamic Table Capacity of 0 at
	// the start of its encoder stream when the setting is 0: a value the
	// setting allows, the one instruction §3.2.3 forbids there.
	InstructionWithZeroMax Bug = "instruction-with-zero-max"
	// NoSetCapacity never sends Set Dynamic Table Capacity, inserting
	// into a table of min(1024, setting) as the QPACK drafts' encoders did
	// (the recordings' finding): decoded as if any capacity of at least
	// that had been set, everything else holds.
	NoSetCapacity Bug = "no-set-capacity"
	// EvictUnacknowledged counts an entry as evictable once no
	// outstanding section references it, acknowledged or not (§2.1.1
	// wants both): it may evict an inserted entry the decoder has not
	// acknowledged. No section ever references an entry it evicted, so
	// every section still decodes.
	EvictUnacknowledged Bug = "evict-unacknowledged"
	// BlockedOneTooMany lets SETTINGS_QPACK_BLOCKED_STREAMS+1 streams
	// risk blocking (§2.1.2); sections are otherwise exact.
	BlockedOneTooMany Bug = "blocked-one-too-many"
	// RICOneTooLarge writes a Required Insert Count one above the exact
	// one when an entry of that absolute index was inserted and the
	// larger count does not change whether the section could block: the
	// section decodes by a decoder that accepts the larger count
	// (§4.5.1.1 makes refusing it optional), and the blocked-streams
	// count is unchanged.
	RICOneTooLarge Bug = "ric-one-too-large"
	// RICNoModulo encodes the Required Insert Count as count+1, without
	// the modulo 2*MaxEntries of §4.5.1.1: the same octets until the
	// count reaches 2*MaxEntries.
	RICNoModulo Bug = "ric-no-modulo"
	// NegativeBase gives a section whose dynamic references are all
	// post-base a Base of -1 (S=1, Delta Base = Required Insert Count)
	// and post-base indices one larger to match: a decoder computing a
	// signed Base finds the same entries.
	NegativeBase Bug = "negative-base"
	// ReferenceAtRIC writes the section's newest dynamic reference one
	// entry too new (a relative index one smaller, or a post-base index
	// one larger): it resolves at the Required Insert Count (§2.2.3).
	ReferenceAtRIC Bug = "reference-at-ric"
	// StaticIndexPastTable writes the indices of the static table's last
	// four entries, 95 to 98 (user-agent, x-forwarded-for, and
	// x-frame-options twice), four higher, 99 to 102: past the table
	// (§3.1), in field lines and on the encoder stream. Any request with
	// a user-agent shows it.
	StaticIndexPastTable Bug = "static-index-past-table"
	// HuffmanZeroPadding pads Huffman-coded strings with zero bits, not
	// with the most significant bits of EOS (§4.1.2, RFC 7541 §5.2).
	HuffmanZeroPadding Bug = "huffman-zero-padding"
	// IntegerTooLong writes the name index of a Literal Field Line with
	// Name Reference that needs continuation octets with redundant zero
	// ones, eleven in all: a 4+77-bit integer of the same value, past 62
	// bits (§4.1.1).
	IntegerTooLong Bug = "integer-too-long"
	// DuplicateNeverInserted gives every Duplicate the relative index of
	// the entry before the first ever inserted, one no insertion made
	// (§4.3.4), and goes on as if the right entry had been duplicated.
	DuplicateNeverInserted Bug = "duplicate-never-inserted"
	// SensitiveInserted sends a sensitive field as a literal with the N
	// bit, as it must, but also inserts it into the dynamic table as it
	// would a field not sensitive (§7.1.3).
	SensitiveInserted Bug = "sensitive-inserted"
	// BogusAckAccepted ignores a Section Acknowledgment of a stream with
	// no section outstanding instead of refusing it (§4.4.1).
	BogusAckAccepted Bug = "bogus-ack-accepted"
	// IncrementZeroAccepted ignores an Insert Count Increment of 0
	// instead of refusing it (§4.4.3).
	IncrementZeroAccepted Bug = "increment-zero-accepted"
	// IncrementPastAccepted takes an Insert Count Increment past the
	// inserts sent as acknowledging all of them instead of refusing it
	// (§4.4.3): the Known Received Count never exceeds the inserts.
	IncrementPastAccepted Bug = "increment-past-accepted"
	// FieldsOutOfOrder swaps the first two fields of a section when they
	// differ (§2.1): each is still encoded correctly.
	FieldsOutOfOrder Bug = "fields-out-of-order"
	// NeverHuffman writes every string literal raw, Huffman-coding none
	// even when shorter (§4.1.2, an efficiency rule).
	NeverHuffman Bug = "never-huffman"
	// StaticMatchNotUsed looks the static table up by name only: a field
	// equal to a static entry is inserted into the dynamic table (with
	// the static name reference) and referenced there, or sent as a
	// literal, never as an Indexed Field Line of the static entry (§3.1,
	// an efficiency rule). Repeated, it is still sent by reference.
	StaticMatchNotUsed Bug = "static-match-not-used"
	// NoDynamicTable never inserts: fields not in the static table are
	// literals, however often they repeat (§3.2, an efficiency rule).
	NoDynamicTable Bug = "no-dynamic-table"
)

// Planted pairs a bug with the one qenc/ case it must be caught under.
type Planted struct {
	Bug  Bug
	Case string
}

// Bugs returns every bug with its case, in a fixed order: the table of the
// certifier's planted-bug test.
func Bugs() []Planted {
	return []Planted{
		{FieldsOutOfOrder, "qenc/2.1/1"},
		{EvictUnacknowledged, "qenc/2.1.1/1"},
		{BlockedOneTooMany, "qenc/2.1.2/1"},
		{ReferenceAtRIC, "qenc/2.2.3/1"},
		{StaticIndexPastTable, "qenc/3.1/1"},
		{StaticMatchNotUsed, "qenc/3.1/2"},
		{NoDynamicTable, "qenc/3.2/1"},
		{NoSetCapacity, "qenc/3.2.2/1"},
		{CapacityAboveMax, "qenc/3.2.3/1"},
		{InstructionWithZeroMax, "qenc/3.2.3/2"},
		{IntegerTooLong, "qenc/4.1.1/1"},
		{HuffmanZeroPadding, "qenc/4.1.2/1"},
		{NeverHuffman, "qenc/4.1.2/2"},
		{DuplicateNeverInserted, "qenc/4.3/1"},
		{BogusAckAccepted, "qenc/4.4.1/1"},
		{IncrementZeroAccepted, "qenc/4.4.3/1"},
		{IncrementPastAccepted, "qenc/4.4.3/1"},
		{RICOneTooLarge, "qenc/4.5.1.1/1"},
		{RICNoModulo, "qenc/4.5.1.1/1"},
		{NegativeBase, "qenc/4.5.1.2/1"},
		{SensitiveInserted, "qenc/7.1.3/1"},
	}
}

// ownCapacity is the most dynamic table the encoder uses, whatever the
// decoder allows.
const ownCapacity = 1024

// New returns the encoder of a fresh connection whose decoder sent
// settings s, with the given bug.
func New(bug Bug, s qpack.Settings) qpack.Encoder {
	return newEncoder(bug, s)
}

// Target returns the bug's encoder as a certification target, named
// "qbroken" and the bug ("qbroken none" without one).
func Target(bug Bug) qpack.EncoderTarget {
	return target{bug}
}

type target struct{ bug Bug }

func (t target) Name() string {
	if t.bug == None {
		return "qbroken none"
	}
	return "qbroken " + string(t.bug)
}

func (t target) NewEncoder(s qpack.Settings) (qpack.Encoder, error) {
	return New(t.bug, s), nil
}

func (t target) Close() error { return nil }
