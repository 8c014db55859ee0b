// Package broken is a small, plain HPACK encoder with switchable bugs, the
// proof that the certifier catches them. Without a bug it is a second
// correct encoder, written apart from package encoder: a linear-scan
// table, never-indexed credentials and sensitive fields, Huffman when
// shorter, and the smallest-then-final size updates of RFC 7541 §4.2.
// Each Bug breaks exactly one rule.
//
// The package also holds a broken decoder, for the dec/ cases: Decoder,
// with the planted bugs of DecoderBugs. Without a bug it decodes exactly
// as oracle/strict does.
//
// Files: broken.go (Bug, its names, and the encoder), decoder.go (Decoder
// and DecodeError: reading a block), decoder_bugs.go (DecoderBugs, their
// names, and the decoder as a certify target), decoder_huffman.go (the
// Huffman code walked one bit at a time, with the bugs that touch it) and
// decoder_table.go (the decoder's dynamic table, with its table bugs).
package broken

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// Bug selects the one rule the encoder breaks.
type Bug int

// The bugs, each named after what the encoder gets wrong.
const (
	None                   Bug = iota
	IndexNotInserted           // the third field sent with incremental indexing is not added to its own table
	NoUpdateAfterDownUp        // after settings down then up again, no update signals the smallest
	ThreeUpdates               // signals the smallest setting and then every later one
	UpdateAboveSetting         // signals 4096 whatever the acknowledged setting
	HuffmanZeroPadding         // pads Huffman strings with zero bits
	AlwaysHuffman              // Huffman-codes every string, even when longer
	AuthorizationIndexed       // indexes authorization and short cookies
	SensitiveIndexed           // ignores the sensitive mark
	Overhead31                 // counts 31 octets of entry overhead, not 32
	EvictOneTooFew             // evicts one entry fewer than a new entry needs
	NoSizeUpdates              // writes no size update at all, its table kept at its first size (HttpCore 5.2.1's defect)
	EvictedNameAfterInsert     // names the entry its own insertion evicts by that entry's index counted after the insertion

	// The bombs are not bugs of a rule but hostile output, for the
	// certifier's memory bounds: each block is what the name says, after
	// the block's size updates, whatever the fields.
	BombIndexed  // a 4,000-octet literal with incremental indexing, then 100,000 one-octet references to it (104 KB decoding to 400 MB)
	BombWire     // 32 MiB of wire in every block
	BombPerBlock // 100 KB of wire in every block (one-octet indexed fields)

	// wrongHuffmanCode plus an octet is WrongHuffmanCode(octet).
	wrongHuffmanCode Bug = 0x100
)

// WrongHuffmanCode returns the bug of an encoder whose Huffman code for
// octet x has its last bit flipped: one wrong bit in one of the 256 codes
// of RFC 7541 Appendix B. Its name is "wrong-huffman-code:0x" and the
// octet in two hex digits.
func WrongHuffmanCode(x byte) Bug { return wrongHuffmanCode | Bug(x) }

// huffmanOctet returns the octet whose code the bug breaks.
func (b Bug) huffmanOctet() (byte, bool) {
	if b&^0xff != wrongHuffmanCode {
		return 0, false
	}
	return byte(b), true
}

const wrongHuffmanPrefix = "wrong-huffman-code:0x"

var bugNames = map[string]Bug{
	"none":                      None,
	"index-not-inserted":        IndexNotInserted,
	"no-update-after-down-up":   NoUpdateAfterDownUp,
	"three-updates":             ThreeUpdates,
	"update-above-setting":      UpdateAboveSetting,
	"huffman-zero-padding":      HuffmanZeroPadding,
	"always-huffman":            AlwaysHuffman,
	"authorization-indexed":     AuthorizationIndexed,
	"sensitive-indexed":         SensitiveIndexed,
	"overhead-31":               Overhead31,
	"evict-one-too-few":         EvictOneTooFew,
	"no-size-updates":           NoSizeUpdates,
	"evicted-name-after-insert": EvictedNameAfterInsert,
	"bomb-indexed":              BombIndexed,
	"bomb-wire":                 BombWire,
	"bomb-per-block":            BombPerBlock,
}

// String returns the bug's name, as ParseBug accepts it.
func (b Bug) String() string {
	if x, ok := b.huffmanOctet(); ok {
		return fmt.Sprintf("%s%02x", wrongHuffmanPrefix, x)
	}
	for name, bug := range bugNames {
		if bug == b {
			return name
		}
	}
	return fmt.Sprintf("Bug(%d)", int(b))
}

