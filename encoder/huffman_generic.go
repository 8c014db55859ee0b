//go:build !amd64 || purego

package encoder

import "github.com/hpackcert/hpackcert/internal/spec"

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
		lb := uint(huffTables.pairLens[ib])
		qab := uint64(huffTables.pairCodes[ia])<<(lb&63) | uint64(huffTables.pairCodes[ib])
		lab := uint(huffTables.pairLens[ia]) + lb
		ic, id := load16At(s, i+4), load16At(s, i+6)
		ld := uint(huffTables.pairLens[id])
		qcd := uint64(huffTables.pairCodes[ic])<<(ld&63) | uint64(huffTables.pairCodes[id])
		lcd := uint(huffTables.pairLens[ic]) + ld
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

// huffmanFinish codes s as huffmanFast does, pads the coding (huffmanPad)
// and returns its length.
func huffmanFinish(room []byte, n int, acc uint64, nbits uint, s string) int {
	n, acc, nbits = huffmanFast(room, n, acc, nbits, s)
	return huffmanPad(room, n, acc, nbits)
}

// huffmanString is huffmanFinish(room, 0, 0, 0, s).
func huffmanString(room []byte, s string) int {
	return huffmanFinish(room, 0, 0, 0, s)
}
