package fuzz

import (
	"bytes"
	"errors"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
)

// huffmanProbeName is the name the Huffman and integer checks send their
// values under: absent from the static table, one octet either way.
const huffmanProbeName = "x"

// CheckHuffman is the body of the Huffman target. It reaches the encoder's
// Huffman coder through the field API first: data is sent as the value of a sensitive field, which the encoder writes as a
// "Literal Header Field Never Indexed" with a new name (RFC 7541 §6.2.3),
// once under each Huffman mode that codes. The value's string literal must
// be Huffman coded exactly when the mode says (HuffmanShorter: strictly
// shorter; HuffmanNotLonger: not longer, §5.2), the coded length must
// equal wire.HuffmanLen, the code must equal x/net's AppendHuffmanString
// octet for octet (the canonical code with EOS-prefix padding is unique),
// and a fresh decoder from each factory in oracles must decode the block
// back to data.
//
// The encoder's exported primitives are checked directly as well
// (huffmanDirect), and data is read as a Huffman code by the reference
// decoder (huffmanDecode).
func CheckHuffman(data []byte, oracles []func() oracle.Decoder) error {
	return newChecker(oracles).huffman(data)
}

// MaxHuffmanInput is how many octets of its input CheckHuffman codes; it
// ignores the rest. The strict oracle decodes every code a bit at a time,
// three times, and the go command's minimizer may run the check on the
// order of n² times for an input of n octets, each time at a cost that
// grows with n. The code of 192 octets can reach a length of three octets
// (§5.1, 7-bit prefix, from 255 on) in the direct check; the field API's
// string lengths of three octets are the integer target's.
const MaxHuffmanInput = 192

