// Command hpackcert-stdio-ref is the reference encoder (package encoder)
// speaking hpack-stdio/1 on its standard input and output: the example of
// the protocol for encoder authors, and the program the certifier's tests
// drive through --exec.
//
//	hpackcert run --exec hpackcert-stdio-ref
//
// It offers the binary-safe form of the protocol in its answer to hello,
// so that the certifier sends it every octet value; -utf8-only keeps to
// the form without it, as an encoder that never offers it would. Flags
// -capacity and -no-huffman select the encoder's Config, so that the
// certifier can be shown an encoder with another table budget or without
// Huffman coding.
//
// With -qpack-encoder it is the reference QPACK encoder (package
// qencoder, with a table of -capacity octets at most) speaking the QPACK
// mode of the protocol, and with -qpack-decoder the strict QPACK decoder
// (package oracle/qstrict), the example of that mode for each side:
//
//	hpackcert qpack --exec 'hpackcert-stdio-ref -qpack-encoder'
//	hpackcert qpack-decoders --exec 'hpackcert-stdio-ref -qpack-decoder'
//
// It links the protocol (hpackstdio) and the encoders only, and the
// strict QPACK decoder, none of the certifier's engine: an example of how
// little a program speaking hpack-stdio/1 needs.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/hpackstdio"
)

func main() {
	capacity := flag.Uint("capacity", 4096, "dynamic table capacity in octets (RFC 7541 §4.1 sizes)")
	noHuffman := flag.Bool("no-huffman", false, "send every string raw")
	utf8Only := flag.Bool("utf8-only", false, "do not offer the binary-safe form: names and values arrive as UTF-8 JSON strings")
	qpackEncoder := flag.Bool("qpack-encoder", false, "speak the QPACK mode as the reference QPACK encoder")
	qpackDecoder := flag.Bool("qpack-decoder", false, "speak the QPACK mode as the strict QPACK decoder")
	flag.Parse()
	if *qpackEncoder || *qpackDecoder {
		if err := serveQPACK(*qpackDecoder, *qpackEncoder, uint32(*capacity), !*utf8Only); err != nil {
			fmt.Fprintln(os.Stderr, "hpackcert-stdio-ref:", err)
			os.Exit(1)
		}
		return
	}
	cfg := encoder.Config{Capacity: uint32(*capacity)}
	if *noHuffman {
		cfg.Policy.Huffman = encoder.HuffmanNever
	}
	name := fmt.Sprintf("hpackcert-stdio-ref (capacity %d)", cfg.Capacity)
	s := &hpackstdio.Server{
		Name:       name,
		NewEncoder: func() hpackstdio.Encoder { return &context{enc: encoder.New(cfg)} },
		Binary:     !*utf8Only,
	}
	if err := s.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hpackcert-stdio-ref:", err)
		os.Exit(1)
	}
}

// context is one encoding context of the reference encoder, as the
// Server drives it.
type context struct{ enc *encoder.Encoder }

func (c *context) SetMaxDynamicTableSize(n uint32) error {
	c.enc.SetMaxDynamicTableSize(n)
	return nil
}

// EncodeBlock starts the block with the size updates pending, so that a
// block without fields still carries them (RFC 7541 §4.2).
func (c *context) EncodeBlock(dst []byte, fields []hpackstdio.Field) ([]byte, error) {
	dst = c.enc.AppendSizeUpdates(dst)
	for _, f := range fields {
		dst = c.enc.AppendFieldString(dst, f.Name, f.Value, f.Sensitive)
	}
	return dst, nil
}
