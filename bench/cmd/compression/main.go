// Command compression prints the compression table of BENCHMARKS.md: the
// wire bytes of the 32 raw-data stories of hpack-test-case, per story and in
// all, as encoded by every implementation built in (build with -tags nghttp2
// to include libnghttp2), each divided by the raw bytes of names and values.
//
// Usage:
//
//	go run -tags nghttp2 ./bench/cmd/compression [-dir path/to/hpack-test-case] [-v]
package main

import (
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/hpackcert/hpackcert/bench"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

func main() {
	dir := flag.String("dir", testenv.TestCaseDirPath(), "hpack-test-case directory (holding raw-data/)")
	perStory := flag.Bool("v", false, "print a row per story")
	flag.Parse()
	w, err := bench.Stories(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compression:", err)
		os.Exit(2)
	}
	t, err := bench.MeasureCompression(w, bench.Impls())
	if err != nil {
		fmt.Fprintln(os.Stderr, "compression:", err)
		os.Exit(2)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "story\tblocks\traw bytes\t")
	for _, name := range t.Impls {
		fmt.Fprintf(tw, "%s bytes\t%s ratio\t", name, name)
	}
	fmt.Fprintln(tw)
	row := func(label string, blocks, raw int, wire []int) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t", label, blocks, raw)
		for _, n := range wire {
			fmt.Fprintf(tw, "%d\t%.3f\t", n, float64(n)/float64(raw))
		}
		fmt.Fprintln(tw)
	}
	if *perStory {
		for _, r := range t.Rows {
			row(r.Conn, r.Blocks, r.Raw, r.Wire)
		}
	}
	blocks, raw, wire := t.Totals()
	row("all", blocks, raw, wire)
	tw.Flush()
}