func (c *checker) huffman(data []byte) error {
	data = data[:min(len(data), MaxHuffmanInput)]
	if err := c.huffmanDirect(data); err != nil {
		return err
	}
	if err := huffmanDecode(data); err != nil {
		return err
	}
	for _, mode := range []encoder.HuffmanMode{encoder.HuffmanShorter, encoder.HuffmanNotLonger} {
		if err := c.huffmanMode(data, mode); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) huffmanMode(data []byte, mode encoder.HuffmanMode) error {
	enc := c.encoder(encoder.Config{Policy: encoder.Policy{Huffman: mode}})
	block := enc.AppendField(nil, []byte(huffmanProbeName), data, true)
	codeLen := wire.HuffmanLen(string(data))
	modeName := "HuffmanShorter"
	wantHuffman := codeLen < len(data)
	if mode == encoder.HuffmanNotLonger {
		modeName = "HuffmanNotLonger"
		wantHuffman = codeLen <= len(data)
	}
	// The empty string is zero octets either way: both forms are right.
	eitherForm := len(data) == 0
	value, octets, err := neverIndexedValue(block)
	if err != nil {
		return fmt.Errorf("%s: value %q: block %x: %v", modeName, data, block, err)
	}
	switch {
	case value.Huffman && !wantHuffman && !eitherForm:
		return fmt.Errorf("%s: value %q: Huffman coded in %d octets; the raw string is %d (block %x)", modeName, data, len(octets), len(data), block)
	case value.Huffman && len(octets) != codeLen:
		return fmt.Errorf("%s: value %q: Huffman code is %d octets; want %d (block %x)", modeName, data, len(octets), codeLen, block)
	case value.Huffman && !bytes.Equal(octets, hpack.AppendHuffmanString(nil, string(data))):
		return fmt.Errorf("%s: value %q: Huffman code %x; x/net codes %x", modeName, data, octets, hpack.AppendHuffmanString(nil, string(data)))
	case !value.Huffman && wantHuffman && !eitherForm:
		return fmt.Errorf("%s: value %q: sent raw although its Huffman code is %d octets and the raw string %d (block %x)", modeName, data, codeLen, len(data), block)
	case !value.Huffman && !bytes.Equal(octets, data):
		return fmt.Errorf("%s: value %q: raw string literal holds %q (block %x)", modeName, data, octets, block)
	}
	want := []Op{{Kind: OpField, Name: huffmanProbeName, Value: string(data), Sensitive: true}}
	for i := range c.oracles {
		d := c.decoder(i)
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

// huffmanDst is what huffmanDirect puts in dst before the code, to
// check that the coder appends and leaves dst's octets alone.
const huffmanDst = "dst"

// huffmanDirect checks the encoder's exported Huffman primitives on
// data (RFC 7541 §5.2, Appendix B): AppendHuffman and AppendHuffmanString
// append the same code after what dst holds; its length equals
// encoder.HuffmanLen, x/net's HuffmanEncodeLength and wire.HuffmanLen
// (from the code lengths); the code equals x/net's AppendHuffmanString;
// and, wrapped as the Huffman-coded value of a "Literal Header Field Never
// Indexed -- New Name" (§6.2.3) whose length is written by our own
// integer coder, every oracle decodes it back to data.
func (c *checker) huffmanDirect(data []byte) error {
	code := encoder.AppendHuffman([]byte(huffmanDst), data)
	if string(code[:len(huffmanDst)]) != huffmanDst {
		return fmt.Errorf("AppendHuffman(%q, %q) changed dst to %q", huffmanDst, data, code[:len(huffmanDst)])
	}
	code = code[len(huffmanDst):]
	codeS := encoder.AppendHuffmanString([]byte(huffmanDst), string(data))
	if !bytes.Equal(codeS, append([]byte(huffmanDst), code...)) {
		return fmt.Errorf("AppendHuffmanString(%q, %q) = %x; AppendHuffman appends %x", huffmanDst, data, codeS, code)
	}
	want := wire.HuffmanLen(string(data))
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
	for i := range c.oracles {
		d := c.decoder(i)
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

// huffmanDecode reads data as a Huffman code (RFC 7541 §5.2) and checks
// the reference decoder's AppendHuffman against x/net's decoder, written
// apart from it: both accept the code, AppendHuffman appending x/net's
// octets after what dst holds, or both refuse it (EOS in the string,
// padding longer than 7 bits or not all ones), AppendHuffman with a
// *decoder.Error naming a Huffman rule and an offset within the code. An
// accepted code is the canonical one (its padding is fixed), so the
// encoder must code the octets back to data.
func huffmanDecode(data []byte) error {
	got, err := decoder.AppendHuffman([]byte(huffmanDst), data)
	want, xerr := hpack.HuffmanDecodeToString(data)
	var derr *decoder.Error
	switch {
	case err != nil && xerr == nil:
		return fmt.Errorf("Huffman code %x: decoder.AppendHuffman refuses it (%v); x/net decodes %q", data, err, want)
	case err == nil && xerr != nil:
		return fmt.Errorf("Huffman code %x: decoder.AppendHuffman decodes %q; x/net refuses it (%v)", data, got[len(huffmanDst):], xerr)
	case err != nil && (!errors.As(err, &derr) || !huffmanRules[derr.Rule] || derr.Offset < 0 || derr.Offset > len(data)):
		return fmt.Errorf("Huffman code %x: decoder.AppendHuffman refuses it with %v; want a Huffman rule at an offset within the code", data, err)
	case err != nil:
		return nil
	case string(got) != huffmanDst+want:
		return fmt.Errorf("Huffman code %x: decoder.AppendHuffman(%q) = %q; x/net decodes %q", data, huffmanDst, got, want)
	}
	if again := encoder.AppendHuffmanString(nil, want); !bytes.Equal(again, data) {
		return fmt.Errorf("Huffman code %x decodes to %q, which the encoder codes %x", data, want, again)
	}
	return nil
}

// huffmanRules are the rules of package decoder a Huffman code can break.
var huffmanRules = map[string]bool{decoder.RuleHuffmanEOS: true, decoder.RuleHuffmanPadLength: true, decoder.RuleHuffmanPadOnes: true}

// neverIndexedValue walks block, which must hold exactly one "Literal
// Header Field Never Indexed -- New Name" (§6.2.3) whose name is
// huffmanProbeName, and returns its value literal and the literal's
// octets as they stand on the wire, Huffman coded if value.Huffman.
func neverIndexedValue(block []byte) (value *wire.String, octets []byte, err error) {
	reps, err := wire.Walk(block)
	switch {
	case err != nil:
		return nil, nil, err
	case len(reps) != 1:
		return nil, nil, fmt.Errorf("%d representations; want one never-indexed literal with a new name", len(reps))
	case reps[0].Kind != wire.NeverIndexed || reps[0].Name == nil:
		return nil, nil, fmt.Errorf("%s with name index %d; want a never-indexed literal with a new name", reps[0].Kind, reps[0].Index.Value)
	case reps[0].Name.Text != huffmanProbeName:
		return nil, nil, fmt.Errorf("name literal %q; want %q", reps[0].Name.Text, huffmanProbeName)
	case reps[0].Name.PadErr != "":
		return nil, nil, fmt.Errorf("name literal %q: %s", reps[0].Name.Text, reps[0].Name.PadErr)
	}
	value = reps[0].Value
	return value, block[value.Length.Offset+value.Length.Octets:][:value.Encoded], nil
}