// Names returns the names of the bugs that take no argument, sorted; the
// Huffman bug is named wrong-huffman-code:0xNN for octet NN.
func Names() []string {
	out := make([]string, 0, len(bugNames))
	for name := range bugNames {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// ParseBug returns the bug with the given name: one of Names, with NN
// replaced by two hex digits for the Huffman bug.
func ParseBug(name string) (Bug, error) {
	if hexOctet, ok := strings.CutPrefix(name, wrongHuffmanPrefix); ok {
		x, err := strconv.ParseUint(hexOctet, 16, 8)
		if err != nil || len(hexOctet) != 2 {
			return 0, fmt.Errorf("broken: bug %q: want %sNN with NN two hex digits", name, wrongHuffmanPrefix)
		}
		return WrongHuffmanCode(byte(x)), nil
	}
	b, ok := bugNames[name]
	if !ok {
		return 0, fmt.Errorf("broken: unknown bug %q (have %s, %sNN)", name, strings.Join(Names(), ", "), wrongHuffmanPrefix)
	}
	return b, nil
}

const capacity = spec.DefaultTableSize

// Encoder is one encoding context with one bug.
type Encoder struct {
	bug      Bug
	table    []spec.Field // newest first
	size     uint32
	maxSize  uint32
	acked    []uint32 // settings acknowledged since the last block
	inserted int      // fields sent with incremental indexing so far
}

// New returns a fresh context with the given bug.
func New(bug Bug) *Encoder {
	return &Encoder{bug: bug, maxSize: capacity}
}

// SetMaxDynamicTableSize implements certify.Encoder.
func (e *Encoder) SetMaxDynamicTableSize(n uint32) error {
	e.acked = append(e.acked, n)
	return nil
}

// Table implements certify.TableReader.
func (e *Encoder) Table() []oracle.Field {
	out := make([]oracle.Field, len(e.table))
	for i, f := range e.table {
		out[i] = oracle.Field{Name: f.Name, Value: f.Value}
	}
	return out
}

// EncodeBlock implements certify.Encoder.
func (e *Encoder) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	dst = e.appendUpdates(dst)
	switch e.bug {
	case BombIndexed:
		// Literal with incremental indexing, new name (§6.2.1), raw
		// strings: the entry is the newest, index 62 (0xbe indexed).
		dst = append(dst, 0x40)
		dst = e.appendString(dst, "x-bomb")
		dst = e.appendString(dst, strings.Repeat("a", 4000))
		return append(dst, bytes.Repeat([]byte{0x80 | 62}, 100_000)...), nil
	case BombWire:
		return append(dst, bytes.Repeat([]byte{0x82}, 32<<20)...), nil
	case BombPerBlock:
		return append(dst, bytes.Repeat([]byte{0x82}, 100_000)...), nil
	}
	for _, f := range fields {
		dst = e.appendField(dst, f)
	}
	return dst, nil
}

// appendUpdates signals the settings acknowledged since the last block.
func (e *Encoder) appendUpdates(dst []byte) []byte {
	if len(e.acked) == 0 {
		return dst
	}
	acked := e.acked
	e.acked = nil
	final := min(acked[len(acked)-1], capacity)
	if e.bug == NoSizeUpdates {
		return dst
	}
	if e.bug == UpdateAboveSetting {
		e.setMaxSize(capacity)
		return appendInt(dst, 0x20, 5, capacity)
	}
	smallestAt := 0
	for i, n := range acked {
		if n < acked[smallestAt] {
			smallestAt = i
		}
	}
	smallest := acked[smallestAt]
	if e.bug == ThreeUpdates && len(acked)-smallestAt > 2 {
		for _, n := range acked[smallestAt:] {
			n = min(n, final)
			e.setMaxSize(n)
			dst = appendInt(dst, 0x20, 5, uint64(n))
		}
		return dst
	}
	if smallest < e.maxSize && smallest < final && e.bug != NoUpdateAfterDownUp {
		e.setMaxSize(smallest)
		dst = appendInt(dst, 0x20, 5, uint64(smallest))
	}
	if final != e.maxSize {
		e.setMaxSize(final)
		dst = appendInt(dst, 0x20, 5, uint64(final))
	}
	return dst
}

func (e *Encoder) setMaxSize(n uint32) {
	e.maxSize = n
	e.evictTo(n)
}

func (e *Encoder) entrySize(f spec.Field) uint32 {
	if e.bug == Overhead31 {
		return f.Size() - 1
	}
	return f.Size()
}

func (e *Encoder) evictTo(n uint32) {
	for e.size > n && len(e.table) > 0 {
		last := e.table[len(e.table)-1]
		e.table = e.table[:len(e.table)-1]
		e.size -= e.entrySize(last)
	}
}

// add inserts f, evicting first (RFC 7541 §4.4).
func (e *Encoder) add(f spec.Field) {
	size := e.entrySize(f)
	if size > e.maxSize {
		e.table, e.size = e.table[:0], 0
		return
	}
	if e.bug == EvictOneTooFew {
		need, freed := 0, uint32(0)
		for i := len(e.table) - 1; i >= 0 && e.size-freed+size > e.maxSize; i-- {
			freed += e.entrySize(e.table[i])
			need++
		}
		for ; need > 1; need-- {
			last := e.table[len(e.table)-1]
			e.table = e.table[:len(e.table)-1]
			e.size -= e.entrySize(last)
		}
	} else {
		e.evictTo(e.maxSize - size)
	}
	e.table = append([]spec.Field{f}, e.table...)
	e.size += size
}

// evicts reports whether inserting f evicts the dynamic-table entry at
// index (RFC 7541 §4.4: the entries from the end, until the table has room
// for f). A static or zero index is no entry of the dynamic table.
func (e *Encoder) evicts(index int, f spec.Field) bool {
	if index <= spec.StaticTableLen {
		return false
	}
	kept := uint32(0)
	for _, d := range e.table[:index-spec.StaticTableLen] {
		kept += e.entrySize(d)
	}
	return kept > e.maxSize-e.entrySize(f)
}

// search returns the index of a full match and of a name match (0 when
// none), static table first.
func (e *Encoder) search(f spec.Field) (full, name int) {
	for i, s := range spec.StaticTable {
		if s.Name == f.Name {
			if s.Value == f.Value {
				return i + 1, i + 1
			}
			if name == 0 {
				name = i + 1
			}
		}
	}
	for i, d := range e.table {
		if d.Name == f.Name {
			if d.Value == f.Value {
				return spec.StaticTableLen + 1 + i, name
			}
			if name == 0 {
				name = spec.StaticTableLen + 1 + i
			}
		}
	}
	return 0, name
}

func (e *Encoder) appendField(dst []byte, cf certify.Field) []byte {
	f := spec.Field{Name: cf.Name, Value: cf.Value}
	never := cf.Sensitive && e.bug != SensitiveIndexed
	if e.bug != AuthorizationIndexed && (f.Name == "authorization" || f.Name == "proxy-authorization" || (f.Name == "cookie" && len(f.Value) < 20)) {
		never = true
	}
	full, name := e.search(f)
	if never {
		return e.appendLiteral(dst, 0x10, 4, name, f)
	}
	if full != 0 {
		return appendInt(dst, 0x80, 7, uint64(full))
	}
	if e.entrySize(f) > e.maxSize {
		return e.appendLiteral(dst, 0x00, 4, name, f)
	}
	if e.bug == EvictedNameAfterInsert && e.evicts(name, f) {
		// An encoder that inserts before it writes the representation,
		// and keeps the evicted name's entry alive through a stale
		// reference, counts its index in the table after the insertion:
		// one past the index the decoder, which reads the name before it
		// evicts (§4.4), resolves.
		name++
	}
	dst = e.appendLiteral(dst, 0x40, 6, name, f)
	e.inserted++
	if e.bug == IndexNotInserted && e.inserted == 3 {
		return dst
	}
	e.add(f)
	return dst
}

func (e *Encoder) appendLiteral(dst []byte, pattern byte, prefix uint8, name int, f spec.Field) []byte {
	dst = appendInt(dst, pattern, prefix, uint64(name))
	if name == 0 {
		dst = e.appendString(dst, f.Name)
	}
	return e.appendString(dst, f.Value)
}

// appendInt appends v with an n-bit prefix after the pattern bits (§5.1).
func appendInt(dst []byte, pattern byte, n uint8, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(dst, pattern|byte(v))
	}
	dst = append(dst, pattern|byte(limit))
	v -= limit
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

func (e *Encoder) appendString(dst []byte, s string) []byte {
	bits := 0
	for i := 0; i < len(s); i++ {
		bits += int(spec.HuffmanCodeLens[s[i]])
	}
	hlen := (bits + 7) / 8
	if hlen >= len(s) && e.bug != AlwaysHuffman {
		dst = appendInt(dst, 0, 7, uint64(len(s)))
		return append(dst, s...)
	}
	dst = appendInt(dst, 0x80, 7, uint64(hlen))
	wrong, hasWrong := e.bug.huffmanOctet()
	var acc uint64
	var nbits uint
	for i := 0; i < len(s); i++ {
		code := spec.HuffmanCodes[s[i]]
		if hasWrong && s[i] == wrong {
			code ^= 1
		}
		acc = acc<<spec.HuffmanCodeLens[s[i]] | uint64(code)
		nbits += uint(spec.HuffmanCodeLens[s[i]])
		for nbits >= 8 {
			nbits -= 8
			dst = append(dst, byte(acc>>nbits))
		}
	}
	if nbits > 0 {
		pad := uint64(1)<<(8-nbits) - 1
		if e.bug == HuffmanZeroPadding {
			pad = 0
		}
		dst = append(dst, byte(acc<<(8-nbits)|pad))
	}
	return dst
}
