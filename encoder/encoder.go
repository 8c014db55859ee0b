// Package encoder is a reference HPACK (RFC 7541) header encoder that never
// allocates while it encodes: only New, and SetMaxDynamicTableSize when the
// peer raises the table size, allocate.
//
// # Use
//
// An Encoder holds the encoding context of one HTTP/2 connection: create it
// with New, tell it each SETTINGS_HEADER_TABLE_SIZE the peer sends (once
// acknowledged) with SetMaxDynamicTableSize, and encode a header block as a
// sequence of AppendField or AppendFieldString calls, each appending the
// field's representation to dst and returning the extended buffer:
//
//	enc := encoder.New(encoder.Config{})
//	block := make([]byte, 0, 512)
//	block = enc.AppendFieldString(block, ":method", "GET", false)
//	block = enc.AppendFieldString(block, ":path", "/", false)
//	block = enc.AppendFieldString(block, "authorization", "Bearer x", true)
//
// A caller who grows dst to len(dst)+MaxFieldLen(len(name), len(value))
// before each call never makes an append allocate. The encoder copies the
// bytes it keeps, so the caller may reuse name and value at once.
//
// Reset returns an encoder to the state of a new connection, keeping its
// memory; a Pool hands out reset encoders. An Encoder is not safe for
// concurrent use: give each connection's header writer its own.
//
// # Representations
//
// Each field is sent with one representation of RFC 7541 §6: "Indexed
// Header Field" when the static or dynamic table holds the whole field
// (the static entry first, else the newest dynamic one) and the field is
// not to be "Never Indexed"; otherwise a literal, "with Incremental
// Indexing", "without Indexing" or "Never Indexed" as the indexing policy
// says, whose name is referenced by index when the static table (preferred,
// for its shorter indices) or the dynamic table has it. Integers use the
// minimal encoding of §5.1. A sensitive field equal to a static entry is
// sent "Never Indexed" with that entry's index as its name. By default a
// string literal is Huffman coded (§5.2) only when that is strictly
// shorter than sending it raw; octets 0-255 are all encodable.
//
// # Indexing policy
//
// Which fields enter the dynamic table is decided by Config.Policy; the zero
// value means DefaultPolicy, modelled on nghttp2:
//
//   - a field passed with sensitive set is "Never Indexed" (§6.2.3), always;
//   - "authorization" and "proxy-authorization" values, whatever their
//     length, and "cookie" values shorter than 20 bytes are "Never
//     Indexed": they are secrets or easily guessed (an empty value, which
//     the static table holds, is sent as that entry's index: it reveals
//     nothing);
//   - ":path" values containing "?" or longer than 28 bytes,
//     "content-length", "etag", "if-modified-since", "if-none-match",
//     "last-modified", "location", "set-cookie" and "age" are sent
//     "without Indexing": they rarely repeat, and indexing them would only
//     evict entries that do; "set-cookie" values are also secrets a
//     peer's guesses should not be compressed against;
//   - a field whose entry (name + value + 32 bytes, §4.1) is larger than
//     3/4 of the current maximum table size is sent "without Indexing",
//     so one large field does not flush the table;
//   - every other field is sent "with Incremental Indexing".
//
// The name rules are nghttp2's plus two, "last-modified" and long ":path"
// values, chosen by measuring the wire bytes of the raw-data stories of
// hpack-test-case with each rule in and out; BENCHMARKS.md gives the
// figures, and those of the rules that measured worse and were left out.
//
// Names are referenced by index in every case. Names are matched exactly:
// HTTP/2 field names are lowercase (RFC 9113 §8.2.1). IndexAllPolicy
// indexes every field that fits; with the matching HuffmanMode it
// reproduces the examples of RFC 7541 Appendix C byte for byte.
//
// # Giant fields
//
// A field whose entry size exceeds the current maximum table size cannot be
// indexed under any policy. It is sent as a literal "without Indexing"
// ("Never Indexed" if sensitive) and the dynamic table is left exactly as it
// was: nothing is evicted for it. A maximum size of 0 is valid: nothing is
// indexed, and static references are still used.
//
// # Table size updates
//
// SetMaxDynamicTableSize(n) sets the maximum size to min(n, Config.Capacity)
// at once, evicting entries if it shrinks (§4.3). The decoder learns of it
// from "Dynamic Table Size Update" representations (§6.3) that the encoder
// puts before the first field appended after the call (§4.2): the smallest
// size set since the previous field, then the final size if different —
// never more than two, and none when both equal the size last signalled.
// Like the peer, a new encoder starts at 4096; one whose Capacity is
// smaller signals its Capacity before its first field.
//
// # Memory
//
// An encoder's memory is sized for the largest maximum table size S it has
// had: at first min(4096, Capacity), the size a connection starts with;
// SetMaxDynamicTableSize allocates memory for a larger one, up to
// Capacity, and keeps the entries. Nothing else allocates: not encoding,
// eviction or compaction, not a smaller size, not Reset (which keeps the
// memory) or a Pool. The memory is an entry arena of 1.5·S bytes, a ring of
// S/32 entry descriptors (32 bytes each) and two hash indexes of 2·S/32
// buckets (4 bytes each), the counts rounded up to powers of two, plus the
// Encoder itself (under 512 bytes on 64-bit platforms). That is 3 bytes
// per byte of table when S/32 is a power of two: 12,288 bytes at 4096,
// 12,800 with the Encoder, in three allocations (the Encoder, the ring, and
// one block for the indexes and the arena), none of which the garbage
// collector scans but the Encoder. So Capacity bounds the memory, and an
// encoder whose peer never raises the table size from 4096 costs the same
// whatever its Capacity. BENCHMARKS.md compares this with x/net's and
// nghttp2's encoders.
//
// Besides, the package holds read-only tables shared by every encoder:
// 320 KiB of Huffman codes and lengths for every pair of octets (the
// Huffman coder codes header text eight octets per step through them),
// filled the first time a string is coded, not at start-up, so that a
// program that imports the package but does not encode does not pay for
// them. The package has no other initialization work.
//
// # The purego build tag
//
// A few hot paths read memory without Go's bounds checks, where their
// callers guarantee the reads are in bounds, and AppendField and
// AppendHuffman view their []byte arguments as strings without copying
// them; all of that is in one file, unsafe.go. On amd64 the Huffman
// coder's loop is written in assembly (huffman_amd64.s, with its contract
// in huffman_amd64.go), which keeps its state in registers where the
// compiler spilled it. Built with the purego tag, the package uses neither
// package unsafe nor assembly: its output is the same, every access is
// bounds checked, the Huffman coder is the Go one of huffman_generic.go
// (the one other architectures use), New makes four allocations instead of three,
// and AppendField and AppendHuffman copy their []byte arguments, which
// allocates for arguments over 32 bytes. AppendFieldString,
// AppendHuffmanString and every other path still allocate nothing.
//
// # Files
//
// encoder.go holds Config, Policy, the Encoder with New, Reset and
// SetMaxDynamicTableSize, and MaxFieldLen; encode.go, AppendField and
// AppendFieldString: the choice of a representation under the indexing
// policy, and the integers and string literals it writes; block.go,
// AppendBlock and BlockLen for a whole header list; primitives.go, the
// building blocks exported on their own (AppendSizeUpdates, AppendInteger,
// AppendHuffman, HuffmanLen and their siblings); pool.go, Pool. table.go is
// the dynamic table (the entry ring, the arena, eviction and compaction)
// and hash.go the keyed hash of its two indexes. static.go holds the static
// indices the policy looks at and their rules; static_lookup.go, generated
// by gen.go from internal/spec, finds a field in the static table.
// huffman.go is the Huffman coder and its pair tables, with its inner loop
// in huffman_amd64.go and huffman_amd64.s or in huffman_generic.go;
// unsafe.go and its purego twin safe.go hold the memory accesses described
// above.
package encoder

