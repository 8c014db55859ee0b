//go:build unix

package encoder

import "github.com/hpackcert/hpackcert/internal/spec"

// refBits is a bit-by-bit writer, most significant bit first.
type refBits struct {
	out   []byte
	nbits uint // bits in out's last octet, 0 when it is full
}

func (w *refBits) bit(b uint32) {
	if w.nbits == 0 {
		w.out = append(w.out, 0)
	}
	w.out[len(w.out)-1] |= byte(b&1) << (7 - w.nbits)
	w.nbits = (w.nbits + 1) % 8
}

func (w *refBits) code(code uint32, length uint8) {
	for i := int(length) - 1; i >= 0; i-- {
		w.bit(code >> uint(i))
	}
}

// pad fills the last octet with the most significant bits of EOS.
func (w *refBits) pad() {
	eos := spec.HuffmanCodes[256]
	for i := 0; w.nbits != 0; i++ {
		w.bit(eos >> (uint(spec.HuffmanCodeLens[256]) - 1 - uint(i)))
	}
}

// refHuffman is the padded Huffman coding of s, bit by bit.
func refHuffman(s string) []byte {
	var w refBits
	for i := range len(s) {
		w.code(spec.HuffmanCodes[s[i]], spec.HuffmanCodeLens[s[i]])
	}
	w.pad()
	return w.out
}

// edgeOctetsByLen lists the octets by the length of their codes.
func edgeOctetsByLen() map[int][]byte {
	m := map[int][]byte{}
	for c := range 256 {
		l := int(spec.HuffmanCodeLens[c])
		m[l] = append(m[l], byte(c))
	}
	return m
}
