//go:build !purego

#include "textflag.h"

// Offsets in huffTables (huffman.go), checked by TestHuffTablesLayout.
#define PAIR_LENS 262144
#define OCTET_CODES 327680
#define OCTET_LENS 328704

// STORE writes the pending bits (R9 of them, in the low bits of SI)
// left-aligned and big-endian at DI+R8, advances R8 by the whole bytes and
// keeps the rest pending. A shift count of 64-nbits is -nbits: the CPU
// takes it modulo 64.
#define STORE \
	MOVQ R9, CX; \
	NEGQ CX; \
	MOVQ SI, AX; \
	SHLQ CX, AX; \
	BSWAPQ AX; \
	MOVQ AX, (DI)(R8*1); \
	MOVQ R9, AX; \
	SHRQ $3, AX; \
	ADDQ AX, R8; \
	ANDQ $7, R9

// PAD pads the pending bits with the most significant bits of EOS, all
// ones, stores them and counts the partial byte in R8; R9 and SI are left
// undefined.
#define PAD \
	MOVQ R9, CX; \
	NEGQ CX; \
	SHLQ CX, SI; \
	MOVQ $-1, AX; \
	MOVQ R9, CX; \
	SHRQ CX, AX; \
	ORQ  AX, SI; \
	BSWAPQ SI; \
	MOVQ SI, (DI)(R8*1); \
	ADDQ $7, R9; \
	SHRQ $3, R9; \
	ADDQ R9, R8

// TWO_PAIRS codes the four octets at off(R10) from the pair tables: their
// codes in a, their length in len (b is scratch, and CX).
#define TWO_PAIRS(off, a, b, len) \
	MOVWLZX off(R10), a; \
	MOVWLZX off+2(R10), b; \
	MOVBLZX PAIR_LENS(R12)(b*1), CX; \
	MOVBLZX PAIR_LENS(R12)(a*1), len; \
	ADDQ CX, len; \
	MOVL (R12)(a*4), a; \
	SHLQ CX, a; \
	MOVL (R12)(b*4), b; \
	ORQ  b, a

// func huffmanCode(room []byte, n int, acc uint64, nbits uint, s string, pad bool) (nOut int, accOut uint64, nbitsOut uint)
TEXT ·huffmanCode(SB), NOSPLIT, $0-96
	MOVQ room_base+0(FP), DI
	MOVQ n+24(FP), R8
	MOVQ acc+32(FP), SI
	MOVQ nbits+40(FP), R9
	MOVQ s_base+48(FP), R10
	MOVQ s_len+56(FP), R11
	CALL ·huffmanLoop(SB)
	MOVBLZX pad+64(FP), AX
	TESTQ AX, AX
	JNZ   padded
	MOVQ R8, nOut+72(FP)
	MOVQ SI, accOut+80(FP)
	MOVQ R9, nbitsOut+88(FP)
	RET

padded:
	PAD
	MOVQ R8, nOut+72(FP)
	MOVQ $0, accOut+80(FP)
	MOVQ $0, nbitsOut+88(FP)
	RET

// func huffmanString(room []byte, s string) int
TEXT ·huffmanString(SB), NOSPLIT, $0-48
	MOVQ room_base+0(FP), DI
	XORQ R8, R8
	XORQ SI, SI
	XORQ R9, R9
	MOVQ s_base+24(FP), R10
	MOVQ s_len+32(FP), R11
	CALL ·huffmanLoop(SB)
	PAD
	MOVQ R8, ret+40(FP)
	RET

// func huffmanLoop() codes s for the two above, which pass everything in
// registers: DI room; R8 n, SI acc and R9 nbits (at most 7 between
// steps), in and out; R10 the next octet of s and R11 the end of s (in:
// s's address and length). R12 holds huffTables, R14 the four-octet steps
// left before the next eight-octet step; AX, BX, CX (shift counts), DX and
// R13 are scratch (and R14 within the eight-octet step). The contract is
// in huffman_amd64.go.
TEXT ·huffmanLoop(SB), NOSPLIT, $0-0
	ADDQ R10, R11
	LEAQ ·huffTables(SB), R12
	// Binary data, whose pairs are too long for the pair tables, would
	// only leave the eight-octet step after loading four pairs from
	// them (tables larger than the L1 cache): when the codes of the
	// first two octets total more than 26 bits, which header text
	// almost never does, go two octets a step from the start.
	LEAQ 2(R10), AX
	CMPQ AX, R11
	JHI  eight
	MOVWLZX 0(R10), AX
	MOVBLZX PAIR_LENS(R12)(AX*1), AX
	CMPQ AX, $26
	JHI  two

