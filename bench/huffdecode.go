package bench

import (
	"bytes"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
)

// The huffman-decode row times Huffman decoding alone (RFC 7541 §5.2) of
// varied header text: the HuffmanVariants variants of HuffmanTextVaried,
// the input the encoder's huffman-text-varied row codes, each string
// coded once, up front, with encoder.AppendHuffmanString. An operation
// decodes the next variant's 24 strings (909 octets), one string at a
// time: ours with decoder.AppendHuffman into a reused slice, x/net with
// hpack.HuffmanDecode into a reused bytes.Buffer (the one form of its
// decoder that writes into the caller's memory). libnghttp2 has no row:
// its Huffman decoder (nghttp2_hd_huff_decode) is internal to the library,
// not exported.

// huffmanCoded returns the strings of HuffmanTextVaried Huffman coded, by
// variant, and the octets each variant decodes to.
func huffmanCoded() (coded [][][]byte, octets []int) {
	for _, variant := range HuffmanTextVaried() {
		var strs [][]byte
		for _, s := range variant {
			strs = append(strs, encoder.AppendHuffmanString(nil, s))
		}
		coded = append(coded, strs)
		octets = append(octets, totalLen(variant))
	}
	return coded, octets
}

// huffmanDecodeRuns returns ours' and x/net's runs of the huffman-decode
// row; a pass decodes the next variant, and its tally counts the octets
// decoded.
func huffmanDecodeRuns() []decodeRun {
	coded, octets := huffmanCoded()
	largest := 0
	for _, n := range octets {
		largest = max(largest, n)
	}
	// cycle runs decode on the next variant's strings n times.
	cycle := func(decode func(src []byte) (int, error)) func(n int) (tally, error) {
		next := 0
		return func(n int) (tally, error) {
			var t tally
			for range n {
				for i, src := range coded[next] {
					got, err := decode(src)
					if err != nil {
						return t, fmt.Errorf("variant %d string %d: %w", next, i, err)
					}
					t.octets += int64(got)
				}
				if next++; next == len(coded) {
					next = 0
				}
			}
			return t, nil
		}
	}
	dst := make([]byte, 0, largest)
	ours := cycle(func(src []byte) (int, error) {
		var err error
		dst, err = decoder.AppendHuffman(dst[:0], src)
		return len(dst), err
	})
	var buf bytes.Buffer
	buf.Grow(largest)
	xnet := cycle(func(src []byte) (int, error) {
		buf.Reset()
		return hpack.HuffmanDecode(&buf, src)
	})
	return []decodeRun{{impl: "ours", pass: ours}, {impl: "xnet", pass: xnet}}
}
