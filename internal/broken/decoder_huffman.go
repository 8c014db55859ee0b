package broken

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// huffmanTree is the code of RFC 7541 Appendix B as a binary tree, for
// the broken decoder to walk one bit at a time: node i's children are
// huffmanTree[i][0] and [1]; a positive child is a node, a negative child
// -1-s the leaf of symbol s, 0 no child.
var huffmanTree = buildHuffmanTree()

func buildHuffmanTree() [][2]int16 {
	tree := make([][2]int16, 1, 256)
	for sym := 0; sym <= spec.EOS; sym++ {
		code, n := spec.HuffmanCodes[sym], spec.HuffmanCodeLens[sym]
		node := 0
		for i := int(n) - 1; i > 0; i-- {
			bit := code >> i & 1
			if tree[node][bit] == 0 {
				tree = append(tree, [2]int16{})
				tree[node][bit] = int16(len(tree) - 1)
			}
			node = int(tree[node][bit])
		}
		tree[node][code&1] = int16(-1 - sym)
	}
	return tree
}

// decodeHuffman decodes a Huffman-coded string (§5.2), with the Huffman
// bugs in bugs. It returns the text, and for a string it refuses the
// offset in data of the octet at fault and what is wrong with it.
func decodeHuffman(data []byte, bugs DecoderBugs) (text string, at int, problem string) {
	out := make([]byte, 0, len(data)*8/5)
	node := 0
	padding, ones := 0, true // bits since the last symbol; all of them ones
	for i, octet := range data {
		for shift := 7; shift >= 0; shift-- {
			bit := octet >> shift & 1
			padding++
			ones = ones && bit == 1
			child := huffmanTree[node][bit]
			switch {
			case child == 0:
				return "", i, "invalid Huffman code"
			case child > 0:
				node = int(child)
				continue
			case -1-int(child) == spec.EOS:
				if bugs&AcceptEOS == 0 {
					return "", i, "EOS symbol inside a Huffman string"
				}
			default:
				out = append(out, byte(-1-int(child)))
			}
			node, padding, ones = 0, 0, true
		}
	}
	last := max(len(data)-1, 0)
	if padding > 7 && bugs&AcceptLongPadding == 0 {
		return "", last, fmt.Sprintf("%d bits of Huffman padding, more than 7", padding)
	}
	if !ones && bugs&AcceptZeroPadding == 0 {
		return "", last, "Huffman padding is not the most significant bits of EOS"
	}
	return string(out), 0, ""
}
