//go:build !purego

package encoder

// huffmanFast codes s into room, unpadded, after the n bytes and the
// nbits < 8 pending bits (in the low bits of acc) already coded there, and
// returns the same three after s, for huffmanPad or the next segment. The
// caller guarantees that room holds the coding and 8 bytes more:
// n+4*len(s)+8 bytes always do, as no code is longer than 30 bits. The
// tables must have been built (pairTablesOnce).
//
// On amd64 it is written in assembly (huffman_amd64.s): the compiler, which
// must put every variable shift count in CL, spilled the Go version's loop
// state to the stack on every step (huffman_generic.go, which the purego
// build and other architectures use, has the same steps). The assembly
// keeps all of it in registers. Header text takes eight octets a step: the
// codes of their four pairs from huffTables' pair tables, joined in a tree
// of shifts, added to a 64-bit accumulator whose bits are stored
// left-aligned with one unconditional 8-byte big-endian store at output
// byte n; n advances by the whole bytes, and the partial byte is rewritten
// by the next store. Eight octets whose codes total more than 57 bits go
// as two steps of four, and the eight-octet step resumes after them; if
// their total is over 116 bits (binary data: pairs too long for the pair
// tables) or a four-octet step does not fit either, the rest of the string
// goes two octets a step, their codes from the octet tables, and a pair of
// codes longer than 57 bits together one octet a step; a string whose
// first two octets' codes total more than 26 bits goes that way from the
// start, without loading pairs it would not use. The last 1-7 octets
// go as four, two and one from the pair tables, gathered and stored at
// once when they fit.
func huffmanFast(room []byte, n int, acc uint64, nbits uint, s string) (int, uint64, uint) {
	return huffmanCode(room, n, acc, nbits, s, false)
}

// huffmanFinish codes s as huffmanFast does, pads the coding as huffmanPad
// does, and returns its length, in one call.
func huffmanFinish(room []byte, n int, acc uint64, nbits uint, s string) int {
	n, _, _ = huffmanCode(room, n, acc, nbits, s, true)
	return n
}

// huffmanString is huffmanFinish(room, 0, 0, 0, s) with fewer arguments
// to pass: the call of an assembly function copies them to the stack.
//
//go:noescape
func huffmanString(room []byte, s string) int

// huffmanLoop is the loop of huffmanCode and huffmanString, which call it
// with its arguments in registers (see huffman_amd64.s); it is not
// called from Go.
func huffmanLoop()

// huffmanCode is huffmanFast, and huffmanFinish when pad is set (the
// pending bits are then padded, stored, and counted in nOut).
//
//go:noescape
func huffmanCode(room []byte, n int, acc uint64, nbits uint, s string, pad bool) (nOut int, accOut uint64, nbitsOut uint)

// The offsets of huffTables' arrays, as huffman_amd64.s has them.
const (
	offPairLens   = 1 << 18
	offOctetCodes = offPairLens + 1<<16
	offOctetLens  = offOctetCodes + 256*4
)
