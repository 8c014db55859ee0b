package encoder

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// appendHuffman appends the Huffman coding of s (RFC 7541 §5.2) to dst,
// padded to a byte boundary with the most significant bits of EOS (all
// ones), if it takes at most limit bytes; otherwise it reports false and
// the contents of dst beyond its length are unspecified. It grows dst by
// at most limit bytes, and writes only within cap(dst).
//
// Short strings (fewer than 8 octets) take huffmanShort when 8 bytes of
// room are left. Longer ones take huffmanFast, which needs room for 4
// bytes an octet, plus 8, and does not test the limit on the way. With
// room for limit bytes at least, as a caller who sizes dst by MaxFieldLen
// has, s goes through huffmanFast in segments, each as long as the room
// left allows (all of s at once when there is room for 4 bytes an octet),
// and is refused between segments once the coding passes the limit; the
// last octets, when little room is left, go through huffmanTail, which
// keeps exact bounds. With less room, the length of the coding is counted
// first (appendHuffmanLen).
func appendHuffman(dst []byte, s string, limit int) ([]byte, bool) {
	room := dst[len(dst):cap(dst)]
	if len(s) < 8 && len(room) >= 8 {
		if n, ok := huffmanShort(room, s); ok {
			if n > limit {
				return dst, false
			}
			return dst[:len(dst)+n], true
		}
	}
	pairTablesOnce.Do(buildPairTables)
	if len(room) < limit {
		length := huffmanLen(s)
		if length > limit {
			return dst, false
		}
		return appendHuffmanLen(dst, s, length), true
	}
	var n int
	var acc uint64
	var nbits uint
	for {
		// The room left for codes of at most 4 bytes an octet, past
		// the 8 bytes of the last store.
		free := len(room) - n - 8
		if free >= 4*len(s) {
			if n == 0 && nbits == 0 {
				n = huffmanString(room, s) // the common case: s whole
			} else {
				n = huffmanFinish(room, n, acc, nbits, s)
			}
			if n > limit {
				return dst, false
			}
			return dst[:len(dst)+n], true
		}
		if free < 4*8 {
			if n, ok := huffmanTail(room[:limit], s, n, acc, nbits); ok {
				return dst[:len(dst)+n], true
			}
			return dst, false
		}
		m := free / 4 &^ 7 // whole eight-octet steps
		n, acc, nbits = huffmanFast(room, n, acc, nbits, s[:m])
		if s = s[m:]; n > limit {
			return dst, false
		}
	}
}

// appendHuffmanLen appends the Huffman coding of s, padded, whose length
// is length (huffmanLen(s)), growing dst at most once, by length bytes.
// Knowing the length, huffmanFast needs room for 8 bytes more than that
// only; with less, huffmanTail codes all of s with exact bounds.
func appendHuffmanLen(dst []byte, s string, length int) []byte {
	dst = slices.Grow(dst, length)
	room := dst[len(dst):cap(dst)]
	if len(room) >= length+8 {
		return dst[:len(dst)+huffmanString(room, s)]
	}
	n, _ := huffmanTail(room[:length], s, 0, 0, 0)
	return dst[:len(dst)+n]
}

// huffmanShort writes the Huffman coding of s, padded, at the start of room
// (len(room) >= 8) and returns its length, if the codes total at most 63
// bits, as they do for up to 7 octets of header text; otherwise it reports
// false. The codes gather in one accumulator, with no store until the
// end: for a short string the per-call work of huffmanFast (its loop tests,
// a store a step) costs more than the coding, and x/net's plain loop was
// faster. Its loop runs over s, so s should be short.
func huffmanShort(room []byte, s string) (int, bool) {
	var acc uint64 // only the low bits count: codes pushed past 64 make bits > 63
	var bits uint
	for i := range len(s) {
		c := s[i]
		length := uint(spec.HuffmanCodeLens[c])
		acc = acc<<(length&63) | uint64(spec.HuffmanCodes[c])
		bits += length
	}
	if bits > 63 {
		return 0, false
	}
	// Left-align the codes and pad with the most significant bits of
	// EOS, all ones.
	put64(room, 0, acc<<((64-bits)&63)|^uint64(0)>>(bits&63))
	return int((bits + 7) / 8), true
}

