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
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/source/stdio/hpackstdio"
)

func main() {
	capacity := flag.Uint("capacity", 4096, "dynamic table capacity in octets (RFC 7541 §4.1 sizes)")
	noHuffman := flag.Bool("no-huffman", false, "send every string raw")
	utf8Only := flag.Bool("utf8-only", false, "do not offer the binary-safe form: names and values arrive as UTF-8 JSON strings")
	flag.Parse()
	cfg := encoder.Config{Capacity: uint32(*capacity)}
	if *noHuffman {
		cfg.Policy.Huffman = encoder.HuffmanNever
	}
	name := fmt.Sprintf("hpackcert-stdio-ref (capacity %d)", cfg.Capacity)
	err := stdio.Serve(os.Stdin, os.Stdout, name, func() certify.Encoder {
		return certify.NewReference(cfg)
	}, func(s *hpackstdio.Server) { s.Binary = !*utf8Only })
	if err != nil {
		fmt.Fprintln(os.Stderr, "hpackcert-stdio-ref:", err)
		os.Exit(1)
	}
}
