package broken

import (
	"fmt"
	"math"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
)

// Decoder is the broken decoder: one HPACK decoding context with a set of
// planted bugs. Without bugs it accepts and refuses exactly what
// oracle/strict does, with the same fields and table, written apart from
// it: the same settings history (a lowered setting needs an update to at
// most the smallest value, every update at most the last), the same limit
// of five continuation octets per integer, the header list counted as
// name + value + 32 per field. It implements certify.Decoder and
// certify.DecoderTableReader.
type Decoder struct {
	bugs  DecoderBugs
	table decoderTable

	acked          uint32 // last acknowledged SETTINGS_HEADER_TABLE_SIZE
	smallestAcked  uint32 // smallest acknowledged since the last block
	settingChanged bool
	listLimit      uint32 // SETTINGS_MAX_HEADER_LIST_SIZE; 0: none

	err error // first refusal; the context is dead after it
}

// DecodeError is a block the broken decoder refused: the offset of the
// octet at fault, the RFC 7541 section and what was wrong.
type DecodeError struct {
	Offset  int
	Section string
	Reason  string
	// truncated marks a block that ended inside an integer or before a
	// string literal, which AcceptTruncated takes for its end.
	truncated bool
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("broken decoder: offset %d: RFC 7541 §%s: %s", e.Offset, e.Section, e.Reason)
}

// maxContinuationOctets is the most continuation octets an integer may
// have: five carry 35 bits, enough for any value below 2^32 (§5.1 lets a
// decoder limit integers "in value or octet length").
const maxContinuationOctets = 5

// NewDecoder returns a fresh context with bugs: an empty table of 4096
// octets, an acknowledged setting of 4096, no header-list limit.
func NewDecoder(bugs DecoderBugs) *Decoder {
	return &Decoder{
		bugs:  bugs,
		table: decoderTable{maxSize: spec.DefaultTableSize, bugs: bugs},
		acked: spec.DefaultTableSize,
	}
}

func (d *Decoder) has(b DecoderBugs) bool { return d.bugs&b != 0 }

// SetMaxDynamicTableSize implements certify.Decoder: n is a
// SETTINGS_HEADER_TABLE_SIZE acknowledged before the next block.
func (d *Decoder) SetMaxDynamicTableSize(n uint32) error {
	if !d.settingChanged || n < d.smallestAcked {
		d.smallestAcked = n
	}
	d.settingChanged = true
	d.acked = n
	return nil
}

// SetMaxHeaderListSize implements certify.Decoder; 0 removes the limit.
func (d *Decoder) SetMaxHeaderListSize(n uint32) error {
	d.listLimit = n
	return nil
}

// DecoderTable implements certify.DecoderTableReader: the entries, newest
// first.
func (d *Decoder) DecoderTable() ([]certify.Field, error) {
	out := make([]certify.Field, len(d.table.entries))
	for i := range out {
		out[i] = d.table.entry(i)
	}
	return out, nil
}

// DecodeBlock implements certify.Decoder. Every refusal is a
// *certify.Rejection wrapping a *DecodeError; after one, every block is
// refused.
func (d *Decoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	if d.err != nil {
		return nil, certify.Reject(fmt.Errorf("broken decoder: context dead after an earlier error: %w", d.err))
	}
	b := &blockReader{d: d, block: block}
	fields, err := b.decode()
	d.settingChanged = false
	if err != nil {
		d.err = err
		return nil, certify.Reject(err)
	}
	return fields, nil
}

// blockReader is the position in one block being decoded.
type blockReader struct {
	d        *Decoder
	block    []byte
	pos      int
	listSize uint64
	fields   []certify.Field
}

func (b *blockReader) fail(offset int, section, format string, args ...any) error {
	return &DecodeError{Offset: offset, Section: section, Reason: fmt.Sprintf(format, args...)}
}

func (b *blockReader) decode() ([]certify.Field, error) {
	err := b.sizeUpdates()
	for err == nil && b.pos < len(b.block) {
		err = b.representation()
	}
	if de, ok := err.(*DecodeError); ok && de.truncated && b.d.has(AcceptTruncated) {
		return b.fields, nil
	}
	return b.fields, err
}