// huffmanPad writes the nbits < 8 pending bits (in the low bits of acc)
// padded with the most significant bits of EOS, all ones, at out[n], with
// an 8-byte store (n+8 <= len(out)), and returns the length of the coding.
func huffmanPad(out []byte, n int, acc uint64, nbits uint) int {
	put64(out, n, acc<<((64-nbits)&63)|^uint64(0)>>(nbits&63))
	return n + int((nbits+7)/8)
}

// huffmanTail codes s after the n bytes and the nbits pending bits (in the
// low bits of acc) already coded into out, padded, and returns the length
// of the coding, with exact bounds: it flushes 32 bits at a time and
// reports false as soon as the coding passes len(out). It takes what
// huffmanFast has no room for.
func huffmanTail(out []byte, s string, n int, acc uint64, nbits uint) (int, bool) {
	if n > len(out) {
		return 0, false
	}
	for i := range len(s) {
		c := s[i]
		length := uint(spec.HuffmanCodeLens[c])
		acc = acc<<(length&63) | uint64(spec.HuffmanCodes[c])
		nbits += length
		if nbits >= 32 {
			if n+4 > len(out) {
				return 0, false
			}
			nbits -= 32
			binary.BigEndian.PutUint32(out[n:], uint32(acc>>(nbits&63)))
			n += 4
		}
	}
	if n+int(nbits+7)/8 > len(out) {
		return 0, false
	}
	if pad := (8 - nbits%8) % 8; pad != 0 {
		acc = acc<<(pad&63) | (1<<pad - 1)
		nbits += pad
	}
	for nbits > 0 {
		nbits -= 8
		out[n] = byte(acc >> (nbits & 63))
		n++
	}
	return n, true
}

// huffTables holds the tables of the Huffman coder. pairCodes and pairLens
// hold the Huffman codes of every pair of octets, the first octet of the
// pair in the low byte of the index (a little-endian 16-bit load): the two
// codes one after the other, right-aligned, and their total length in
// bits. A pair whose codes total more than 32 bits has no code and a
// length of 58, so that the eight octets it is part of total more than 57
// and go a shorter way. Codes and lengths sit in arrays of their own so
// that a step loads each without shifting or masking. octetCodes and
// octetLens are spec.HuffmanCodes and spec.HuffmanCodeLens without EOS,
// beside the pair tables so that the amd64 coder reaches all four from one
// register (huffman_amd64.s relies on this layout; TestHuffTablesLayout
// checks it).
//
// The tables take 321 KiB, filled by the first call of appendHuffman or
// AppendHuffmanString that goes past the short-string path, not at
// start-up: a program that imports the package but does not encode never
// touches their pages. Coding header text touches a small part of them.
var (
	pairTablesOnce sync.Once
	huffTables     struct {
		pairCodes  [1 << 16]uint32
		pairLens   [1 << 16]uint8
		octetCodes [256]uint32
		octetLens  [256]uint8
	}
)

func buildPairTables() {
	t := &huffTables
	for i := range t.pairCodes {
		a, b := byte(i), byte(i>>8)
		length := uint(spec.HuffmanCodeLens[a]) + uint(spec.HuffmanCodeLens[b])
		if length > 32 {
			t.pairLens[i] = 58
			continue
		}
		t.pairCodes[i] = spec.HuffmanCodes[a]<<spec.HuffmanCodeLens[b] | spec.HuffmanCodes[b]
		t.pairLens[i] = uint8(length)
	}
	copy(t.octetCodes[:], spec.HuffmanCodes[:256])
	copy(t.octetLens[:], spec.HuffmanCodeLens[:256])
}
