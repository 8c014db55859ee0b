package decoders

import (
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/wire"
)

// blockWriter writes the header blocks of the dec/ stories
// representation by representation, so that a story says on the wire
// exactly what its case tests. It writes with the encoder package's
// primitives (integers and Huffman code of RFC 7541 §5), which the enc/
// cases certify; the expected outcome of every block comes from the
// strict decoder, not from the writer.
type blockWriter struct{ b []byte }

func newBlock() *blockWriter { return &blockWriter{} }

// bytes returns the block written so far.
func (w *blockWriter) bytes() []byte { return w.b }

// raw appends octets as they are, for blocks no representation writer
// can produce (a cut integer, broken Huffman padding).
func (w *blockWriter) raw(octets ...byte) *blockWriter {
	w.b = append(w.b, octets...)
	return w
}

// indexed appends an indexed header field (§6.1).
func (w *blockWriter) indexed(i uint64) *blockWriter {
	w.b = encoder.AppendInteger(w.b, 0x80, 7, i)
	return w
}

// update appends a dynamic table size update (§6.3).
func (w *blockWriter) update(n uint64) *blockWriter {
	w.b = encoder.AppendInteger(w.b, 0x20, 5, n)
	return w
}

// literal appends a literal header field of kind (Incremental,
// WithoutIndexing or NeverIndexed): its name by index when nameIndex is
// not 0, else name as a literal; huffman Huffman-codes the strings.
func (w *blockWriter) literal(kind wire.Kind, nameIndex uint64, name, value string, huffman bool) *blockWriter {
	pattern, prefix := byte(0x00), uint8(4)
	switch kind {
	case wire.Incremental:
		pattern, prefix = 0x40, 6
	case wire.NeverIndexed:
		pattern = 0x10
	}
	w.b = encoder.AppendInteger(w.b, pattern, prefix, nameIndex)
	if nameIndex == 0 {
		w.str(name, huffman)
	}
	return w.str(value, huffman)
}

// insert, plain and never are literal for the three kinds, with a
// literal name and raw strings.
func (w *blockWriter) insert(name, value string) *blockWriter {
	return w.literal(wire.Incremental, 0, name, value, false)
}

func (w *blockWriter) plain(name, value string) *blockWriter {
	return w.literal(wire.WithoutIndexing, 0, name, value, false)
}

// str appends a string literal (§5.2).
func (w *blockWriter) str(s string, huffman bool) *blockWriter {
	if huffman {
		w.b = encoder.AppendInteger(w.b, 0x80, 7, uint64(wire.HuffmanLen(s)))
		w.b = encoder.AppendHuffmanString(w.b, s)
		return w
	}
	w.b = encoder.AppendInteger(w.b, 0x00, 7, uint64(len(s)))
	w.b = append(w.b, s...)
	return w
}
