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
			n, acc, nbits = huffmanFast(room, n, acc, nbits, s)
			if n = huffmanPad(room, n, acc, nbits); n > limit {
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
		n, acc, nbits := huffmanFast(room, 0, 0, 0, s)
		return dst[:len(dst)+huffmanPad(room, n, acc, nbits)]
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

// huffmanFast codes s into room with 8-byte stores, unpadded, after the n
// bytes and the nbits < 8 pending bits (in the low bits of acc) already
// coded there, and returns the same three after s, for huffmanPad or the
// next segment. The caller guarantees that room holds the coding and 8
// bytes more, so that every store, at n no more than the coding's length,
// is within room, and so is the one of huffmanPad: n+4*len(s)+8 bytes
// always do, as no code is longer than 30 bits.
//
// The coder keeps its pending bits right-aligned in a 64-bit accumulator,
// fewer than 8 of them between steps. Each step adds the codes of a group
// of octets, at most 57 bits together, and stores the accumulator's bits
// left-aligned with one unconditional 8-byte big-endian store at output
// byte n: the whole bytes go out, the partial byte is rewritten by the next
// step, and n and the pending count advance by arithmetic, not by a branch.
// (x/net flushes 32 bits when it has them, a branch whose outcome depends
// on the data: on input the branch predictor has not learnt, it misses
// often.)
//
// Header text takes eight octets a step: the codes of its four pairs of
// octets, read from pairCodes and pairLens, are joined in a tree of shifts
// rather than one after the other, and usually total at most 57 bits
// (eight codes of 7 bits or less, or a mix). At the first eight whose
// codes total more (random or binary data, whose codes are mostly 20-30
// bits long), the rest of s goes two octets a step, their codes read from
// the 256-entry spec.HuffmanCodes and spec.HuffmanCodeLens, which stay in
// cache; the
// 0.3% of pairs whose codes total more than 57 bits take a step each, and
// so does the last octet of an odd count.
//
// The loops live in a function of their own, with little else live, so
// that the compiler keeps their state in registers: with the loops in
// appendHuffman it spilled the accumulator or the index to the stack,
// which put a store and a load on every step's dependency chain. For the
// same reason they test no bound but the end of s.
func huffmanFast(room []byte, n int, acc uint64, nbits uint, s string) (int, uint64, uint) {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// Two halves of four octets, one after the other, so that
		// fewer values are live at once.
		ia, ib := load16At(s, i), load16At(s, i+2)
		lb := uint(pairLens[ib])
		qab := uint64(pairCodes[ia])<<(lb&63) | uint64(pairCodes[ib])
		lab := uint(pairLens[ia]) + lb
		ic, id := load16At(s, i+4), load16At(s, i+6)
		ld := uint(pairLens[id])
		qcd := uint64(pairCodes[ic])<<(ld&63) | uint64(pairCodes[id])
		lcd := uint(pairLens[ic]) + ld
		total := lab + lcd
		if total > 57 {
			break
		}
		acc = acc<<(total&63) | qab<<(lcd&63) | qcd
		nbits += total
		put64(room, n, acc<<((64-nbits)&63))
		n += int(nbits / 8)
		nbits %= 8
	}
	for {
		for ; i+2 <= len(s); i += 2 {
			c0, c1 := octetAt(s, i), octetAt(s, i+1)
			l0, l1 := uint(spec.HuffmanCodeLens[c0]), uint(spec.HuffmanCodeLens[c1])
			if l0+l1 > 57 {
				break
			}
			acc = acc<<((l0+l1)&63) | (uint64(spec.HuffmanCodes[c0])<<(l1&63) | uint64(spec.HuffmanCodes[c1]))
			nbits += l0 + l1
			put64(room, n, acc<<((64-nbits)&63))
			n += int(nbits / 8)
			nbits %= 8
		}
		// One octet: the last of s, or the first of two long codes.
		if i >= len(s) {
			return n, acc, nbits
		}
		c := s[i]
		acc = acc<<(spec.HuffmanCodeLens[c]&63) | uint64(spec.HuffmanCodes[c])
		nbits += uint(spec.HuffmanCodeLens[c])
		put64(room, n, acc<<((64-nbits)&63))
		n += int(nbits / 8)
		nbits %= 8
		i++
	}
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

// pairCodes and pairLens hold the Huffman codes of every pair of octets,
// the first octet of the pair in the low byte of the index (a
// little-endian 16-bit load): the two codes one after the other,
// right-aligned, and their total length in bits. A pair whose codes total
// more than 32 bits has no code and a length of 58, so that the eight
// octets it is part of total more than 57 and go two at a time. Codes and
// lengths sit in tables of their own so that the eight-octet step loads
// each without shifting or masking.
//
// The tables take 320 KiB, filled by the first call of appendHuffman or
// AppendHuffmanString that goes past the short-string path, not at
// start-up: a program that imports the package but does not encode never
// touches their pages. Coding header text touches a small part of them.
var (
	pairTablesOnce sync.Once
	pairCodes      [1 << 16]uint32
	pairLens       [1 << 16]uint8
)

func buildPairTables() {
	for i := range pairCodes {
		a, b := byte(i), byte(i>>8)
		length := uint(spec.HuffmanCodeLens[a]) + uint(spec.HuffmanCodeLens[b])
		if length > 32 {
			pairLens[i] = 58
			continue
		}
		pairCodes[i] = spec.HuffmanCodes[a]<<spec.HuffmanCodeLens[b] | spec.HuffmanCodes[b]
		pairLens[i] = uint8(length)
	}
}
