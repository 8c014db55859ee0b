// Package qencoder is the reference QPACK (RFC 9204) encoder, a sibling
// of package encoder (the HPACK one) that shares its prefix integers and
// Huffman code (RFC 9204 §4.1.1, §4.1.2): field sections and encoder-stream
// instructions are written with encoder.AppendInteger and
// encoder.AppendStringLiteral.
//
// # Indexing policy
//
// Each field is sent as the first of these that applies (§4.5.2-§4.5.6):
//   - a field equal to a static entry, unless sensitive: "Indexed Field
//     Line" of that entry (T=1);
//   - a field not sent with the N bit (below) equal to a dynamic entry the
//     section may reference (below): "Indexed Field Line" of the newest
//     such entry (T=0), or its post-base form (§4.5.3) for an entry
//     inserted while the section is written;
//   - a field the section inserts or duplicates (below) and may then
//     reference: the same, post-base;
//   - a field whose name is a static name: "Literal Field Line with Name
//     Reference" to the first entry of that name (T=1); or else, whose
//     name is that of a dynamic entry the section may reference, to the
//     newest such entry (T=0, or post-base, §4.5.5);
//   - otherwise "Literal Field Line with Literal Name".
//
// A section may reference the dynamic entries the decoder has
// acknowledged (below the Known Received Count, §2.1.4), and, while the
// blocked-streams budget allows, any entry (below). In both cases it
// does not reference the draining entries (§2.1.1.1): the oldest ones,
// whose eviction would leave less than an eighth of the capacity
// insertable. A reference pins an entry until the section's Section
// Acknowledgment, and an entry about to be evicted, pinned, would stop
// the insertions that need its room.
//
// A field that is not sent with the N bit and not equal to a static entry
// nor to any dynamic entry is inserted on the encoder stream (§4.3.2 by
// the name of a static entry or of the newest dynamic entry of its name,
// or else §4.3.3) the second time it comes within a short while, unless
// its entry would take more than 3/4 of the capacity, so that one large
// field does not evict the whole table. The first time, the field is only
// remembered, by a tag of its hash among those of the latest fields sent
// without an entry (as many as half the entries the table can hold, at
// least 16):
// values that never repeat, such as request ids, dates and long paths,
// are kept out of the table without a list of names, and the entries
// that do repeat stay longer. A field whose newest entry is
// draining is inserted again with Duplicate (§4.3.4) instead of
// referenced, for the copy to take the place of the entry about to go. An
// insertion or a duplication that would evict an entry that is not
// evictable is not made (§2.1.1), and the field is sent as a literal.
//
// A literal line carries the N bit ("never indexed", §4.5.4-§4.5.6, §7.1.3)
// for a field marked Sensitive, and, as the HPACK encoder's DefaultPolicy
// does, for "authorization" and "proxy-authorization" at any length and
// for a "cookie" shorter than Config.ShortCookieLen octets: short cookies
// and credentials are easy to guess from compressed sizes once a table
// holds them. Such fields are never inserted. A sensitive field equal to a
// static entry is sent as a literal with a reference to that entry's
// name, so that the N bit travels with it. Names and values are sent as
// given: HTTP/3 requires lowercase names, and checking them is the
// caller's affair.
//
// A string literal is Huffman coded when that is strictly shorter
// (encoder.AppendStringLiteral).
//
// # Blocked streams
//
// Config.BlockedStreams is the decoder's SETTINGS_QPACK_BLOCKED_STREAMS.
// A stream could become blocked (§2.1.2) while it has a section awaiting
// acknowledgement whose Required Insert Count is above the Known Received
// Count. A section may reference entries not yet acknowledged, the ones
// it inserts included, when its stream is already such a stream or when
// fewer than Config.BlockedStreams streams are; so no more than that many
// ever are. Its Base is then the Insert Count at its start, and the
// entries inserted while it is written are referenced post-base. Any
// other section references acknowledged entries only and takes the Known
// Received Count as its Base; it never blocks, and with a budget of 0 no
// section does. Its inserts serve the sections after the decoder
// acknowledges them.
//
// # Dynamic table
//
// The table's capacity is the smaller of Config.TableCapacity and the
// decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY (Config.PeerMaxTableCapacity);
// either at 0 leaves the encoder with the static table only, every prefix
// 0, 0 and no encoder-stream octet. Set Dynamic Table Capacity (§4.3.1) is
// sent before the first insertion. No entry is evicted before the decoder
// has acknowledged it, nor while a section not yet acknowledged or
// cancelled (§4.4.2), or the one being written, references it (§2.1.1).
// Sections with dynamic references wait for their Section
// Acknowledgment, which acknowledges the earliest such section of its
// stream (§2.2.2.1), in Config.MaxUnacknowledged slots; with all of them
// taken, a section uses the static table only. Entries are found by two
// hash indexes, of names and of fields, whose chains run from the newest
// entry to the oldest; the static table by a generated switch.
//
// # Memory
//
// New allocates everything the encoder uses, and Reset reuses it for a new
// connection. AppendSection allocates
// nothing when the section buffer has MaxSectionLen(fields) octets of
// room and the encoder-stream buffer MaxEncoderStreamLen(fields);
// otherwise it grows them as append does. DecoderStream allocates only
// for the error it returns.
//
// # Not done yet
//
// The capacity is set once and never reduced. Entries the encoder
// expects to need are not inserted ahead of the sections that use them.
// The draining target and the slots of seen fields are fixed fractions of
// the table, measured on the QIF traffic with prompt acknowledgements,
// rather than tuned to how fast the decoder acknowledges.
//
// Files: encoder.go (Config, Encoder, the name rules), section.go
// (AppendSection, the field lines and the encoder stream), table.go (the
// dynamic table, its hash indexes and draining index), decoder_stream.go
// (acknowledgements, cancellations, increments, which entries may be
// evicted and which streams may block), hash.go (the hash of the
// indexes) and static_lookup.go (the static table lookup, written by
// gen.go).
package qencoder

