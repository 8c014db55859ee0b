package encoder

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// appendHuffman appends the Huffman coding of s (RFC 7541 §5.2) to dst,
// padded to a byte boundary with the most significant bits of EOS (all
// ones), if it takes at most limit bytes; otherwise it reports false and
// the contents of dst beyond its length are unspecified. It grows dst by
// at most limit bytes, and writes only within cap(dst).
func appendHuffman(dst []byte, s []byte, limit int) ([]byte, bool) {
	dst = slices.Grow(dst, limit)
	room := dst[len(dst):cap(dst)]
	n, i, acc, nbits := huffmanFast(room, s, min(len(room)-8, limit))
	n, ok := huffmanTail(room[:limit], s[i:], n, acc, nbits)
	if !ok {
		return dst, false
	}
	return dst[:len(dst)+n], true
}

// huffmanFast codes as much of s as it can into room with 8-byte stores,
// starting no store at a byte past last (last+8 <= len(room)), and returns
// the number of whole bytes written, the rest of s, and the pending bits
// (nbits < 8 of them, in the low bits of acc) for huffmanTail. Its loops
// live in a function of their own, with little else live, so that the
// compiler keeps their state in registers: with the loops in appendHuffman
// it spilled the accumulator or the index to the stack, which put a store
// and a load on every step's dependency chain.
//
// The coder keeps its pending bits right-aligned in a 64-bit accumulator,
// fewer than 8 of them between steps. Each step adds the codes of a group
// of octets, at most 57 bits together, and stores the accumulator's bits
// left-aligned with one unconditional 8-byte big-endian store at output
// byte n: the whole bytes go out, the partial byte is rewritten by the next
// step, and n and the pending count advance by arithmetic, not by a branch
// that random data would mispredict. The output only grows, so once n
// passes limit (last <= limit) the coding cannot fit, and the loops stop.
//
// Header text takes eight octets a step: their codes, read two octets at a
// time from huffmanPairs, are joined in a tree of shifts (not one after the
// other) and usually total at most 56 bits (eight codes of 7 bits or less,
// or a mix). At the first eight whose codes total more (random or binary
// data, whose codes are mostly 20-30 bits long), the rest of s goes two
// octets a step, their codes read from the 256-entry huffmanCodes and
// huffmanLens, which stay in cache; only the 0.3% of pairs that total more
// than 57 bits take two steps.
func huffmanFast(room []byte, s []byte, last int) (n, i int, acc uint64, nbits uint) {
	for ; i+8 <= len(s) && n <= last; i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		p0, p1 := huffmanPairs[uint16(x)], huffmanPairs[uint16(x>>16)]
		p2, p3 := huffmanPairs[uint16(x>>32)], huffmanPairs[uint16(x>>48)]
		l0, l1, l2, l3 := uint(p0&pairLenMask), uint(p1&pairLenMask), uint(p2&pairLenMask), uint(p3&pairLenMask)
		total := l0 + l1 + l2 + l3
		if total > 56 {
			break
		}
		q0 := uint64(p0>>pairLenBits)<<(l1&63) | uint64(p1>>pairLenBits)
		q1 := uint64(p2>>pairLenBits)<<(l3&63) | uint64(p3>>pairLenBits)
		acc = acc<<(total&63) | q0<<((l2+l3)&63) | q1
		nbits += total
		put64(room, n, acc<<((64-nbits)&63))
		n += int(nbits / 8)
		nbits %= 8
	}
	for {
		for ; i < len(s)-1 && n <= last; i += 2 {
			c0, c1 := s[i], s[i+1]
			l0, l1 := uint(huffmanLens[c0]), uint(huffmanLens[c1])
			if l0+l1 > 57 {
				break
			}
			acc = acc<<((l0+l1)&63) | uint64(huffmanCodes[c0])<<(l1&63) | uint64(huffmanCodes[c1])
			nbits += l0 + l1
			put64(room, n, acc<<((64-nbits)&63))
			n += int(nbits / 8)
			nbits %= 8
		}
		if i >= len(s)-1 || n > last {
			return n, i, acc, nbits
		}
		// Two long codes: the first takes a step of its own.
		c := s[i]
		acc = acc<<(huffmanLens[c]&63) | uint64(huffmanCodes[c])
		nbits += uint(huffmanLens[c])
		put64(room, n, acc<<((64-nbits)&63))
		n += int(nbits / 8)
		nbits %= 8
		i++
	}
}

// put64 stores v big-endian at out[n:n+8]. The caller guarantees
// n+8 <= len(out); put64 does not check it again, which saves the bounds
// check and the slice arithmetic of out[n:] on every step of the loops.
func put64(out []byte, n int, v uint64) {
	binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), n))[:], v)
}

// huffmanTail codes s after the n bytes and the nbits pending bits (in the
// low bits of acc) already coded into out, padded, and returns the length
// of the coding, with exact bounds: it flushes 32 bits at a time and
// reports false as soon as the coding passes len(out). It takes what the
// 8-byte stores of huffmanFast cannot: the last octet, or everything once
// fewer than 8 bytes of room are left.
func huffmanTail(out []byte, s []byte, n int, acc uint64, nbits uint) (int, bool) {
	if n > len(out) {
		return 0, false
	}
	for _, c := range s {
		length := uint(huffmanLens[c])
		acc = acc<<(length&63) | uint64(huffmanCodes[c])
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

// huffmanCodes and huffmanLens hold the Huffman code of each octet,
// right-aligned, and its length in bits: huffmanTable split in two, so
// that the coding loops load each without shifting or masking.
var (
	huffmanCodes [256]uint32
	huffmanLens  [256]uint8
)

// huffmanPairs holds the Huffman codes of every pair of octets, the first
// octet of the pair in the low byte of the index: the two codes one after
// the other, shifted left by pairLenBits, and their total length in bits
// in the low pairLenBits bits. A pair whose codes total more than
// maxPairLen bits holds a length of pairLenMask and no code, which sends
// the eight octets it is part of down the slow path. The table takes 256
// KiB; coding header text touches a small part of it.
var huffmanPairs [1 << 16]uint32

func init() {
	for c, code := range huffmanTable {
		huffmanCodes[c] = uint32(code >> 8)
		huffmanLens[c] = uint8(code)
	}
	for i := range huffmanPairs {
		a, b := huffmanTable[byte(i)], huffmanTable[byte(i>>8)]
		length := a&0xff + b&0xff
		if length > maxPairLen {
			huffmanPairs[i] = pairLenMask
			continue
		}
		code := a>>8<<(b&0xff) | b>>8
		huffmanPairs[i] = uint32(code<<pairLenBits | length)
	}
}

const (
	minCodeLen  = 5 // bits of the shortest code of Appendix B
	pairLenBits = 6
	pairLenMask = 1<<pairLenBits - 1
	maxPairLen  = 32 - pairLenBits
)
