package certify

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The wire walker splits a header block into its representations without
// decoding fields against a table. It keeps what the decoders throw away:
// whether each integer used the fewest octets, whether each string was
// Huffman-coded and how its last octet was padded. The checks of §5.1 and
// §5.2 need exactly that, and the oracles cannot report it.

// repKind is the kind of a representation in a header block (RFC 7541 §6).
type repKind uint8

const (
	repIndexed         repKind = iota // §6.1 Indexed Header Field
	repIncremental                    // §6.2.1 Literal Header Field with Incremental Indexing
	repWithoutIndexing                // §6.2.2 Literal Header Field without Indexing
	repNeverIndexed                   // §6.2.3 Literal Header Field Never Indexed
	repSizeUpdate                     // §6.3 Dynamic Table Size Update
)

var repKindNames = [...]string{
	repIndexed:         "indexed (§6.1)",
	repIncremental:     "literal with incremental indexing (§6.2.1)",
	repWithoutIndexing: "literal without indexing (§6.2.2)",
	repNeverIndexed:    "literal never indexed (§6.2.3)",
	repSizeUpdate:      "dynamic table size update (§6.3)",
}

func (k repKind) String() string { return repKindNames[k] }

// wireInt is one integer as it was encoded (RFC 7541 §5.1).
type wireInt struct {
	offset  int
	value   uint64
	minimal bool // no redundant trailing continuation octet
}

// wireString is one string literal as it was encoded (RFC 7541 §5.2).
type wireString struct {
	length  wireInt
	huffman bool
	encoded int    // octets on the wire after the length
	text    string // decoded octets (for Huffman, as far as decoding got)
	// padding problems of a Huffman string; empty when it is well formed.
	padErr string
}

// representation is one entry of a header block.
type representation struct {
	kind   repKind
	offset int
	index  wireInt     // the index, name index (0: literal name) or new size
	name   *wireString // nil when the name is indexed
	value  *wireString // nil for indexed fields and size updates
}

// walkError reports a block the walker could not split.
type walkError struct {
	offset int
	reason string
}

func (e *walkError) Error() string {
	return fmt.Sprintf("hpack: offset %d: %s", e.offset, e.reason)
}