//go:generate go run gen.go

import (
	"math"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// First octets of the field line representations (§4.5) and encoder
// instructions (§4.3), with the bits of the integer prefix after each.
const (
	indexedStatic      = 0xc0 // §4.5.2, 1T with T=1, 6-bit index
	indexedDynamic     = 0x80 // §4.5.2, 1T with T=0
	indexedPostBase    = 0x10 // §4.5.3, 0001 and a 4-bit index
	nameRefStatic      = 0x50 // §4.5.4, 01NT with T=1, 4-bit index
	nameRefDynamic     = 0x40 // §4.5.4, 01NT with T=0
	nameRefNever       = 0x20 // §4.5.4, the N bit
	postBaseNameRef    = 0x00 // §4.5.5, 0000N and a 3-bit index
	postBaseNameNever  = 0x08 // §4.5.5, the N bit
	literalName        = 0x20 // §4.5.6, 001N, H and a 3-bit name length
	literalNameNever   = 0x10 // §4.5.6, the N bit
	insertStatic       = 0xc0 // §4.3.2, 1T with T=1, 6-bit index
	insertDynamic      = 0x80 // §4.3.2, 1T with T=0
	insertLiteral      = 0x40 // §4.3.3, 01H and a 5-bit name length
	setCapacity        = 0x20 // §4.3.1, 001 and a 5-bit capacity
	duplicateEntry     = 0x00 // §4.3.4, 000 and a 5-bit index
	indexedPrefixBits  = 6
	postBaseIndexBits  = 4
	postBaseNameBits   = 3
	duplicateIndexBits = 5
	nameRefPrefixBits  = 4
	nameLenPrefixBits  = 3
	insertNameBits     = 5
	capacityPrefixBits = 5
	valueLenPrefixBits = 7
)

// Config configures an Encoder.
type Config struct {
	// ShortCookieLen makes "cookie" fields whose value is shorter than
	// this many octets never indexed (the N bit). Zero means
	// encoder.DefaultPolicy.ShortCookieLen (20); a negative value turns
	// the rule off.
	ShortCookieLen int
	// TableCapacity is the most octets of dynamic table (§3.2.1 sizes)
	// the encoder uses, whatever the decoder allows; it bounds the
	// encoder's memory. Zero leaves the encoder with the static table.
	TableCapacity uint32
	// PeerMaxTableCapacity is the decoder's
	// SETTINGS_QPACK_MAX_TABLE_CAPACITY (§5): the capacity is never set
	// above it, and it sizes the Required Insert Count's encoding.
	PeerMaxTableCapacity uint64
	// BlockedStreams is the decoder's SETTINGS_QPACK_BLOCKED_STREAMS
	// (§5): at most this many streams have sections that reference
	// entries the decoder has not acknowledged (§2.1.2). Zero makes every
	// section decodable as soon as it arrives.
	BlockedStreams uint64
	// MaxUnacknowledged is the most sections with dynamic references
	// awaiting acknowledgement; zero means 64.
	MaxUnacknowledged int
}

// An Encoder writes QPACK field sections and encoder-stream instructions
// for one HTTP/3 connection. It is not safe for concurrent use.
type Encoder struct {
	shortCookieLen int
	maxEntries     uint64 // the decoder's MaxEntries (§4.5.1.1)
	blockedStreams uint64
	table          dynamicTable
	capacitySent   bool
	known          uint64 // the Known Received Count (§2.1.4)
	// sections are the sections awaiting acknowledgement, in the order
	// they were written; pinned is the lowest absolute index they
	// reference, math.MaxUint64 when there is none.
	sections []outstanding
	pinned   uint64
}

// New returns an encoder holding all the memory it will use.
func New(cfg Config) *Encoder {
	if cfg.ShortCookieLen == 0 {
		cfg.ShortCookieLen = encoder.DefaultPolicy.ShortCookieLen
	}
	if cfg.MaxUnacknowledged <= 0 {
		cfg.MaxUnacknowledged = 64
	}
	capacity := min(uint64(cfg.TableCapacity), cfg.PeerMaxTableCapacity)
	e := &Encoder{
		shortCookieLen: cfg.ShortCookieLen,
		maxEntries:     qspec.MaxEntries(cfg.PeerMaxTableCapacity),
		blockedStreams: cfg.BlockedStreams,
		table:          newDynamicTable(capacity),
		pinned:         math.MaxUint64,
	}
	if capacity > 0 {
		e.sections = make([]outstanding, 0, cfg.MaxUnacknowledged)
	}
	return e
}

// Reset returns the encoder to the state of a new connection with the
// Config it was made with, keeping its memory: a server can reuse one
// encoder across connections instead of allocating one each time.
func (e *Encoder) Reset() {
	e.table.reset()
	e.capacitySent = false
	e.known = 0
	e.sections = e.sections[:0]
	e.pinned = math.MaxUint64
}

// neverIndexed reports whether the name rules of the package doc send
// name: value with the N bit.
func (e *Encoder) neverIndexed(name, value string) bool {
	switch name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(value) < e.shortCookieLen
	}
	return false
}

// maxIndexLen bounds an integer of 62 bits with any prefix (§4.1.1).
const maxIndexLen = 10

// MaxSectionLen returns an upper bound of the octets AppendSection appends
// to the section for fields: room enough for it not to allocate.
func MaxSectionLen(fields []spec.Field) int {
	n := 2 * maxIndexLen // the prefix
	for _, f := range fields {
		// A literal name, or a name reference of up to 10 octets.
		n += maxIndexLen + encoder.IntegerLen(nameLenPrefixBits, uint64(len(f.Name))) + len(f.Name) +
			encoder.IntegerLen(valueLenPrefixBits, uint64(len(f.Value))) + len(f.Value)
	}
	return n
}

// MaxEncoderStreamLen returns an upper bound of the octets AppendSection
// appends to the encoder stream for fields.
func MaxEncoderStreamLen(fields []spec.Field) int {
	n := maxIndexLen // Set Dynamic Table Capacity
	for _, f := range fields {
		n += maxIndexLen + encoder.IntegerLen(insertNameBits, uint64(len(f.Name))) + len(f.Name) +
			encoder.IntegerLen(valueLenPrefixBits, uint64(len(f.Value))) + len(f.Value)
	}
	return n
}
