package spec

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// appendixBRow is one row of the RFC 7541 Appendix B table.
type appendixBRow struct {
	symbol int
	bits   string // "code as bits" without the octet separators
	hex    uint32 // "code as hex aligned to LSB"
	len    int    // "len in bits"
}

// parseAppendixB reads the Appendix B table by splitting each row into
// fields, independently of the regular expression gen.go uses.
func parseAppendixB(t *testing.T) []appendixBRow {
	t.Helper()
	text, err := os.ReadFile("testdata/rfc7541-appendix-b.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []appendixBRow
	for i, line := range strings.Split(string(text), "\n") {
		// The symbol's number ends at ")  |"; the character before it may
		// itself be a parenthesis or a bar, as in "'(' ( 40)  |".
		closing := strings.Index(line, ")  |")
		if closing < 0 {
			continue
		}
		open := strings.LastIndex(line[:closing], "(")
		symbol, err := strconv.Atoi(strings.TrimSpace(line[open+1 : closing]))
		if err != nil {
			t.Fatalf("appendix B line %d: symbol: %v", i+1, err)
		}
		rest := strings.Fields(line[closing+1:])
		if len(rest) < 3 {
			t.Fatalf("appendix B line %d: %d fields after the symbol; want at least 3", i+1, len(rest))
		}
		hex, err := strconv.ParseUint(rest[1], 16, 32)
		if err != nil {
			t.Fatalf("appendix B line %d: code as hex: %v", i+1, err)
		}
		length, err := strconv.Atoi(strings.Trim(strings.Join(rest[2:], ""), "[]"))
		if err != nil {
			t.Fatalf("appendix B line %d: len: %v", i+1, err)
		}
		rows = append(rows, appendixBRow{symbol, strings.ReplaceAll(rest[0], "|", ""), uint32(hex), length})
	}
	return rows
}

func TestHuffmanTablesMatchAppendixB(t *testing.T) {
	rows := parseAppendixB(t)
	if len(rows) != EOS+1 {
		t.Fatalf("appendix B has %d rows; want %d", len(rows), EOS+1)
	}
	for i, r := range rows {
		if r.symbol != i {
			t.Fatalf("appendix B row %d is symbol %d", i, r.symbol)
		}
		if got := HuffmanCodes[i]; got != r.hex {
			t.Errorf("HuffmanCodes[%d] = %#x; want %#x", i, got, r.hex)
		}
		if got := int(HuffmanCodeLens[i]); got != r.len {
			t.Errorf("HuffmanCodeLens[%d] = %d; want %d", i, got, r.len)
		}
		// The two columns of the RFC must agree with each other too.
		if len(r.bits) != r.len {
			t.Errorf("appendix B symbol %d: code as bits has %d bits; len says %d", i, len(r.bits), r.len)
		}
		if want := codeBits(HuffmanCodes[i], HuffmanCodeLens[i]); r.bits != want {
			t.Errorf("symbol %d: code as bits %s; HuffmanCodes gives %s", i, r.bits, want)
		}
	}
}

// codeBits writes a right-aligned code of n bits as a string of 0s and 1s.
func codeBits(code uint32, n uint8) string {
	s := strconv.FormatUint(uint64(code), 2)
	return strings.Repeat("0", int(n)-len(s)) + s
}

// TestHuffmanMatchesXNet checks every octet against x/net's encoder: the
// encoding of the octet alone is its code padded with ones to an octet
// boundary (RFC 7541 §5.2), and eight copies take exactly len octets.
func TestHuffmanMatchesXNet(t *testing.T) {
	for sym := 0; sym < 256; sym++ {
		n := uint(HuffmanCodeLens[sym])
		padded := (n + 7) / 8 * 8
		value := uint64(HuffmanCodes[sym])<<(padded-n) | (1<<(padded-n) - 1)
		want := make([]byte, padded/8)
		for i := range want {
			want[i] = byte(value >> (padded - 8*uint(i+1)))
		}
		if got := hpack.AppendHuffmanString(nil, string([]byte{byte(sym)})); !bytes.Equal(got, want) {
			t.Errorf("symbol %d: x/net encodes % x; our code %s padded with ones is % x", sym, got, codeBits(HuffmanCodes[sym], HuffmanCodeLens[sym]), want)
		}
		if got := hpack.HuffmanEncodeLength(strings.Repeat(string([]byte{byte(sym)}), 8)); got != uint64(n) {
			t.Errorf("symbol %d: x/net encodes 8 copies in %d octets; want HuffmanCodeLens = %d", sym, got, n)
		}
	}
}

// TestHuffmanCodeIsCanonical checks the shape §5.2 and Appendix B promise:
// a canonical code, where sorting by (length, symbol) gives consecutive
// values, which makes it prefix-free; and a complete one (Kraft sum 1).
func TestHuffmanCodeIsCanonical(t *testing.T) {
	const maxLen = 30
	var next uint32 // the value the next code must have at its length
	prevLen := uint8(0)
	seen := 0
	for length := uint8(1); length <= maxLen; length++ {
		for sym := 0; sym <= EOS; sym++ {
			if HuffmanCodeLens[sym] != length {
				continue
			}
			if seen > 0 {
				next <<= length - prevLen
			}
			if HuffmanCodes[sym] != next {
				t.Fatalf("symbol %d (len %d) has code %s; a canonical code has %s", sym, length, codeBits(HuffmanCodes[sym], length), codeBits(next, length))
			}
			next++
			prevLen = length
			seen++
		}
	}
	if seen != EOS+1 {
		t.Fatalf("%d symbols have a length in 1..%d; want %d", seen, maxLen, EOS+1)
	}
	var kraft uint64
	for sym := 0; sym <= EOS; sym++ {
		kraft += 1 << (maxLen - HuffmanCodeLens[sym])
	}
	if kraft != 1<<maxLen {
		t.Errorf("Kraft sum = %d/2^%d; want 1 (a complete code)", kraft, maxLen)
	}
}

func TestHuffmanCodeIsPrefixFree(t *testing.T) {
	for a := 0; a <= EOS; a++ {
		for b := 0; b <= EOS; b++ {
			if a == b || HuffmanCodeLens[a] > HuffmanCodeLens[b] {
				continue
			}
			if HuffmanCodes[b]>>(HuffmanCodeLens[b]-HuffmanCodeLens[a]) == HuffmanCodes[a] {
				t.Errorf("code of symbol %d (%s) is a prefix of the code of symbol %d (%s)", a,
					codeBits(HuffmanCodes[a], HuffmanCodeLens[a]), b, codeBits(HuffmanCodes[b], HuffmanCodeLens[b]))
			}
		}
	}
}

// TestEOS checks that EOS is 30 ones (§5.2: padding is a prefix of it) and
// that no octet has a code of all ones, which would make padding ambiguous.
func TestEOS(t *testing.T) {
	if got, want := codeBits(HuffmanCodes[EOS], HuffmanCodeLens[EOS]), strings.Repeat("1", 30); got != want {
		t.Errorf("EOS code = %s; want %s", got, want)
	}
	for sym := 0; sym < EOS; sym++ {
		if HuffmanCodes[sym] == 1<<HuffmanCodeLens[sym]-1 {
			t.Errorf("symbol %d has an all-ones code %s", sym, codeBits(HuffmanCodes[sym], HuffmanCodeLens[sym]))
		}
	}
}