// walkBlock splits block into its representations.
func walkBlock(block []byte) ([]representation, error) {
	var reps []representation
	for p := 0; p < len(block); {
		b := block[p]
		rep := representation{offset: p}
		var prefix uint8
		switch {
		case b&0x80 != 0:
			rep.kind, prefix = repIndexed, 7
		case b&0xc0 == 0x40:
			rep.kind, prefix = repIncremental, 6
		case b&0xe0 == 0x20:
			rep.kind, prefix = repSizeUpdate, 5
		case b&0xf0 == 0x10:
			rep.kind, prefix = repNeverIndexed, 4
		default:
			rep.kind, prefix = repWithoutIndexing, 4
		}
		var err error
		if rep.index, p, err = readInt(block, p, prefix); err != nil {
			return reps, err
		}
		if rep.kind != repIndexed && rep.kind != repSizeUpdate {
			if rep.index.value == 0 {
				if rep.name, p, err = readString(block, p); err != nil {
					return reps, err
				}
			}
			if rep.value, p, err = readString(block, p); err != nil {
				return reps, err
			}
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// readInt reads an integer with an n-bit prefix starting at block[p]
// (RFC 7541 §5.1) and returns it with the offset after it.
func readInt(block []byte, p int, n uint8) (wireInt, int, error) {
	w := wireInt{offset: p, minimal: true}
	mask := uint64(1)<<n - 1
	w.value = uint64(block[p]) & mask
	p++
	if w.value < mask {
		return w, p, nil
	}
	var shift uint
	for continuation := 0; ; continuation++ {
		if p >= len(block) {
			return w, p, &walkError{w.offset, "integer runs past the end of the block"}
		}
		if shift > 56 {
			return w, p, &walkError{w.offset, "integer longer than 64 bits"}
		}
		b := block[p]
		p++
		w.value += uint64(b&0x7f) << (shift & 63)
		shift += 7
		if b&0x80 == 0 {
			// A last continuation octet of zero adds nothing, except when it
			// is the only one (the value is exactly 2^n-1).
			w.minimal = b != 0 || continuation == 0
			return w, p, nil
		}
	}
}

// readString reads a string literal starting at block[p] (RFC 7541 §5.2).
func readString(block []byte, p int) (*wireString, int, error) {
	if p >= len(block) {
		return nil, p, &walkError{p, "block ends before a string literal"}
	}
	s := &wireString{huffman: block[p]&0x80 != 0}
	var err error
	if s.length, p, err = readInt(block, p, 7); err != nil {
		return nil, p, err
	}
	if s.length.value > uint64(len(block)-p) {
		return nil, p, &walkError{s.length.offset, fmt.Sprintf("string of %d octets runs past the end of the block (%d left)", s.length.value, len(block)-p)}
	}
	raw := block[p : p+int(s.length.value)]
	s.encoded = len(raw)
	if s.huffman {
		s.text, s.padErr = huffmanDecode(raw)
	} else {
		s.text = string(raw)
	}
	return s, p + len(raw), nil
}

// huffmanTree is the code of RFC 7541 Appendix B as a binary tree: node i
// has children huffmanTree[i][0] and [1]; a negative child -1-s is a leaf
// for symbol s.
var huffmanTree = buildHuffmanTree()

func buildHuffmanTree() [][2]int32 {
	tree := make([][2]int32, 1, 2*spec.EOS)
	for sym := 0; sym <= spec.EOS; sym++ {
		code, n := spec.HuffmanCodes[sym], spec.HuffmanCodeLens[sym]
		node := 0
		for i := int(n) - 1; i > 0; i-- {
			bit := code >> uint(i) & 1
			if tree[node][bit] == 0 {
				tree = append(tree, [2]int32{})
				tree[node][bit] = int32(len(tree) - 1)
			}
			node = int(tree[node][bit])
		}
		tree[node][code&1] = int32(-1 - sym)
	}
	return tree
}

// huffmanDecode decodes a Huffman-coded string and checks its padding
// (RFC 7541 §5.2): the bits after the last symbol must be fewer than 8 and
// all ones, a prefix of EOS, and EOS itself must not appear. It returns the
// octets decoded and a description of the first problem, or "".
func huffmanDecode(raw []byte) (string, string) {
	out := make([]byte, 0, len(raw)*8/5)
	node, pending, ones := 0, 0, true
	for i, b := range raw {
		for bit := 7; bit >= 0; bit-- {
			v := b >> uint(bit) & 1
			pending++
			ones = ones && v == 1
			next := huffmanTree[node][v]
			switch {
			case next < 0 && -1-next == spec.EOS:
				return string(out), fmt.Sprintf("EOS symbol inside the string at octet %d", i)
			case next < 0:
				out = append(out, byte(-1-next))
				node, pending, ones = 0, 0, true
			case next == 0:
				return string(out), fmt.Sprintf("invalid code at octet %d", i)
			default:
				node = int(next)
			}
		}
	}
	switch {
	case pending > 7:
		return string(out), fmt.Sprintf("%d bits of padding (at most 7 allowed)", pending)
	case !ones && pending == 1:
		return string(out), "padding of 1 bit is not a one (not a prefix of EOS)"
	case !ones:
		return string(out), fmt.Sprintf("padding of %d bits is not all ones (not a prefix of EOS)", pending)
	}
	return string(out), ""
}

// huffmanLen returns the length in octets of s Huffman-coded.
func huffmanLen(s string) int {
	bits := 0
	for i := 0; i < len(s); i++ {
		bits += int(spec.HuffmanCodeLens[s[i]])
	}
	return (bits + 7) / 8
}
