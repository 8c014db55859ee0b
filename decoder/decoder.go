package decoder

import "github.com/hpackcert/hpackcert/internal/spec"

// DefaultMaxStringLength is the longest string literal, in decoded octets,
// a Decoder accepts when Config.MaxStringLength is 0.
const DefaultMaxStringLength = 16 << 10

// maxTableSize is the most octets of entries (RFC 7541 §4.1 sizes) a
// table holds, 1 GiB, so that arena offsets fit in 32 bits: a larger
// setting or size update is accepted, and entries past 1 GiB evicted.
const maxTableSize = 1 << 30

// Config configures a Decoder.
type Config struct {
	// TableSize is the SETTINGS_HEADER_TABLE_SIZE this endpoint sent and
	// the peer acknowledged: the largest dynamic table size (RFC 7541
	// §4.2) a size update may set. New allocates the memory a table of
	// that size needs (of 1 GiB at most). Zero means
	// spec.DefaultTableSize.
	TableSize uint32
	// Capacity is the table size New allocates memory for when larger
	// than TableSize, so that later settings up to it never allocate
	// (the encoder's Config.Capacity is its twin). Above it the table's
	// memory grows as entries need it.
	Capacity uint32
	// MaxStringLength bounds every string literal, in decoded octets,
	// and the wire octets of a Huffman coded one. Zero means
	// DefaultMaxStringLength.
	MaxStringLength int
	// MaxHeaderListSize bounds the header list a block decodes to, in
	// the octets RFC 9113 §6.5.2 counts: each field's name and value
	// plus 32. Decode checks it before it hands out or inserts a field,
	// so no block costs more whatever entries it references. Zero means
	// no bound.
	MaxHeaderListSize uint32
	// Scratch, when set, is the room the decoder decodes Huffman coded
	// strings into, shared with other decoders that never decode at the
	// same time (the connections one event loop serves): each then
	// allocates only its dynamic table. Nil gives the decoder its own.
	Scratch *Scratch
}

// Decoder holds the decoding context of one HTTP/2 connection's header
// blocks. It is not safe for concurrent use.
type Decoder struct {
	table     dynamicTable
	maxString int
	maxList   uint64 // 0 for none
	// acked is the acknowledged SETTINGS_HEADER_TABLE_SIZE, the bound of
	// a size update; minAcked the smallest since the last block began,
	// which that block's first size update must not exceed (§4.2).
	acked, minAcked uint32
	// scratch holds the current field's decoded strings.
	scratch *Scratch
	// cfg is what New was given, for Reset.
	cfg Config
	// block is the state of the header block being decoded.
	block blockState
	// err is the error Decode returns, so that returning one allocates
	// nothing.
	err Error
}

// staticNames and staticValues are the static table (RFC 7541 Appendix A)
// as byte slices, indexed by RFC index, so that a static reference hands
// out views without converting a string.
var staticNames, staticValues [spec.StaticTableLen + 1][]byte

func init() {
	for i, f := range spec.StaticTable {
		staticNames[i+1] = []byte(f.Name)
		staticValues[i+1] = []byte(f.Value)
	}
}

// New returns a Decoder with an empty dynamic table whose maximum size is
// cfg's TableSize. It allocates all the memory the decoder will use: the
// table's arena and ring, and, unless cfg.Scratch is given, room for one
// field's decoded strings.
func New(cfg Config) *Decoder {
	size := cfg.tableSize()
	scratch := cfg.Scratch
	if scratch == nil {
		scratch = NewScratch(cfg.MaxStringLength)
	} else {
		scratch.fit(cfg.MaxStringLength)
	}
	d := &Decoder{
		cfg:       cfg,
		table:     newTable(min(max(size, cfg.Capacity), maxTableSize)),
		acked:     size,
		minAcked:  size,
		maxString: stringBound(cfg.MaxStringLength),
		maxList:   uint64(cfg.MaxHeaderListSize),
		scratch:   scratch,
	}
	d.table.clear(size)
	return d
}

// tableSize returns the table size c stands for.
func (c Config) tableSize() uint32 {
	if c.TableSize == 0 {
		return spec.DefaultTableSize
	}
	return c.TableSize
}

// Reset returns the decoder to the state New left it in, for a new
// connection: an empty dynamic table of Config.TableSize and the limits
// of its Config, keeping its memory. It allocates nothing.
func (d *Decoder) Reset() {
	size := d.cfg.tableSize()
	d.table.clear(size)
	d.acked, d.minAcked = size, size
	d.maxString = stringBound(d.cfg.MaxStringLength)
	d.maxList = uint64(d.cfg.MaxHeaderListSize)
	d.block = blockState{}
}

