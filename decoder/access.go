package decoder

// SetMaxHeaderListSize sets the RFC 9113 §6.5.2 limit Config.MaxHeaderListSize
// describes, from the next field on; 0 removes it.
func (d *Decoder) SetMaxHeaderListSize(n uint32) { d.maxList = uint64(n) }

// SetMaxStringLength sets the bound Config.MaxStringLength describes (n <=
// 0 means DefaultMaxStringLength). It allocates only when n is longer than
// every bound the decoder's Scratch has had memory for.
func (d *Decoder) SetMaxStringLength(n int) {
	d.maxString = stringBound(n)
	d.scratch.fit(n)
}

// stringBound returns the string length bound n <= 0 stands for.
func stringBound(n int) int {
	if n <= 0 {
		return DefaultMaxStringLength
	}
	return n
}

// Scratch is the room a Decoder decodes one field's Huffman coded name and
// value into, and copies a dynamic table name into when inserting the
// field could evict the entry it names. A field's strings live there only
// until emit returns, so decoders that never decode at the same time may
// share one (Config.Scratch): a connection then costs only its dynamic
// table. A Scratch is not safe for concurrent use.
type Scratch struct {
	// names and values are as long as their capacities; each use
	// reslices them from 0.
	names, values []byte
}

// NewScratch returns room for strings of up to maxStringLength decoded
// octets (<= 0 means DefaultMaxStringLength), twice (name and value), and
// huffSlack more each for the Huffman decoder's writes ahead.
func NewScratch(maxStringLength int) *Scratch {
	room := stringBound(maxStringLength) + huffSlack
	return &Scratch{names: make([]byte, room), values: make([]byte, room)}
}

// fit grows s, if needed, for strings of up to n octets (n <= 0 meaning
// DefaultMaxStringLength). A dynamic table name was read as a string
// under some earlier bound, and s never shrinks, so its copy always fits.
func (s *Scratch) fit(n int) {
	if room := stringBound(n) + huffSlack; room > len(s.values) {
		s.values = make([]byte, room)
		s.names = make([]byte, max(room, len(s.names)))
	}
}

// huffmanRoom is the room the Huffman decoding of a string of n wire
// octets takes when at most limit octets of it are kept (limit < 0: no
// limit): no code is shorter than 5 bits, so at most 8n/5 octets, and
// huffSlack more for the decoder's writes ahead and past the limit.
func huffmanRoom(n, limit int) int {
	if limit >= 0 {
		n = min(n*8/5, limit)
	} else {
		n = n * 8 / 5
	}
	return n + huffSlack
}

// huffSlack is the room appendHuffman needs past the octets it keeps: it
// writes ahead, and finds a decoding too long only at its checks (see
// appendHuffman).
const huffSlack = 32

// TableLen returns the number of entries in the dynamic table.
func (d *Decoder) TableLen() int { return int(d.table.len()) }

// TableEntry returns the name and value of the dynamic table entry at
// 0-based position i, 0 being the newest (RFC index 62); i must be below
// TableLen. The views are valid until the next call that decodes or
// changes the table, and must not be modified.
func (d *Decoder) TableEntry(i int) (name, value []byte) {
	return d.table.field(uint32(i))
}

// TableSize returns the dynamic table's size (RFC 7541 §4.1) and its
// current maximum size (§4.2).
func (d *Decoder) TableSize() (size, maxSize uint32) { return d.table.size, d.table.maxSize }

// AppendHuffman appends the decoding of the Huffman string src (RFC 7541
// §5.2) to dst, as Decode decodes a Huffman coded literal: strictly, an
// EOS symbol, padding longer than 7 bits or padding that is not all ones
// being an *Error naming the offset in src where it starts. It allocates
// only to grow dst, and for an error.
func AppendHuffman(dst, src []byte) ([]byte, error) {
	if need := len(dst) + huffmanRoom(len(src), -1); cap(dst) < need {
		dst = append(dst[:cap(dst)], make([]byte, need-cap(dst))...)[:len(dst)]
	}
	out, off, rule := appendHuffman(dst, src, -1)
	if rule != "" {
		return out, &Error{Offset: off, Rule: rule}
	}
	return out, nil
}
