package property

import (
	"fmt"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"golang.org/x/net/http2/hpack"
)

// The Huffman coding (RFC 7541 §5.2, Appendix B) is tested where it reaches
// the wire: the value of a never-indexed literal field with a new name. The
// strict decoder and x/net's Huffman decoder both read it back, and its
// length must be the sum of the code lengths padded to an octet, which
// x/net's HuffmanEncodeLength computes independently.

// codeLenSymbols lists the octets by the length of their Huffman code.
var codeLenSymbols = func() map[int][]byte {
	m := map[int][]byte{}
	for c := range 256 {
		n := int(spec.HuffmanCodeLens[c])
		m[n] = append(m[n], byte(c))
	}
	return m
}()

// genOctets draws octet strings from five mixes: every octet, printable
// ASCII, short-code octets (Huffman wins), long-code octets (raw wins),
// and strings steered to about 8 bits an octet, where the two lengths tie
// or differ by one octet and the "strictly shorter" rule decides.
func genOctets(p *gopter.GenParameters) *gopter.GenResult {
	rng := p.Rng
	n := rng.Intn(p.MaxSize*3 + 1)
	b := make([]byte, n)
	pick := func(lengths ...int) byte {
		s := codeLenSymbols[lengths[rng.Intn(len(lengths))]]
		return s[rng.Intn(len(s))]
	}
	mix := rng.Intn(5)
	bits := 0
	for i := range b {
		switch mix {
		case 0:
			b[i] = byte(rng.Intn(256))
		case 1:
			b[i] = byte(' ' + rng.Intn(95))
		case 2:
			b[i] = pick(5, 6)
		case 3:
			b[i] = pick(13, 14, 15, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28)
		default:
			if bits > 8*i {
				b[i] = pick(5, 6, 7, 8)
			} else {
				b[i] = pick(8, 10, 11, 12, 13)
			}
		}
		bits += int(spec.HuffmanCodeLens[b[i]])
	}
	return gopter.NewGenResult(b, gen.SliceShrinker(gen.UInt8Shrinker))
}

// TestHuffman: every octet string round-trips; its coded length is the
// computed bound; Huffman is used exactly when strictly shorter.
func TestHuffman(t *testing.T) {
	p := newPair(encoder.Config{})
	ties := 0
	params := params(t, propConfig{runs: 2000, maxSize: 100})
	check(t, params, forAll(func(s []byte) error {
		hl := huffmanLen(s)
		if want := int(hpack.HuffmanEncodeLength(string(s))); hl != want {
			return fmt.Errorf("%q: code lengths add up to %d octets; x/net says %d", s, hl, want)
		}
		if hl == len(s) && len(s) > 0 {
			ties++
		}
		p.reset()
		// pair.block checks the form: Huffman iff strictly shorter,
		// exactly hl octets when coded, raw octets otherwise.
		_, reps, err := p.block(genField{Name: "x-" + string(s), Value: string(s), Sensitive: true})
		if err != nil {
			return err
		}
		r, err := onlyLiteral(reps)
		if err != nil {
			return err
		}
		name, value := "x-"+string(s), string(s)
		for _, w := range []struct {
			wire  wireString
			plain string
		}{{*r.name, name}, {r.value, value}} {
			if !w.wire.huffman {
				continue
			}
			got, err := hpack.HuffmanDecodeToString(w.wire.payload)
			if err != nil {
				return fmt.Errorf("x/net cannot decode the Huffman string %x of %q: %v", w.wire.payload, w.plain, err)
			}
			if got != w.plain {
				return fmt.Errorf("Huffman string %x decodes to %q; want %q", w.wire.payload, got, w.plain)
			}
		}
		return nil
	}, genOctets))
	if ties == 0 && !t.Failed() {
		t.Errorf("no generated string had a Huffman length equal to its length; the tie rule went untested")
	}
}

// TestHuffmanModes: under HuffmanNever every string goes raw; under
// HuffmanNotLonger a string is coded when the coding is not longer, ties
// included (the empty string stays raw).
func TestHuffmanModes(t *testing.T) {
	for _, mode := range []encoder.HuffmanMode{encoder.HuffmanNever, encoder.HuffmanNotLonger} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			p := newPair(encoder.Config{Policy: encoder.Policy{Huffman: mode}})
			params := params(t, propConfig{runs: 500, maxSize: 100})
			check(t, params, forAll(func(s []byte) error {
				p.reset()
				// pair.block checks each string against the mode.
				_, _, err := p.block(genField{Name: "x-" + string(s), Value: string(s), Sensitive: true})
				return err
			}, genOctets))
		})
	}
}

// TestDecoderHuffman: every octet string the encoder codes
// (encoder.AppendHuffmanString) decodes back with the reference decoder's
// AppendHuffman, appended after what dst held; and a coding with a bit
// flipped, an octet dropped or 0xff appended is accepted or refused by
// AppendHuffman as by x/net's HuffmanDecode (EOS in the string and bad
// padding refused), with the same octets when accepted.
func TestDecoderHuffman(t *testing.T) {
	params := params(t, propConfig{runs: 2000, maxSize: 100})
	refused := 0
	check(t, params, forAll(func(s []byte, flip uint16) error {
		code := encoder.AppendHuffmanString(nil, string(s))
		got, err := decoder.AppendHuffman([]byte("kept"), code)
		if err != nil || string(got) != "kept"+string(s) {
			return fmt.Errorf("%q codes to %x, which AppendHuffman decodes to %q, %v; want %q", s, code, got, err, "kept"+string(s))
		}
		bad := append([]byte(nil), code...)
		switch {
		case len(bad) == 0:
			bad = append(bad, 0xff)
		case flip%3 == 0:
			bad = bad[:len(bad)-1]
		case flip%3 == 1:
			bad = append(bad, 0xff)
		default:
			bad[int(flip/3)%len(bad)] ^= 1 << (flip % 8)
		}
		got, err = decoder.AppendHuffman(nil, bad)
		want, xerr := hpack.HuffmanDecodeToString(bad)
		switch {
		case (err == nil) != (xerr == nil):
			return fmt.Errorf("Huffman string %x: AppendHuffman %v; x/net %v", bad, err, xerr)
		case err == nil && string(got) != want:
			return fmt.Errorf("Huffman string %x: AppendHuffman decodes %q; x/net %q", bad, got, want)
		case err != nil:
			refused++
		}
		return nil
	}, genOctets, gen.UInt16()))
	if refused == 0 && !t.Failed() {
		t.Error("no changed coding was refused; the mutations need a look")
	}
}