// sizeUpdates reads the dynamic table size updates that begin the block
// and checks them against the settings acknowledged since the last one
// (§4.2, §6.3).
func (b *blockReader) sizeUpdates() error {
	d := b.d
	maxBefore := d.table.maxSize
	updates := 0
	var first uint64
	for b.pos < len(b.block) && b.block[b.pos]&0xe0 == 0x20 {
		if err := b.sizeUpdate(); err != nil {
			return err
		}
		if updates == 0 {
			first = uint64(d.table.maxSize)
		}
		updates++
	}
	if !d.settingChanged || d.smallestAcked >= maxBefore || d.has(AcceptMissingUpdate) {
		return nil
	}
	if updates == 0 {
		return b.fail(0, "4.2", "the acknowledged setting went down to %d, below the table's maximum size %d, but the block does not begin with a dynamic table size update", d.smallestAcked, maxBefore)
	}
	if first > uint64(d.smallestAcked) {
		return b.fail(0, "4.2", "the acknowledged setting went down to %d, but the first dynamic table size update is %d", d.smallestAcked, first)
	}
	return nil
}

// sizeUpdate reads one "Dynamic Table Size Update" (§6.3) and applies it.
func (b *blockReader) sizeUpdate() error {
	start := b.pos
	size, err := b.integer(5)
	if err != nil {
		return err
	}
	if size > uint64(b.d.acked) && !b.d.has(AcceptUpdateAboveSetting) {
		return b.fail(start, "6.3", "dynamic table size update to %d is above the acknowledged setting %d", size, b.d.acked)
	}
	b.d.table.setMaxSize(uint32(min(size, math.MaxUint32)))
	return nil
}

// representation reads one header field representation (§6).
func (b *blockReader) representation() error {
	start := b.pos
	first := b.block[start]
	switch {
	case first&0x80 != 0: // Indexed Header Field (§6.1)
		index, err := b.integer(7)
		if err != nil {
			return err
		}
		if index == 0 {
			if !b.d.has(AcceptIndexZero) {
				return b.fail(start, "6.1", "index 0")
			}
			return b.emit(start, certify.Field{}, false)
		}
		f, err := b.lookup(start, index)
		if err != nil {
			return err
		}
		return b.emit(start, f, false)
	case first&0xc0 == 0x40: // Literal with Incremental Indexing (§6.2.1)
		nameIndex, f, err := b.literal(6)
		if err != nil {
			return err
		}
		if f, err = b.insert(start, nameIndex, f); err != nil {
			return err
		}
		return b.emit(start, f, false)
	case first&0xe0 == 0x20: // Dynamic Table Size Update (§6.3)
		if !b.d.has(AcceptLateSizeUpdate) {
			return b.fail(start, "4.2", "dynamic table size update after a header field representation")
		}
		return b.sizeUpdate()
	case first&0xf0 == 0x10: // Literal Never Indexed (§6.2.3)
		_, f, err := b.literal(4)
		if err != nil {
			return err
		}
		return b.emit(start, f, !b.d.has(LoseNeverIndexed))
	default: // Literal without Indexing (§6.2.2)
		_, f, err := b.literal(4)
		if err != nil {
			return err
		}
		return b.emit(start, f, false)
	}
}

// insert adds f, the field of a literal with incremental indexing whose
// name index is nameIndex (0 for a literal name), to the table (§4.4).
// With NameAfterEvict the name of a dynamic entry is looked up again
// after the eviction, and is empty if the eviction took it.
func (b *blockReader) insert(start int, nameIndex uint64, f certify.Field) (certify.Field, error) {
	t := &b.d.table
	size := t.entrySize(f)
	if size > uint64(t.maxSize) && b.d.has(OversizedEntryError) {
		return f, b.fail(start, "4.4", "entry of %d octets is larger than the table's maximum size %d", size, t.maxSize)
	}
	t.makeRoom(size)
	if b.d.has(NameAfterEvict) && nameIndex > spec.StaticTableLen && size <= uint64(t.maxSize) {
		named, err := b.lookup(start, nameIndex)
		if err != nil {
			named = certify.Field{}
		}
		f.Name = named.Name
	}
	t.add(f, size)
	return f, nil
}

