package wire

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The Huffman decoder is a state machine that reads the code of RFC 7541
// Appendix B four bits at a time. Its states are the internal nodes of the
// code's binary tree, the root (state 0) being "between symbols"; a
// transition follows four bits from a node and emits the symbol of the
// leaf it passes, if any. No code is shorter than five bits, so four bits
// complete at most one symbol. A state's depth is the number of bits read
// since the last symbol: at the end of a string, they are its padding.

// huffmanStep is the transition from one state on one nibble.
type huffmanStep struct {
	next uint8 // the state after the nibble
	sym  uint8 // the symbol the nibble completes, when emit is 1
	emit uint8 // 1 when the nibble completes a symbol other than EOS, else 0
	stop uint8 // stopEOS or stopInvalid when decoding ends on this nibble
}

// Why decoding ends early.
const (
	stopEOS     = 1 + iota // the nibble completes EOS
	stopInvalid            // the nibble leaves the tree: no code starts with these bits
)

// huffmanDecoder holds the state machine of a Huffman code.
type huffmanDecoder struct {
	steps [256][16]huffmanStep
	// depth[s] is the number of bits read since the last symbol in state
	// s, and ones[s] whether they are all ones (a prefix of EOS).
	depth [256]uint8
	ones  [256]bool
}

// huffman decodes the code of RFC 7541 Appendix B. Building it takes a few
// microseconds.
var huffman = newHuffmanDecoder(&spec.HuffmanCodes, &spec.HuffmanCodeLens)

// newHuffmanDecoder builds the state machine of a prefix code of 257
// symbols, spec.EOS being EOS: codes[s] holds the code of symbol s in its
// lens[s] low bits. It panics if the code has more than 256 internal nodes
// or a code shorter than four bits.
func newHuffmanDecoder(codes *[spec.EOS + 1]uint32, lens *[spec.EOS + 1]uint8) *huffmanDecoder {
	// The tree: node i has children tree[i][0] and tree[i][1]; a child
	// of 0 is missing (the root is no one's child), a negative child -1-s
	// is the leaf of symbol s.
	tree := make([][2]int32, 1, 256)
	depth := make([]uint8, 1, 256)
	ones := make([]bool, 1, 256)
	ones[0] = true
	for sym := range codes {
		code, n := codes[sym], lens[sym]
		if n < 4 {
			panic(fmt.Sprintf("wire: Huffman code of symbol %d is %d bits; the decoder needs at least 4", sym, n))
		}
		node := 0
		for i := int(n) - 1; i > 0; i-- {
			bit := code >> uint(i) & 1
			if tree[node][bit] == 0 {
				tree = append(tree, [2]int32{})
				depth = append(depth, depth[node]+1)
				ones = append(ones, ones[node] && bit == 1)
				tree[node][bit] = int32(len(tree) - 1)
			}
			node = int(tree[node][bit])
		}
		tree[node][code&1] = int32(-1 - sym)
	}
	if len(tree) > 256 {
		panic(fmt.Sprintf("wire: Huffman code has %d internal nodes; the decoder has room for 256", len(tree)))
	}
	d := &huffmanDecoder{}
	copy(d.depth[:], depth)
	copy(d.ones[:], ones)
	for state := range tree {
		for nibble := range 16 {
			step := &d.steps[state][nibble]
			node := state
			for bit := 3; bit >= 0 && step.stop == 0; bit-- {
				child := tree[node][nibble>>bit&1]
				switch {
				case child == 0:
					step.stop = stopInvalid
				case -1-child == spec.EOS:
					step.stop = stopEOS
				case child < 0:
					step.sym, step.emit = uint8(-1-child), 1
					node = 0
				default:
					node = int(child)
				}
			}
			step.next = uint8(node)
		}
	}
	return d
}

// DecodeHuffman decodes raw, a Huffman-coded string (RFC 7541 §5.2,
// Appendix B), and checks how it ends: the bits after the last symbol, its
// padding, must be fewer than 8 and all ones (a prefix of EOS), and EOS
// itself must not appear. It returns the octets decoded, up to the first
// problem, and a description of that problem with its octet offset in raw,
// or "" when raw is well formed.
func DecodeHuffman(raw []byte) (text string, problem string) {
	return huffman.decode(raw)
}

// huffmanChunk is the size of the array on the stack that a string is
// decoded into. A text that outgrows it moves to a strings.Builder sized
// once, so that decoding allocates the string returned and nothing else.
const huffmanChunk = 256

// decode decodes raw as DecodeHuffman describes.
func (d *huffmanDecoder) decode(raw []byte) (string, string) {
	var (
		chunk [huffmanChunk]byte
		n     int             // octets decoded into chunk
		long  strings.Builder // the text before chunk, once it outgrew chunk
		state uint8
	)
	for i, b := range raw {
		// Each step writes its symbol before knowing whether it emits
		// one, so there must be room for two symbols and one more write.
		if n > len(chunk)-2 {
			if long.Cap() == 0 {
				long.Grow(len(raw) * 8 / 5) // every code is at least 5 bits
			}
			long.Write(chunk[:n])
			n = 0
		}
		step := &d.steps[state][b>>4]
		chunk[n] = step.sym
		n += int(step.emit)
		if step.stop != 0 {
			return joinText(&long, chunk[:n]), stopProblem(step.stop, i)
		}
		step = &d.steps[step.next][b&0x0f]
		chunk[n] = step.sym
		n += int(step.emit)
		if step.stop != 0 {
			return joinText(&long, chunk[:n]), stopProblem(step.stop, i)
		}
		state = step.next
	}
	text := joinText(&long, chunk[:n])
	switch pad := d.depth[state]; {
	case pad > 7:
		return text, fmt.Sprintf("%d bits of padding (at most 7 allowed)", pad)
	case !d.ones[state] && pad == 1:
		return text, "padding of 1 bit is not a one (not a prefix of EOS)"
	case !d.ones[state]:
		return text, fmt.Sprintf("padding of %d bits is not all ones (not a prefix of EOS)", pad)
	}
	return text, ""
}

// joinText returns what long holds followed by rest.
func joinText(long *strings.Builder, rest []byte) string {
	if long.Len() == 0 {
		return string(rest)
	}
	long.Write(rest)
	return long.String()
}

// stopProblem describes why decoding stopped at the octet at offset i.
func stopProblem(stop uint8, i int) string {
	if stop == stopEOS {
		return fmt.Sprintf("EOS symbol inside the string at octet %d", i)
	}
	return fmt.Sprintf("invalid code at octet %d", i)
}

// HuffmanLen returns the length in octets of s Huffman-coded, padding
// included (RFC 7541 §5.2), from the code lengths of Appendix B.
func HuffmanLen(s string) int {
	bits := 0
	for i := 0; i < len(s); i++ {
		bits += int(spec.HuffmanCodeLens[s[i]])
	}
	return (bits + 7) / 8
}
