package fuzz

import (
	"bytes"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// huffmanProbeName is the name the Huffman and integer checks send their
// values under: absent from the static table, one octet either way.
const huffmanProbeName = "x"

// HuffmanLen returns the length in octets of the Huffman code of s, padding
// included (RFC 7541 §5.2), from the code lengths of Appendix B.
func HuffmanLen(s []byte) int {
	bits := 0
	for _, c := range s {
		bits += int(spec.HuffmanCodeLens[c])
	}
	return (bits + 7) / 8
}

// CheckHuffman is the body of the Huffman target. It reaches the encoder's
// Huffman coder through the field API first: data is sent as the value of a sensitive field, which the encoder writes as a
// "Literal Header Field Never Indexed" with a new name (RFC 7541 §6.2.3),
// once under each Huffman mode that codes. The value's string literal must
// be Huffman coded exactly when the mode says (HuffmanShorter: strictly
// shorter; HuffmanNotLonger: not longer, §5.2), the coded length must
// equal HuffmanLen, the code must equal x/net's AppendHuffmanString octet
// for octet (the canonical code with EOS-prefix padding is unique), and a
// fresh decoder from each factory in oracles must decode the block back to
// data.
//
// The encoder's exported primitives are checked directly as well
// (checkHuffmanDirect).
func CheckHuffman(data []byte, oracles []func() oracle.Decoder) error {
	if err := checkHuffmanDirect(data, oracles); err != nil {
		return err
	}
	for _, mode := range []encoder.HuffmanMode{encoder.HuffmanShorter, encoder.HuffmanNotLonger} {
		if err := checkHuffmanMode(data, mode, oracles); err != nil {
			return err
		}
	}
	return nil
}

func checkHuffmanMode(data []byte, mode encoder.HuffmanMode, oracles []func() oracle.Decoder) error {
	enc := encoder.New(encoder.Config{Policy: encoder.Policy{Huffman: mode}})
	block := enc.AppendField(nil, []byte(huffmanProbeName), data, true)
	modeName := "HuffmanShorter"
	wantHuffman := HuffmanLen(data) < len(data)
	if mode == encoder.HuffmanNotLonger {
		modeName = "HuffmanNotLonger"
		wantHuffman = HuffmanLen(data) <= len(data)
	}
	// The empty string is zero octets either way: both forms are right.
	eitherForm := len(data) == 0
	lit, err := parseNeverIndexedNewName(block)
	if err != nil {
		return fmt.Errorf("%s: value %q: block %x: %v", modeName, data, block, err)
	}
	switch {
	case lit.huffman && !wantHuffman && !eitherForm:
		return fmt.Errorf("%s: value %q: Huffman coded in %d octets; the raw string is %d (block %x)", modeName, data, len(lit.value), len(data), block)
	case lit.huffman && len(lit.value) != HuffmanLen(data):
		return fmt.Errorf("%s: value %q: Huffman code is %d octets; want %d (block %x)", modeName, data, len(lit.value), HuffmanLen(data), block)
	case lit.huffman && !bytes.Equal(lit.value, hpack.AppendHuffmanString(nil, string(data))):
		return fmt.Errorf("%s: value %q: Huffman code %x; x/net codes %x", modeName, data, lit.value, hpack.AppendHuffmanString(nil, string(data)))
	case !lit.huffman && wantHuffman && !eitherForm:
		return fmt.Errorf("%s: value %q: sent raw although its Huffman code is %d octets and the raw string %d (block %x)", modeName, data, HuffmanLen(data), len(data), block)
	case !lit.huffman && !bytes.Equal(lit.value, data):
		return fmt.Errorf("%s: value %q: raw string literal holds %q (block %x)", modeName, data, lit.value, block)
	}
	want := []Op{{Kind: OpField, Name: huffmanProbeName, Value: string(data), Sensitive: true}}
	for _, newDecoder := range oracles {
		d := newDecoder()
		got, err := d.DecodeBlock(block)
		if err != nil {
			return fmt.Errorf("%s: value %q: %s rejects the block %x: %v", modeName, data, d.Name(), block, err)
		}
		if err := compareFields(got, want); err != nil {
			return fmt.Errorf("%s: value %q: %s decodes the block %x: %v", modeName, data, d.Name(), block, err)
		}
	}
	return nil
}

// huffmanDst is what checkHuffmanDirect puts in dst before the code, to
// check that the coder appends and leaves dst's octets alone.
const huffmanDst = "dst"

// checkHuffmanDirect checks the encoder's exported Huffman primitives on
// data (RFC 7541 §5.2, Appendix B): AppendHuffman and AppendHuffmanString
// append the same code after what dst holds; its length equals
// encoder.HuffmanLen, x/net's HuffmanEncodeLength and HuffmanLen (ours,
// from the code lengths); the code equals x/net's AppendHuffmanString;
// and, wrapped as the Huffman-coded value of a "Literal Header Field Never
// Indexed -- New Name" (§6.2.3) whose length is written by our own
// integer coder, every oracle decodes it back to data.
func checkHuffmanDirect(data []byte, oracles []func() oracle.Decoder) error {
	code := encoder.AppendHuffman([]byte(huffmanDst), data)
	if string(code[:len(huffmanDst)]) != huffmanDst {
		return fmt.Errorf("AppendHuffman(%q, %q) changed dst to %q", huffmanDst, data, code[:len(huffmanDst)])
	}
	code = code[len(huffmanDst):]
	codeS := encoder.AppendHuffmanString([]byte(huffmanDst), string(data))
	if !bytes.Equal(codeS, append([]byte(huffmanDst), code...)) {
		return fmt.Errorf("AppendHuffmanString(%q, %q) = %x; AppendHuffman appends %x", huffmanDst, data, codeS, code)
	}
	want := HuffmanLen(data)
	if n := encoder.HuffmanLen(data); n != want {
		return fmt.Errorf("encoder.HuffmanLen(%q) = %d; want %d", data, n, want)
	}
	if n := hpack.HuffmanEncodeLength(string(data)); n != uint64(want) {
		return fmt.Errorf("x/net HuffmanEncodeLength(%q) = %d; want %d", data, n, want)
	}
	if len(code) != want {
		return fmt.Errorf("AppendHuffman(%q) appends %d octets %x; want %d", data, len(code), code, want)
	}
	if xnet := hpack.AppendHuffmanString(nil, string(data)); !bytes.Equal(code, xnet) {
		return fmt.Errorf("AppendHuffman(%q) = %x; x/net codes %x", data, code, xnet)
	}
	block := []byte{0x10, byte(len(huffmanProbeName))} // never indexed, new name, raw
	block = append(block, huffmanProbeName...)
	block = appendInteger(block, 0x80, 7, uint64(len(code))) // H = 1
	block = append(block, code...)
	wantFields := []Op{{Kind: OpField, Name: huffmanProbeName, Value: string(data), Sensitive: true}}
	for _, newDecoder := range oracles {
		d := newDecoder()
		got, err := d.DecodeBlock(block)
		if err != nil {
			return fmt.Errorf("AppendHuffman(%q) = %x: %s rejects it as a field value, block %x: %v", data, code, d.Name(), block, err)
		}
		if err := compareFields(got, wantFields); err != nil {
			return fmt.Errorf("AppendHuffman(%q) = %x: %s decodes the block %x: %v", data, code, d.Name(), block, err)
		}
	}
	return nil
}

// stringLiteral is a string literal as it stands on the wire (§5.2).
type stringLiteral struct {
	huffman bool
	value   []byte // the octets of the literal, Huffman coded if huffman
}

// parseNeverIndexedNewName splits a block holding exactly one "Literal
// Header Field Never Indexed -- New Name" (§6.2.3, first octet 0x10) whose
// name is huffmanProbeName, and returns its value literal.
func parseNeverIndexedNewName(block []byte) (stringLiteral, error) {
	if len(block) == 0 || block[0] != 0x10 {
		return stringLiteral{}, fmt.Errorf("does not start with 0x10, a never-indexed literal with a new name")
	}
	p := &wireReader{block: block, pos: 1}
	name, err := p.stringLiteral()
	if err != nil {
		return stringLiteral{}, err
	}
	wantName := []byte(huffmanProbeName)
	if name.huffman {
		wantName = hpack.AppendHuffmanString(nil, huffmanProbeName)
	}
	if !bytes.Equal(name.value, wantName) {
		return stringLiteral{}, fmt.Errorf("name literal %+v; want %q", name, huffmanProbeName)
	}
	value, err := p.stringLiteral()
	if err != nil {
		return stringLiteral{}, err
	}
	if p.pos != len(block) {
		return stringLiteral{}, fmt.Errorf("%d octets after the field", len(block)-p.pos)
	}
	return value, nil
}

// wireReader reads the primitives of RFC 7541 §5 from a block. It is the
// fuzz package's own, written from the RFC, so the checks do not lean on
// the encoder or an oracle to read what the encoder wrote.
type wireReader struct {
	block []byte
	pos   int
}

// integer reads an integer with an n-bit prefix (§5.1) and returns it with
// the number of octets it took.
func (r *wireReader) integer(n uint) (value uint64, octets int, err error) {
	value, octets, err = readInteger(r.block[r.pos:], n)
	if err != nil {
		return 0, 0, fmt.Errorf("offset %d: %v", r.pos, err)
	}
	r.pos += octets
	return value, octets, nil
}

func (r *wireReader) stringLiteral() (stringLiteral, error) {
	if r.pos >= len(r.block) {
		return stringLiteral{}, fmt.Errorf("offset %d: string literal missing", r.pos)
	}
	huffman := r.block[r.pos]&0x80 != 0
	n, _, err := r.integer(7)
	if err != nil {
		return stringLiteral{}, err
	}
	if n > uint64(len(r.block)-r.pos) {
		return stringLiteral{}, fmt.Errorf("offset %d: string of %d octets runs past the block", r.pos, n)
	}
	s := stringLiteral{huffman: huffman, value: r.block[r.pos : r.pos+int(n)]}
	r.pos += int(n)
	return s, nil
}
