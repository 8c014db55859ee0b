package strict

import (
	"fmt"
	"math"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// DecodeBlock decodes one complete header block and returns its fields in
// order. The first violation found is returned as an *Error; the decoder is
// then broken (see ErrBroken) and its table is left as it stood at the
// violation.
func (d *Decoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	if d.err != nil {
		return nil, fmt.Errorf("%w (first error: %v)", ErrBroken, d.err)
	}
	fields, err := d.decodeBlock(block)
	d.settingChanged = false
	if err != nil {
		d.err = err
		return nil, err
	}
	return fields, nil
}

// blockDecoder holds the position in one block being decoded.
type blockDecoder struct {
	d        *Decoder
	block    []byte
	pos      int
	listSize uint64 // header list size so far: name + value + 32 per field
}

func (d *Decoder) decodeBlock(block []byte) ([]oracle.Field, error) {
	d.updates = d.updates[:0]
	d.warnings = d.warnings[:0]
	d.table.events = TableEvents{}
	b := &blockDecoder{d: d, block: block}
	if err := b.sizeUpdates(); err != nil {
		return nil, err
	}
	var fields []oracle.Field
	for b.pos < len(block) {
		f, err := b.field()
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// sizeUpdates reads the dynamic table size updates at the start of the
// block (RFC 7541 §6.3) and checks them against the settings history
// (§4.2; rules (a), (b) and (c) of the package doc).
func (b *blockDecoder) sizeUpdates() error {
	d := b.d
	maxBefore := d.table.maxSize
	smallest := uint32(math.MaxUint32)
	for b.pos < len(b.block) && b.block[b.pos]&0xe0 == 0x20 {
		start := b.pos
		size, err := b.integer(5)
		if err != nil {
			return err
		}
		if size > uint64(d.acked) {
			return &Error{start, "6.3", fmt.Sprintf("dynamic table size update to %d exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE %d", size, d.acked)}
		}
		if len(d.updates) == 2 {
			d.warnings = append(d.warnings, Warning{start, "4.2", "more than two dynamic table size updates at the start of the block; the smallest size and the final size need at most two"})
		}
		d.updates = append(d.updates, uint32(size))
		smallest = min(smallest, uint32(size))
		d.table.setMaxSize(uint32(size))
	}
	if len(d.updates) >= 2 && d.updates[0] != smallest {
		d.warnings = append(d.warnings, Warning{0, "4.2", fmt.Sprintf("the first dynamic table size update (%d) is not the smallest (%d); §4.2 signals the smallest size first, then the final size", d.updates[0], smallest)})
	}
	if !d.settingChanged || d.minAcked >= maxBefore {
		return nil
	}
	if len(d.updates) == 0 {
		return &Error{0, "4.2", fmt.Sprintf("the acknowledged SETTINGS_HEADER_TABLE_SIZE went down to %d, below the table's maximum size %d, since the last block, so this block must begin with a dynamic table size update to at most %d", d.minAcked, maxBefore, d.minAcked)}
	}
	if first := d.updates[0]; first > d.minAcked {
		return &Error{0, "4.2", fmt.Sprintf("the acknowledged SETTINGS_HEADER_TABLE_SIZE went down to %d since the last block, but the first dynamic table size update of this block is %d; the smallest size in the interval must be signaled first", d.minAcked, first)}
	}
	return nil
}

// field decodes one header field representation (RFC 7541 §6).
func (b *blockDecoder) field() (oracle.Field, error) {
	start := b.pos
	first := b.block[start]
	switch {
	case first&0x80 != 0: // 1xxxxxxx: Indexed Header Field (§6.1)
		index, err := b.integer(7)
		if err != nil {
			return oracle.Field{}, err
		}
		if index == 0 {
			return oracle.Field{}, &Error{start, "6.1", "index 0 is not used"}
		}
		f, err := b.lookup(start, index)
		if err != nil {
			return oracle.Field{}, err
		}
		return b.emit(start, f, false)
	case first&0xc0 == 0x40: // 01xxxxxx: with Incremental Indexing (§6.2.1)
		f, err := b.literal(6)
		if err != nil {
			return oracle.Field{}, err
		}
		b.d.table.add(f)
		return b.emit(start, f, false)
	case first&0xe0 == 0x20: // 001xxxxx: Dynamic Table Size Update (§6.3)
		return oracle.Field{}, &Error{start, "4.2", "dynamic table size update after a header field representation; updates must come at the beginning of the block"}
	case first&0xf0 == 0x10: // 0001xxxx: Never Indexed (§6.2.3)
		f, err := b.literal(4)
		if err != nil {
			return oracle.Field{}, err
		}
		return b.emit(start, f, true)
	default: // 0000xxxx: without Indexing (§6.2.2)
		f, err := b.literal(4)
		if err != nil {
			return oracle.Field{}, err
		}
		return b.emit(start, f, false)
	}
}

// literal decodes a literal header field representation whose name index
// has an n-bit prefix (§6.2): a name index or 0 followed by a name string,
// then a value string.
func (b *blockDecoder) literal(n int) (spec.Field, error) {
	start := b.pos
	index, err := b.integer(n)
	if err != nil {
		return spec.Field{}, err
	}
	var f spec.Field
	if index == 0 {
		if f.Name, err = b.str(); err != nil {
			return spec.Field{}, err
		}
	} else {
		named, err := b.lookup(start, index)
		if err != nil {
			return spec.Field{}, err
		}
		f.Name = named.Name
	}
	if f.Value, err = b.str(); err != nil {
		return spec.Field{}, err
	}
	return f, nil
}

// lookup returns the entry at index in the index address space of §2.3.3:
// 1 to 61 is the static table, 62 onwards the dynamic table, newest first.
// The representation at fault starts at offset.
func (b *blockDecoder) lookup(offset int, index uint64) (spec.Field, error) {
	if index >= 1 && index <= spec.StaticTableLen {
		return spec.StaticTable[index-1], nil
	}
	dynamic := index - spec.StaticTableLen - 1
	if index > spec.StaticTableLen && dynamic < uint64(b.d.table.len()) {
		return b.d.table.entry(int(dynamic)), nil
	}
	return spec.Field{}, &Error{offset, "2.3.3", fmt.Sprintf("index %d is past the end of the index address space (%d static and %d dynamic entries)", index, spec.StaticTableLen, b.d.table.len())}
}

// emit counts f against the header-list limit and returns it as a decoded
// field.
func (b *blockDecoder) emit(offset int, f spec.Field, neverIndexed bool) (oracle.Field, error) {
	b.listSize += entrySize(f)
	if limit := b.d.maxHeaderListSize; limit > 0 && b.listSize > uint64(limit) {
		return oracle.Field{}, &Error{offset, "7.3", fmt.Sprintf("decoded header list reaches %d octets (name + value + 32 per field), over the limit of %d set by SetMaxHeaderListSize; this limit is the HPACK-bomb defence, not an RFC 7541 rule", b.listSize, limit)}
	}
	return oracle.Field{Name: f.Name, Value: f.Value, Sensitive: neverIndexed}, nil
}

// maxContinuationOctets is the most continuation octets an integer may
// have: five carry 35 bits, enough for any value below 2^32 whatever the
// prefix. §5.1 lets a decoder limit integers "in value or octet length".
const maxContinuationOctets = 5

// integer decodes an integer with an n-bit prefix (RFC 7541 §5.1) at the
// current position; the bits above the prefix belong to the caller.
func (b *blockDecoder) integer(n int) (uint64, error) {
	start := b.pos
	prefixMax := uint64(1)<<uint(n) - 1
	value := uint64(b.block[b.pos]) & prefixMax
	b.pos++
	if value < prefixMax {
		return value, nil
	}
	for octets := 1; ; octets++ {
		if b.pos >= len(b.block) {
			return 0, &Error{start, "5.1", "integer is cut off by the end of the block"}
		}
		if octets > maxContinuationOctets {
			return 0, &Error{start, "5.1", fmt.Sprintf("integer has more than %d continuation octets, more than any value below 2^32 needs", maxContinuationOctets)}
		}
		octet := b.block[b.pos]
		b.pos++
		value += uint64(octet&0x7f) << uint(7*(octets-1))
		if value > math.MaxUint32 {
			return 0, &Error{start, "5.1", "integer exceeds 2^32-1, the limit of this decoder"}
		}
		if octet&0x80 == 0 {
			return value, nil
		}
	}
}

// str decodes a string literal (RFC 7541 §5.2) at the current position.
func (b *blockDecoder) str() (string, error) {
	start := b.pos
	if start >= len(b.block) {
		return "", &Error{start, "5.2", "string literal expected, but the block ends"}
	}
	huffman := b.block[start]&0x80 != 0
	length, err := b.integer(7)
	if err != nil {
		return "", err
	}
	if left := uint64(len(b.block) - b.pos); length > left {
		return "", &Error{start, "5.2", fmt.Sprintf("string length %d runs past the end of the block (%d octets left)", length, left)}
	}
	data := b.block[b.pos : b.pos+int(length)]
	dataStart := b.pos
	b.pos += int(length)
	if !huffman {
		return string(data), nil
	}
	decoded, herr := decodeHuffman(data)
	if herr != nil {
		return "", &Error{dataStart + herr.octet, "5.2", herr.reason}
	}
	return string(decoded), nil
}