// literal reads a literal header field representation whose name index
// has an n-bit prefix (§6.2): the name index (0: a name string follows)
// and the field.
func (b *blockReader) literal(n int) (uint64, certify.Field, error) {
	start := b.pos
	index, err := b.integer(n)
	if err != nil {
		return 0, certify.Field{}, err
	}
	var f certify.Field
	if index == 0 {
		if f.Name, err = b.str(); err != nil {
			return 0, certify.Field{}, err
		}
	} else {
		named, err := b.lookup(start, index)
		if err != nil {
			return 0, certify.Field{}, err
		}
		f.Name = named.Name
	}
	if f.Value, err = b.str(); err != nil {
		return 0, certify.Field{}, err
	}
	return index, f, nil
}

// lookup returns the entry at index of the index address space (§2.3.3):
// the static table at 1 to 61, the dynamic table from 62, newest first.
func (b *blockReader) lookup(start int, index uint64) (certify.Field, error) {
	if index >= 1 && index <= spec.StaticTableLen {
		f := spec.StaticTable[index-1]
		return certify.Field{Name: f.Name, Value: f.Value}, nil
	}
	i := index - spec.StaticTableLen - 1
	if b.d.has(DynamicIndexOffByOne) {
		i++
	}
	if i < uint64(len(b.d.table.entries)) {
		return b.d.table.entry(int(i)), nil
	}
	return certify.Field{}, b.fail(start, "2.3.3", "index %d is past the static table and the %d dynamic entries", index, len(b.d.table.entries))
}

// emit adds f to the block's header list, refusing the block once the
// list is over the limit (name + value + 32 per field, RFC 9113 §6.5.2).
func (b *blockReader) emit(start int, f certify.Field, neverIndexed bool) error {
	b.listSize += uint64(len(f.Name)) + uint64(len(f.Value)) + spec.EntryOverhead
	if limit := b.d.listLimit; limit != 0 && b.listSize > uint64(limit) && !b.d.has(IgnoreListLimit) {
		return b.fail(start, "7.3", "the header list reaches %d octets, over the SETTINGS_MAX_HEADER_LIST_SIZE of %d", b.listSize, limit)
	}
	if b.d.has(StripWhitespace) {
		f.Value = strings.Trim(f.Value, " \t")
	}
	f.Sensitive = neverIndexed
	b.fields = append(b.fields, f)
	return nil
}

// integer reads an integer with an n-bit prefix (§5.1); the bits above
// the prefix belong to the caller. It is wire.ReadInt with this decoder's
// limits: at most five continuation octets, and a value below 2^32.
func (b *blockReader) integer(n int) (uint64, error) {
	start := b.pos
	in, next, err := wire.ReadInt(b.block, start, uint8(n))
	if err != nil {
		// wire.ReadInt fails on a block that ends inside the integer, or
		// on an integer past 64 bits, which has too many octets anyway.
		if continuation := len(b.block) - start - 1; next >= len(b.block) && continuation <= maxContinuationOctets {
			return 0, &DecodeError{Offset: start, Section: "5.1", Reason: "the block ends inside an integer", truncated: true}
		}
		return 0, b.fail(start, "5.1", "integer of more than %d continuation octets", maxContinuationOctets)
	}
	b.pos = next
	if in.Octets-1 > maxContinuationOctets {
		return 0, b.fail(start, "5.1", "integer of more than %d continuation octets", maxContinuationOctets)
	}
	if in.Value > math.MaxUint32 {
		if !b.d.has(WrapIntegers) {
			return 0, b.fail(start, "5.1", "integer above 2^32-1")
		}
		return uint64(uint32(in.Value)), nil
	}
	return in.Value, nil
}

// str reads a string literal (§5.2), Huffman-coded or raw.
func (b *blockReader) str() (string, error) {
	start := b.pos
	if start >= len(b.block) {
		return "", &DecodeError{Offset: start, Section: "5.2", Reason: "the block ends before a string literal", truncated: true}
	}
	huffman := b.block[start]&0x80 != 0
	length, err := b.integer(7)
	if err != nil {
		return "", err
	}
	if left := uint64(len(b.block) - b.pos); length > left {
		return "", b.fail(start, "5.2", "string of %d octets runs past the end of the block (%d left)", length, left)
	}
	data := b.block[b.pos : b.pos+int(length)]
	dataStart := b.pos
	b.pos += int(length)
	if !huffman {
		return string(data), nil
	}
	text, at, problem := decodeHuffman(data, b.d.bugs)
	if problem != "" {
		return "", b.fail(dataStart+at, "5.2", "%s", problem)
	}
	return text, nil
}
