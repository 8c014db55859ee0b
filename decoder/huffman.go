package decoder

import "github.com/hpackcert/hpackcert/internal/spec"

// fastBits is the number of input bits one lookup of huffFast decodes.
// Every code of 12 bits or fewer (all the octets HTTP fields mostly use)
// is found in one lookup, two at a time when both are 5 or 6 bits long;
// the 4,096 entries (16 KiB) stay in the L1 cache.
const fastBits = 12

// A huffFast entry describes what the next fastBits bits of a Huffman
// string start with: the symbols whose codes end within them (at most two,
// as no code is shorter than 5 bits), the length of the first code and the
// length of both. An entry with count 0 means the next code is longer than
// fastBits bits: huffSlow decodes it.
//
//	bits  0-7  first symbol
//	bits  8-15 second symbol
//	bits 16-20 length of the first code
//	bits 21-25 length of both codes (the first's when there is one)
//	bits 26-27 count of symbols
const (
	fastLen1Shift  = 16
	fastTotalShift = 21
	fastCountShift = 26
)

var huffFast [1 << fastBits]uint32

// The canonical form of the code, for codes longer than fastBits: RFC
// 7541's code is canonical (codes of one length are consecutive, shorter
// codes numerically smaller once aligned), which TestHuffmanCanonical
// checks, so a code of length n is the n-bit value v with
// huffFirst[n] <= v < huffFirst[n]+huffCount[n], the symbol
// huffSymbols[huffOffset[n]+v-huffFirst[n]].
var (
	huffFirst   [31]uint32
	huffCount   [31]uint32
	huffOffset  [31]uint32
	huffSymbols [257]uint16
)

func init() {
	buildCanonical()
	buildFast()
}

// buildCanonical fills huffFirst, huffCount, huffOffset and huffSymbols
// from spec's code.
func buildCanonical() {
	for _, n := range spec.HuffmanCodeLens {
		huffCount[n]++
	}
	off := uint32(0)
	for n := range huffOffset {
		huffOffset[n] = off
		off += huffCount[n]
		huffFirst[n] = ^uint32(0)
	}
	next := huffOffset
	for sym, n := range spec.HuffmanCodeLens {
		huffSymbols[next[n]] = uint16(sym)
		next[n]++
		huffFirst[n] = min(huffFirst[n], spec.HuffmanCodes[sym])
	}
}

// huffSlow decodes the code at the top of acc, which holds at least 30
// bits (zeros below the input's end), and returns its symbol and length.
// It returns length 0 if no code matches, which a complete code such as
// RFC 7541's never lets happen.
func huffSlow(acc uint64) (sym uint16, n uint) {
	for n = 5; n <= 30; n++ {
		v := uint32(acc >> (64 - n))
		if v-huffFirst[n] < huffCount[n] {
			return huffSymbols[huffOffset[n]+v-huffFirst[n]], n
		}
	}
	return 0, 0
}

// buildFast fills huffFast by decoding every fastBits-bit value.
func buildFast() {
	for i := range huffFast {
		acc := uint64(i) << (64 - fastBits)
		var e uint32
		used := uint(0)
		for count := uint32(0); count < 2; count++ {
			sym, n := huffSlow(acc << used)
			if n == 0 || used+n > fastBits || sym == spec.EOS {
				break
			}
			e |= uint32(sym) << (8 * count)
			used += n
			if count == 0 {
				e |= uint32(used) << fastLen1Shift
			}
			e = e&^(0x1f<<fastTotalShift) | uint32(used)<<fastTotalShift
			e = e&^(3<<fastCountShift) | (count+1)<<fastCountShift
		}
		huffFast[i] = e
	}
}

// appendHuffman appends the decoding of the Huffman string src (RFC 7541
// §5.2) to dst. It is strict: an EOS symbol, padding longer than 7 bits or
// padding that is not all ones is an error, errp set with the offset in src
// of the octet where the symbol or the padding starts, plus base.
func appendHuffman(dst, src []byte, base int, errp *Error) ([]byte, error) {
	var acc uint64
	var nbits uint
	i := 0
	for {
		for nbits <= 56 && i < len(src) {
			acc |= uint64(src[i]) << (56 - nbits)
			nbits += 8
			i++
		}
		if nbits < 30 {
			break // the input is exhausted: appendHuffmanTail checks each length
		}
		e := huffFast[acc>>(64-fastBits)]
		if e != 0 {
			dst = append(dst, byte(e))
			if e>>fastCountShift == 2 {
				dst = append(dst, byte(e>>8))
			}
			n := uint(e>>fastTotalShift) & 0x1f
			acc <<= n
			nbits -= n
			continue
		}
		sym, n := huffSlow(acc)
		if sym == spec.EOS {
			return dst, errp.set(bitOffset(base+i, nbits), RuleHuffmanEOS)
		}
		dst = append(dst, byte(sym))
		acc <<= n
		nbits -= n
	}
	return appendHuffmanTail(dst, acc, nbits, base+i, errp)
}

// appendHuffmanTail decodes the last nbits (< 30) bits of a Huffman string,
// held at the top of acc; end is the offset just past the string.
func appendHuffmanTail(dst []byte, acc uint64, nbits uint, end int, errp *Error) ([]byte, error) {
	for nbits > 0 {
		e := huffFast[acc>>(64-fastBits)]
		if n1 := uint(e>>fastLen1Shift) & 0x1f; e != 0 && n1 <= nbits {
			dst = append(dst, byte(e))
			n := n1
			if total := uint(e>>fastTotalShift) & 0x1f; e>>fastCountShift == 2 && total <= nbits {
				dst = append(dst, byte(e>>8))
				n = total
			}
			acc <<= n
			nbits -= n
			continue
		}
		if sym, n := huffSlow(acc); n <= nbits {
			if sym == spec.EOS {
				return dst, errp.set(bitOffset(end, nbits), RuleHuffmanEOS)
			}
			dst = append(dst, byte(sym))
			acc <<= n
			nbits -= n
			continue
		}
		// No code ends within the bits left: they are the padding.
		if nbits > 7 {
			return dst, errp.set(bitOffset(end, nbits), RuleHuffmanPadLength)
		}
		if acc>>(64-nbits) != 1<<nbits-1 {
			return dst, errp.set(bitOffset(end, nbits), RuleHuffmanPadOnes)
		}
		break
	}
	return dst, nil
}

// bitOffset returns the offset of the octet holding the first of the
// nbits bits at the top of the accumulator, which end at offset end.
func bitOffset(end int, nbits uint) int {
	return (8*end - int(nbits)) / 8
}
