// Command bombenc is a hostile encoder speaking hpack-stdio/1 for the
// certifier's memory tests: every encode request is answered with the
// block its -bomb flag names, written to standard output as it is made,
// so that the program itself stays small whatever it sends.
//
//	-bomb indexed    a 4,000-octet literal with incremental indexing, then
//	                 100,000 one-octet references to it (about 104 KB)
//	-bomb wire       32 MiB of one-octet indexed fields
//	-bomb per-block  100 KB of one-octet indexed fields
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	bomb := flag.String("bomb", "indexed", "the block every encode request gets: indexed, wire or per-block")
	flag.Parse()
	var block func(w *bufio.Writer)
	repeat := func(w *bufio.Writer, octet byte, n int) {
		h := hex.EncodeToString([]byte{octet})
		for range n {
			w.WriteString(h)
		}
	}
	switch *bomb {
	case "indexed":
		// Literal with incremental indexing (§6.2.1), new name "x-bomb",
		// raw value of 4,000 octets (length 127 + 3873 = 0x7f 0xa1 0x1e),
		// then indexed references to index 62, the new entry.
		literal := append([]byte{0x40, 0x06}, "x-bomb"...)
		literal = append(literal, 0x7f, 0xa1, 0x1e)
		literal = append(literal, strings.Repeat("a", 4000)...)
		block = func(w *bufio.Writer) {
			w.WriteString(hex.EncodeToString(literal))
			repeat(w, 0x80|62, 100_000)
		}
	case "wire":
		block = func(w *bufio.Writer) { repeat(w, 0x82, 32<<20) }
	case "per-block":
		block = func(w *bufio.Writer) { repeat(w, 0x82, 100_000) }
	default:
		fmt.Fprintf(os.Stderr, "bombenc: unknown -bomb %q (want indexed, wire or per-block)\n", *bomb)
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct{ Op string }
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintf(out, "{\"error\":%q}\n", err.Error())
		} else {
			switch req.Op {
			case "hello":
				fmt.Fprintf(out, "{\"name\":\"bombenc %s\"}\n", *bomb)
			case "new":
				out.WriteString("{}\n")
			default:
				out.WriteString(`{"wire":"`)
				block(out)
				out.WriteString("\"}\n")
			}
		}
		if err := out.Flush(); err != nil {
			return // the certifier stopped reading: it refused the answer
		}
	}
}