eight:
	// Eight octets as four pairs: a, b, c, d.
	LEAQ 8(R10), AX
	CMPQ AX, R11
	JHI  last
	TWO_PAIRS(0, AX, BX, DX)
	// AX: codes of a and b; DX: their length.
	TWO_PAIRS(4, BX, R13, R14)
	// BX: codes of c and d; R14: their length.
	MOVQ R14, CX
	SHLQ CX, AX
	ORQ  BX, AX
	ADDQ R14, DX
	// With at most 7 bits pending, 57 more fill the accumulator.
	CMPQ DX, $57
	JHI  halves
	MOVQ DX, CX
	SHLQ CX, SI
	ORQ  AX, SI
	ADDQ DX, R9
	ADDQ $8, R10
	STORE
	JMP  eight

halves:
	// Too long for one step: two steps of four octets, then eight
	// again; but a total over 116 bits is most likely pairs too long
	// for the pair tables (binary data, whose four-octet steps would
	// not fit either): two octets a step to the end.
	CMPQ DX, $116
	JHI  run
	MOVQ $2, R14

quad:
	LEAQ 4(R10), AX
	CMPQ AX, R11
	JHI  two
	MOVWLZX 0(R10), AX
	MOVWLZX 2(R10), BX
	MOVBLZX PAIR_LENS(R12)(BX*1), CX
	MOVBLZX PAIR_LENS(R12)(AX*1), DX
	ADDQ CX, DX
	CMPQ DX, $57
	JHI  run
	MOVL (R12)(AX*4), AX
	SHLQ CX, AX
	MOVL (R12)(BX*4), BX
	ORQ  BX, AX
	MOVQ DX, CX
	SHLQ CX, SI
	ORQ  AX, SI
	ADDQ DX, R9
	ADDQ $4, R10
	STORE
	DECQ R14
	JNZ  quad
	JMP  eight

run:
	// Codes too long for four octets a step (random or binary data,
	// whose pairs are too long for the pair tables): two-octet steps to
	// the end, whose tables stay in the L1 cache.
two:
	LEAQ 2(R10), AX
	CMPQ AX, R11
	JHI  short
	MOVBLZX 0(R10), AX
	MOVBLZX 1(R10), BX
	MOVBLZX OCTET_LENS(R12)(BX*1), CX
	MOVBLZX OCTET_LENS(R12)(AX*1), DX
	ADDQ CX, DX
	CMPQ DX, $57
	JHI  one
	MOVL OCTET_CODES(R12)(AX*4), AX
	SHLQ CX, AX
	MOVL OCTET_CODES(R12)(BX*4), BX
	ORQ  BX, AX
	MOVQ DX, CX
	SHLQ CX, SI
	ORQ  AX, SI
	ADDQ DX, R9
	ADDQ $2, R10
	STORE
	JMP  two

short:
	// Fewer than two octets left.
	CMPQ R10, R11
	JAE  done

one:
	MOVBLZX 0(R10), AX
	MOVBLZX OCTET_LENS(R12)(AX*1), CX
	MOVL OCTET_CODES(R12)(AX*4), AX
	SHLQ CX, SI
	ORQ  AX, SI
	ADDQ CX, R9
	INCQ R10
	STORE
	JMP  two

last:
	// Fewer than eight octets left: four, two and one as the bits of
	// their count say, from the pair tables, gathered in AX (their
	// length in DX) and stored at once if they fit, else two octets a
	// step from the start of them. A pair too long for the pair tables
	// has a length of 58, which sends its octets the second way.
	MOVQ  R11, R13
	SUBQ  R10, R13
	JZ    done
	XORL  AX, AX
	XORL  DX, DX
	TESTQ $4, R13
	JZ    last2
	MOVWLZX 0(R10), BX
	MOVBLZX PAIR_LENS(R12)(BX*1), DX
	MOVL  (R12)(BX*4), AX
	MOVWLZX 2(R10), BX
	MOVBLZX PAIR_LENS(R12)(BX*1), CX
	SHLQ  CX, AX
	MOVL  (R12)(BX*4), BX
	ORQ   BX, AX
	ADDQ  CX, DX
	ADDQ  $4, R10

last2:
	TESTQ $2, R13
	JZ    last1
	MOVWLZX 0(R10), BX
	MOVBLZX PAIR_LENS(R12)(BX*1), CX
	SHLQ  CX, AX
	MOVL  (R12)(BX*4), BX
	ORQ   BX, AX
	ADDQ  CX, DX
	ADDQ  $2, R10

last1:
	TESTQ $1, R13
	JZ    lastput
	MOVBLZX 0(R10), BX
	MOVBLZX OCTET_LENS(R12)(BX*1), CX
	SHLQ  CX, AX
	MOVL  OCTET_CODES(R12)(BX*4), BX
	ORQ   BX, AX
	ADDQ  CX, DX
	INCQ  R10

lastput:
	CMPQ DX, $57
	JHI  lastslow
	MOVQ DX, CX
	SHLQ CX, SI
	ORQ  AX, SI
	ADDQ DX, R9
	STORE
	RET

lastslow:
	SUBQ R13, R10
	JMP  two

done:
	RET