import (
	"math/rand/v2"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// maxCapacity is the largest Config.Capacity honoured (1 GiB), so that
// arena offsets fit in 32 bits.
const maxCapacity = 1 << 30

// Config configures an Encoder.
type Config struct {
	// Capacity is the number of bytes of dynamic table (RFC 7541 §4.1
	// sizes) the encoder may ever use, whatever the peer allows. It
	// bounds the encoder's memory. Zero means 4096; values above 1 GiB
	// mean 1 GiB.
	Capacity uint32
	// Policy is the indexing policy; the zero value means DefaultPolicy.
	Policy Policy
}

// Policy decides which fields enter the dynamic table and how strings are
// coded. It is a plain value: copy it and change fields freely. The zero
// value of each field selects the behaviour of DefaultPolicy, so the zero
// Policy behaves exactly as DefaultPolicy.
//
// Fields passed to AppendField with sensitive set are "Never Indexed"
// (RFC 7541 §6.2.3) under every policy, and fields whose entry does not fit
// the current maximum table size are never indexed. Unless IndexAll is
// set, the name rules of the package doc apply as well: "authorization"
// and "proxy-authorization" are "Never Indexed", and the names whose
// values rarely repeat are sent "without Indexing".
type Policy struct {
	// IndexAll, when set, indexes every field that is not sensitive and
	// whose entry fits the current maximum table size, ignoring the name
	// rules and LargeEntryPercent below. DefaultPolicy leaves it unset.
	IndexAll bool

	// Huffman says when string literals are Huffman coded (RFC 7541
	// §5.2). The zero value, HuffmanShorter, is DefaultPolicy's.
	Huffman HuffmanMode

	// ShortCookieLen makes "cookie" fields whose value is shorter than
	// this many bytes "Never Indexed": short cookies are easy to guess
	// from compressed sizes. Zero means 20, as in DefaultPolicy; a
	// negative value turns the rule off.
	ShortCookieLen int

	// LargeEntryPercent sends "without Indexing" a field whose entry size
	// exceeds this percentage of the current maximum table size, so that
	// one large field does not evict the whole table. Zero means 75, as
	// in DefaultPolicy; 100 or more leaves only the fit check.
	LargeEntryPercent uint8
}

// HuffmanMode says when a string literal is Huffman coded (RFC 7541 §5.2).
// In every mode a coded string is never longer than the raw one, so
// MaxFieldLen holds.
type HuffmanMode uint8

const (
	// HuffmanShorter codes a string when that is strictly shorter.
	HuffmanShorter HuffmanMode = iota
	// HuffmanNotLonger codes a string when that is not longer, as the
	// examples of RFC 7541 Appendix C.4 and C.6 do ("307" takes three
	// bytes either way).
	HuffmanNotLonger
	// HuffmanNever sends every string raw.
	HuffmanNever
)

// DefaultPolicy is the indexing policy of a zero Config: never-index
// authorization and proxy-authorization at any length and cookies under
// 20 bytes, do not index the fields that rarely repeat nor entries over
// 3/4 of the table, index the rest, and Huffman code strings when
// shorter.
var DefaultPolicy = Policy{ShortCookieLen: 20, LargeEntryPercent: 75}

// IndexAllPolicy returns the policy that indexes every field that is not
// sensitive and fits the table, as the examples of RFC 7541 Appendix C do.
func IndexAllPolicy() Policy {
	return Policy{IndexAll: true}
}

// An Encoder encodes header fields into HPACK header blocks for one
// connection. It is not safe for concurrent use.
type Encoder struct {
	table dynamicTable

	config            Config // as given to New, normalized
	indexAll          bool
	huffman           HuffmanMode
	shortCookieLen    int
	largeEntryPercent uint64

	// hashKey keys the hash of the dynamic table indexes (hashString), so
	// that a peer cannot choose fields that collide; staticNameSalt stands
	// in for the hash of names from the static table. Both are random.
	hashKey        uint64
	staticNameSalt uint64

	// The dynamic table size update state (RFC 7541 §4.2).
	signalled  uint32 // the maximum size the decoder last learned
	pendingMin uint32 // the smallest size set since the last field
	pending    bool   // a size was set since the last field
}

// New returns an encoder for a new connection, holding all the memory it
// will use (see the package doc).
func New(cfg Config) *Encoder {
	cfg = normalize(cfg)
	p := cfg.Policy
	e := &Encoder{
		table:             newTable(min(cfg.Capacity, spec.DefaultTableSize)),
		config:            cfg,
		indexAll:          p.IndexAll,
		huffman:           p.Huffman,
		shortCookieLen:    p.ShortCookieLen,
		largeEntryPercent: uint64(p.LargeEntryPercent),
		hashKey:           rand.Uint64(),
		staticNameSalt:    rand.Uint64() | 1,
	}
	// newTable's memory is zero, as reset would leave it: only the
	// sizes are left to set.
	e.resetSizes()
	return e
}

// normalize replaces the zero values of cfg that stand for defaults by the
// defaults, so that equal behaviour means equal Configs.
func normalize(cfg Config) Config {
	if cfg.Capacity == 0 {
		cfg.Capacity = spec.DefaultTableSize
	}
	cfg.Capacity = min(cfg.Capacity, maxCapacity)
	if cfg.Policy.ShortCookieLen == 0 {
		cfg.Policy.ShortCookieLen = DefaultPolicy.ShortCookieLen
	}
	if cfg.Policy.LargeEntryPercent == 0 {
		cfg.Policy.LargeEntryPercent = DefaultPolicy.LargeEntryPercent
	}
	return cfg
}

// Reset returns the encoder to the state of a new connection: an empty
// dynamic table, the peer's table size back at 4096. It keeps its memory.
func (e *Encoder) Reset() {
	e.table.reset()
	e.resetSizes()
}

// resetSizes sets the maximum table size and the size update state of a
// new connection; the table must be empty.
func (e *Encoder) resetSizes() {
	e.table.maxSize = min(spec.DefaultTableSize, e.config.Capacity)
	e.signalled = spec.DefaultTableSize
	e.pendingMin = e.table.maxSize
	e.pending = e.table.maxSize != e.signalled
}

// SetMaxDynamicTableSize records the peer's SETTINGS_HEADER_TABLE_SIZE n
// once acknowledged. The maximum table size becomes min(n, Capacity) at
// once, evicting entries if it shrinks (RFC 7541 §4.3); the size update is
// signalled before the next field appended (§4.2, see the package doc).
// A size larger than any the encoder has had makes it allocate memory for
// that size (see the package doc's Memory).
func (e *Encoder) SetMaxDynamicTableSize(n uint32) {
	n = min(n, e.config.Capacity)
	if n > e.table.capacity {
		e.table.grow(n)
	}
	if !e.pending || n < e.pendingMin {
		e.pendingMin = n
	}
	e.pending = true
	e.table.setMaxSize(n)
}

// TableLen returns the number of entries in the dynamic table.
func (e *Encoder) TableLen() int { return int(e.table.count) }

// TableEntry returns the name and value of dynamic table entry i, 0 being
// the newest (RFC 7541 index 62). The slices alias the encoder's memory:
// they are valid until the next call that changes the table, and must not
// be modified. It returns nil slices when i is out of range.
func (e *Encoder) TableEntry(i int) (name, value []byte) {
	if i < 0 || i >= int(e.table.count) {
		return nil, nil
	}
	ent := e.table.at(uint32(i))
	return e.table.name(ent), e.table.value(ent)
}

// TableSize returns the size of the dynamic table as RFC 7541 §4.1 defines
// it: the sum over entries of name length + value length + 32.
func (e *Encoder) TableSize() uint32 { return e.table.size }

// MaxTableSize returns the current maximum size of the dynamic table:
// min(the last SetMaxDynamicTableSize, Capacity), 4096 at first.
func (e *Encoder) MaxTableSize() uint32 { return e.table.maxSize }

// MaxFieldLen returns an upper bound on the number of bytes one AppendField
// or AppendFieldString call appends for a name of nameLen bytes and a value
// of valueLen bytes, two pending dynamic table size updates included.
// Negative lengths count as 0.
func MaxFieldLen(nameLen, valueLen int) int {
	nameLen, valueLen = max(nameLen, 0), max(valueLen, 0)
	// Two size updates of at most 2^32-1 with a 5-bit prefix.
	const updates = 2 * 6
	// An index of at most 2^32-1 with a 4-bit prefix, or the first byte
	// of a literal with a new name followed by the name string.
	header := max(6, 1+stringLen(nameLen))
	return updates + header + stringLen(valueLen)
}

// stringLen bounds the length of a string literal of n bytes: its length
// prefix (7-bit prefix integer) and at most n bytes of data, since Huffman
// coding is used only when shorter.
func stringLen(n int) int {
	return integerLen(7, uint64(n)) + n
}
