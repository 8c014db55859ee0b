package qencoder

import "github.com/hpackcert/hpackcert/internal/spec"

// huffmanLen returns the octets of the Huffman coding of s, padding
// included. encoder.HuffmanLen takes a []byte, and converting a string to
// it would copy (and allocate) for strings over 32 octets.
func huffmanLen(s string) int {
	bits := 0
	for i := range len(s) {
		bits += int(spec.HuffmanCodeLens[s[i]])
	}
	return (bits + 7) / 8
}
