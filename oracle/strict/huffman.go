package strict

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// huffmanNode is a node of the binary tree of the Huffman code of RFC 7541
// Appendix B. A leaf has no children and holds a symbol: an octet, or
// spec.EOS.
type huffmanNode struct {
	children [2]*huffmanNode
	symbol   int
}

func (n *huffmanNode) isLeaf() bool { return n.children[0] == nil && n.children[1] == nil }

// huffmanRoot is the root of the tree, built once from internal/spec.
var huffmanRoot = buildHuffmanTree()

// buildHuffmanTree builds the tree by walking each symbol's code from its
// most significant bit.
func buildHuffmanTree() *huffmanNode {
	root := &huffmanNode{}
	for symbol := range spec.HuffmanCodes {
		code, length := spec.HuffmanCodes[symbol], int(spec.HuffmanCodeLens[symbol])
		n := root
		for i := length - 1; i >= 0; i-- {
			bit := code >> uint(i) & 1
			if n.children[bit] == nil {
				n.children[bit] = &huffmanNode{}
			}
			n = n.children[bit]
		}
		n.symbol = symbol
	}
	return root
}

// huffmanError locates a violation of §5.2 inside a Huffman-encoded string.
type huffmanError struct {
	octet  int // index in the encoded string of the octet at fault
	reason string
}

// decodeHuffman decodes a Huffman-encoded string literal (RFC 7541 §5.2)
// one bit at a time. It rejects the EOS symbol, padding longer than 7 bits
// and padding that is not the most significant bits of EOS (all ones).
func decodeHuffman(encoded []byte) ([]byte, *huffmanError) {
	var decoded []byte
	n := huffmanRoot
	// pending counts the bits read since the last complete symbol, and
	// pendingOnes whether all of them were ones: at the end they are the
	// padding.
	pending, pendingOnes := 0, true
	for i, octet := range encoded {
		for shift := 7; shift >= 0; shift-- {
			bit := octet >> uint(shift) & 1
			n = n.children[bit]
			if n == nil {
				// Appendix B is a complete code, so this cannot happen
				// with correct tables; say so rather than panic.
				return nil, &huffmanError{i, "bit sequence matches no Huffman code (internal/spec tables are inconsistent)"}
			}
			pending++
			pendingOnes = pendingOnes && bit == 1
			if !n.isLeaf() {
				continue
			}
			if n.symbol == spec.EOS {
				return nil, &huffmanError{i, "Huffman-encoded string contains the EOS symbol"}
			}
			decoded = append(decoded, byte(n.symbol))
			n, pending, pendingOnes = huffmanRoot, 0, true
		}
	}
	last := len(encoded) - 1
	if pending > 7 {
		return nil, &huffmanError{last, fmt.Sprintf("Huffman padding is %d bits long; it must be at most 7", pending)}
	}
	if !pendingOnes {
		return nil, &huffmanError{last, "Huffman padding is not all ones (the most significant bits of the EOS code)"}
	}
	return decoded, nil
}
