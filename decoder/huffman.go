package decoder

import (
	"encoding/binary"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// fastBits is the number of input bits one lookup of huffFast decodes,
// at the end of a string, where a code is taken only if it ends within
// the bits left and huffWide's entries, which give only the length of all
// their codes, may not fit.
const fastBits = 12

// A huffFast entry gives the first symbol whose code ends within the next
// fastBits bits (its low octet) and the code's length (the octet above);
// 0 means the code is longer than fastBits bits: huffSlow decodes it.
var huffFast [1 << fastBits]uint16

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
	buildWide()
}

// wideBits is the number of input bits one lookup of huffWide decodes,
// in the middle of a string, where at least 30 bits are at hand.
const wideBits = 15

// A huffWide entry gives the symbols (up to three) whose codes end within
// the next wideBits bits and the bits they take; 0 means the first code is
// longer than wideBits bits.
//
//	bits  0-23 the symbols, first in the low octet
//	bits 24-25 count of symbols
//	bits 26-30 length of their codes
const (
	wideCountShift = 24
	wideTotalShift = 26
)

var huffWide [1 << wideBits]uint32

// buildWide fills huffWide by decoding every wideBits-bit value.
func buildWide() {
	for i := range huffWide {
		syms, count, used := decodeAhead(uint64(i)<<(64-wideBits), wideBits, 3)
		if count > 0 {
			huffWide[i] = syms | uint32(count)<<wideCountShift | uint32(used)<<wideTotalShift
		}
	}
}

// buildFast fills huffFast by decoding every fastBits-bit value.
func buildFast() {
	for i := range huffFast {
		syms, count, used := decodeAhead(uint64(i)<<(64-fastBits), fastBits, 1)
		if count > 0 {
			huffFast[i] = uint16(syms) | uint16(used)<<8
		}
	}
}

// decodeAhead decodes, from the top of acc, up to most symbols whose codes
// end within its first bits bits (EOS never counts), and returns them
// packed one per octet, first in the low octet, with their count and the
// length of their codes.
func decodeAhead(acc uint64, bits, most uint) (syms uint32, count, used uint) {
	for count < most {
		sym, n := huffSlow(acc << used)
		if n == 0 || used+n > bits || sym == spec.EOS {
			break
		}
		syms |= uint32(sym) << (8 * count)
		used += n
		count++
	}
	return syms, count, used
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

// appendHuffman appends the decoding of the Huffman string src (RFC 7541
// §5.2) to dst, at most limit octets. It is strict: an EOS symbol, padding
// longer than 7 bits or padding that is not all ones is an error: its rule
// (a Rule constant, "" for none) and the offset in src of the octet where
// the symbol or the padding starts. A decoding longer than limit is
// RuleStringTooLong, found before it runs more than huffSlack octets past
// limit. Returning no *Error, it lets no pointer escape. The caller gives
// dst a capacity of len(dst)+huffmanRoom(len(src), limit) at least: it
// never allocates.
func appendHuffman(dst, src []byte, limit int) (out []byte, errOffset int, errRule string) {
	k := len(dst)
	// buf is written past k freely: a lookup writes three octets,
	// advancing k by the count of its symbols, and after a check of the
	// limit k advances by at most 17 before the next (a refill's 64 bits,
	// then at the end the tail's 29, 5 bits a symbol at least), with two
	// octets written ahead: within huffSlack.
	buf := dst[:cap(dst)]
	end := k + limit
	if limit < 0 || end < k {
		end = len(buf) // no limit, or one past what an int holds
	}
	// acc holds the next nbits bits at its top; below them are zeros or,
	// after a load of eight octets, bits of the octets not yet counted.
	var acc uint64
	var nbits uint
	i := 0
	for {
		if k > end {
			return buf[:end], 0, RuleStringTooLong
		}
		if len(src)-i >= 8 {
			// One load: the whole octets that fit below the bits held
			// are counted; the bits of the next octet that also land in
			// acc are the same when it is loaded again.
			acc |= binary.BigEndian.Uint64(src[i:]) >> nbits
			c := (63 - nbits) >> 3
			i += int(c)
			nbits += c << 3
		} else {
			acc &^= 1<<(64-nbits) - 1 // zeros below the bits held; all of acc when nbits is 0
			for nbits <= 56 && i < len(src) {
				acc |= uint64(src[i]) << (56 - nbits)
				nbits += 8
				i++
			}
			if i == len(src) && nbits < 30 {
				break // the input is exhausted: the tail checks each length
			}
		}
		for nbits >= wideBits {
			e := huffWide[acc>>(64-wideBits)]
			if e != 0 {
				buf[k] = byte(e)
				buf[k+1] = byte(e >> 8)
				buf[k+2] = byte(e >> 16)
				k += int(e>>wideCountShift) & 3
				n := uint(e >> wideTotalShift)
				acc <<= n
				nbits -= n
				continue
			}
			if nbits < 30 {
				break // a long code: huffSlow needs 30 bits
			}
			sym, n := huffSlow(acc)
			if sym == spec.EOS {
				return buf[:k], bitOffset(i, nbits), RuleHuffmanEOS
			}
			buf[k] = byte(sym)
			k++
			acc <<= n
			nbits -= n
		}
	}
	// The last nbits (< 30) bits, zeros below them: a code is taken only
	// if it ends within them; what no code fits is the padding.
	last := i
	for nbits > 0 {
		if e := huffWide[acc>>(64-wideBits)]; e != 0 && uint(e>>wideTotalShift) <= nbits {
			buf[k] = byte(e)
			buf[k+1] = byte(e >> 8)
			buf[k+2] = byte(e >> 16)
			k += int(e>>wideCountShift) & 3
			n := uint(e >> wideTotalShift)
			acc <<= n
			nbits -= n
			continue
		}
		if e := huffFast[acc>>(64-fastBits)]; e != 0 && uint(e>>8) <= nbits {
			buf[k] = byte(e)
			k++
			n := uint(e >> 8)
			acc <<= n
			nbits -= n
			continue
		}
		// Every code of fastBits bits or fewer is in huffFast: with no
		// more bits left, none ends within them.
		if nbits > fastBits {
			if sym, n := huffSlow(acc); n <= nbits {
				if sym == spec.EOS {
					return buf[:k], bitOffset(last, nbits), RuleHuffmanEOS
				}
				buf[k] = byte(sym)
				k++
				acc <<= n
				nbits -= n
				continue
			}
		}
		if nbits > 7 {
			return buf[:k], bitOffset(last, nbits), RuleHuffmanPadLength
		}
		if acc>>(64-nbits) != 1<<nbits-1 {
			return buf[:k], bitOffset(last, nbits), RuleHuffmanPadOnes
		}
		break
	}
	if k > end {
		return buf[:end], 0, RuleStringTooLong
	}
	return buf[:k], 0, ""
}

// bitOffset returns the offset of the octet holding the first of the
// nbits bits at the top of the accumulator, which end at offset end.
func bitOffset(end int, nbits uint) int {
	return (8*end - int(nbits)) / 8
}