// SetTableSize tells the decoder that the peer acknowledged a new
// SETTINGS_HEADER_TABLE_SIZE of n octets:
// size updates up to n are valid from the next block on, and if n is
// below the table's maximum size, the next block must begin with a size
// update to at most the smallest setting acknowledged since the last
// block (RFC 7541 §4.2, RFC 9113 §4.3.1). It allocates nothing: after a
// setting above Config.TableSize, the table's memory grows in Decode when
// the peer's entries fill what New allocated, doubling up to the maximum
// size (1.5 times it), so that memory follows the octets the peer sent,
// not a setting.
func (d *Decoder) SetTableSize(n uint32) {
	d.acked = n
	d.minAcked = min(d.minAcked, n)
}

// Decode decodes one header block (RFC 7541 §3) and calls emit, which must
// not be nil, for each
// field in order, sensitive set for a field that arrived "Never Indexed"
// (§6.2.3). The name and value emit receives are views into block, into
// the dynamic table or into the decoder's own memory: they are valid
// until emit returns, and emit must not modify them. An error from emit
// stops decoding and is returned as is; an error in block is an *Error
// naming its offset in block and the rule it broke, owned by the decoder
// and valid until the next call (Decode allocates none). After an error the
// decoding context is unusable (the connection must be closed, RFC 9113
// §4.3).
func (d *Decoder) Decode(block []byte, emit func(name, value []byte, sensitive bool) error) error {
	d.BeginBlock()
	_, err := d.DecodeFragment(block, true, emit)
	return err
}

// blockState is what decoding a header block carries from one fragment
// to the next.
type blockState struct {
	// fieldSeen is set once a field has been decoded: a size update
	// after it is an error (§4.2).
	fieldSeen bool
	// mustUpdate is set while the block owes the size update that a
	// setting lowered below the table's maximum size requires, to at
	// most minAcked.
	mustUpdate bool
	minAcked   uint32
	// listSize is the RFC 9113 §6.5.2 size of the fields so far.
	listSize uint64
}

// BeginBlock starts a header block that DecodeFragment will be given in
// pieces. Decode calls it itself.
func (d *Decoder) BeginBlock() {
	// A setting lowered below the table's maximum size since the last
	// block must be signaled first thing in this one (§4.2).
	d.block = blockState{minAcked: d.minAcked, mustUpdate: d.minAcked < d.table.maxSize}
	d.minAcked = d.acked
}

// DecodeFragment decodes the fields of frag, the next piece of the block
// BeginBlock started, as Decode does, and returns how many of its octets
// it consumed. When final is false, a field cut by the end of frag is not
// an error: DecodeFragment stops before it, and the caller passes its
// octets again at the start of the next fragment (with the rest of the
// field); they are counted in offsets from there. When final is true,
// frag ends the block: a cut field or a missing required size update is
// an error. Offsets in errors are counted from the start of frag.
func (d *Decoder) DecodeFragment(frag []byte, final bool, emit func(name, value []byte, sensitive bool) error) (int, error) {
	block := frag
	st := d.block
	for i := 0; i < len(block); {
		b := block[i]
		start := i
		var idx uint32
		var err error
		if st.mustUpdate && b&0xe0 != 0x20 {
			return start, d.err.set(start, RuleSizeUpdateMissing)
		}
		switch {
		case b&0x80 != 0: // Indexed Header Field (§6.1)
			if b != 0xff {
				idx, i = uint32(b&0x7f), i+1
			} else if idx, i, err = decodeInt(block, i, 7, &d.err); err != nil {
				return d.cut(start, final, st, err)
			}
			name, value, err := d.lookup(idx, start)
			if err != nil {
				return start, err
			}
			if st.listSize, err = d.count(st.listSize, name, value, start); err != nil {
				return start, err
			}
			if err := emit(name, value, false); err != nil {
				return start, err
			}
			st.fieldSeen = true
			continue
		case b&0xe0 == 0x20: // Dynamic Table Size Update (§6.3)
			if st.fieldSeen {
				return start, d.err.set(start, RuleSizeUpdatePlace)
			}
			if idx, i, err = decodeInt(block, i, 5, &d.err); err != nil {
				return d.cut(start, final, st, err)
			}
			// Above the setting breaks §6.3 whatever else the block owes;
			// within it but above the smallest setting since the last
			// block, the update owed (§4.2) is still missing.
			if idx > d.acked {
				return start, d.err.set(start, RuleSizeUpdateLimit)
			}
			if st.mustUpdate && idx > st.minAcked {
				return start, d.err.set(start, RuleSizeUpdateMissing)
			}
			st.mustUpdate = false
			d.table.setMaxSize(idx)
			continue
		}
		// A literal (§6.2): with incremental indexing (01, 6-bit index),
		// without indexing (0000) or never indexed (0001), 4-bit index.
		indexing := b&0x40 != 0
		prefix := uint8(4)
		if indexing {
			prefix = 6
		}
		if mask := byte(1)<<prefix - 1; b&mask != mask {
			idx, i = uint32(b&mask), i+1
		} else if idx, i, err = decodeInt(block, i, prefix, &d.err); err != nil {
			return d.cut(start, final, st, err)
		}
		var name, value []byte
		if idx == 0 {
			if name, i, err = d.readString(block, i, d.scratch.names); err != nil {
				return d.cut(start, final, st, err)
			}
		} else {
			if name, _, err = d.lookup(idx, start); err != nil {
				return start, err
			}
			if indexing && idx > spec.StaticTableLen {
				// Inserting may evict and overwrite the entry the
				// name is read from.
				name = d.scratch.names[:copy(d.scratch.names, name)]
			}
		}
		if value, i, err = d.readString(block, i, d.scratch.values); err != nil {
			return d.cut(start, final, st, err)
		}
		if st.listSize, err = d.count(st.listSize, name, value, start); err != nil {
			return start, err
		}
		if indexing {
			d.table.add(name, value)
		}
		if err := emit(name, value, !indexing && b&0x10 != 0); err != nil {
			return start, err
		}
		st.fieldSeen = true
	}
	if final && st.mustUpdate {
		return len(block), d.err.set(len(block), RuleSizeUpdateMissing)
	}
	d.block = st
	return len(block), nil
}

