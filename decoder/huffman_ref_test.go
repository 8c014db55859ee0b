package decoder

import "github.com/hpackcert/hpackcert/internal/spec"

// refNode is a node of the Huffman code's binary tree, built bit by bit
// from spec's code: the reference the table-driven decoder is checked
// against.
type refNode struct {
	child [2]*refNode
	sym   int // the leaf's symbol, -1 for an inner node
}

var refRoot = buildRefTree()

func buildRefTree() *refNode {
	root := &refNode{sym: -1}
	for sym, n := range spec.HuffmanCodeLens {
		node := root
		for b := int(n) - 1; b >= 0; b-- {
			bit := spec.HuffmanCodes[sym] >> uint(b) & 1
			if node.child[bit] == nil {
				node.child[bit] = &refNode{sym: -1}
			}
			node = node.child[bit]
		}
		node.sym = sym
	}
	return root
}

// refDecode decodes src one bit at a time. It returns the decoded octets,
// or the rule broken and the offset of the octet where the EOS or the
// padding starts.
func refDecode(src []byte) ([]byte, string, int) {
	var out []byte
	node := refRoot
	depth, allOnes, start := 0, true, 0
	for i := 0; i < 8*len(src); i++ {
		if depth == 0 {
			start = i / 8
		}
		bit := src[i/8] >> (7 - uint(i%8)) & 1
		node = node.child[bit]
		depth++
		allOnes = allOnes && bit == 1
		if node.sym < 0 {
			continue
		}
		if node.sym == spec.EOS {
			return out, RuleHuffmanEOS, start
		}
		out = append(out, byte(node.sym))
		node, depth, allOnes = refRoot, 0, true
	}
	switch {
	case depth > 7:
		return out, RuleHuffmanPadLength, start
	case !allOnes:
		return out, RuleHuffmanPadOnes, start
	}
	return out, "", 0
}