// cut handles err, met while decoding the representation at offset start:
// when the fragment is not the block's last and err says the
// representation runs past its end, decoding stops before it without an
// error, keeping the block's state st.
func (d *Decoder) cut(start int, final bool, st blockState, err error) (int, error) {
	if !final && err == &d.err && (d.err.Rule == RuleIntegerTruncated || d.err.Rule == RuleStringTruncated) {
		d.block = st
		return start, nil
	}
	return start, err
}

// count adds the field's RFC 9113 §6.5.2 size to listSize, the size of
// the block's fields so far, and checks the header list size limit; at is
// the offset of the field's representation, for the error.
func (d *Decoder) count(listSize uint64, name, value []byte, at int) (uint64, error) {
	listSize += uint64(len(name)) + uint64(len(value)) + spec.EntryOverhead
	if d.maxList != 0 && listSize > d.maxList {
		return listSize, d.err.set(at, RuleHeaderListSize)
	}
	return listSize, nil
}

// lookup returns the name and value of the entry of RFC index idx (§2.3.3),
// the static table's or the dynamic table's; at is the offset of the
// representation, for the error.
func (d *Decoder) lookup(idx uint32, at int) (name, value []byte, err error) {
	switch {
	case idx == 0:
		return nil, nil, d.err.set(at, RuleIndexZero)
	case idx <= spec.StaticTableLen:
		return staticNames[idx], staticValues[idx], nil
	case idx-spec.StaticTableLen-1 < d.table.len():
		name, value = d.table.field(idx - spec.StaticTableLen - 1)
		return name, value, nil
	}
	return nil, nil, d.err.set(at, RuleIndexRange)
}

// readString reads the string literal at block[i] (§5.2) and returns it
// with the offset past it: a view into block if it is raw, its decoding
// into room if it is Huffman coded.
func (d *Decoder) readString(block []byte, i int, room []byte) ([]byte, int, error) {
	start := i
	if i >= len(block) {
		return nil, i, d.err.set(i, RuleStringTruncated)
	}
	huffman := block[i]&0x80 != 0
	var n uint32
	if b := block[i] & 0x7f; b != 0x7f {
		n, i = uint32(b), i+1
	} else {
		var err error
		if n, i, err = decodeInt(block, i, 7, &d.err); err != nil {
			return nil, i, err
		}
	}
	if int64(n) > int64(d.maxString) {
		return nil, i, d.err.set(start, RuleStringTooLong)
	}
	if int(n) > len(block)-i {
		return nil, i, d.err.set(start, RuleStringTruncated)
	}
	s := block[i : i+int(n)]
	if !huffman {
		return s, i + int(n), nil
	}
	out, off, rule := appendHuffman(room[:0:len(room)], s, d.maxString)
	switch rule {
	case "":
	case RuleStringTooLong:
		return nil, i, d.err.set(start, rule)
	default:
		return nil, i, d.err.set(i+off, rule)
	}
	return out, i + int(n), nil
}
