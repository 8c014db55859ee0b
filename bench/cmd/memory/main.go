// Command memory prints the memory-per-connection table of BENCHMARKS.md:
// the heap bytes one live encoder holds after 0, 1, 10 and 1,000 header
// blocks of the raw-data stories of hpack-test-case, for ours at several
// capacities, x/net and (built with -tags nghttp2) libnghttp2, whose C heap
// is counted. See bench.MeasureMemory for how. A second table gives the
// bytes one decoder holds, new and after decoding a story (connection c
// decodes story c modulo 32), for ours, x/net and libnghttp2's inflater
// (bench.MeasureDecoderMemory).
//
// Usage:
//
//	go run -tags nghttp2 ./bench/cmd/memory [-dir path/to/hpack-test-case] [-conns 100]
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
	conns := flag.Int("conns", 100, "connections of each case held at once")
	flag.Parse()
	w, err := bench.Stories(*dir)
	if err != nil {
		fail(err)
	}
	after := []int{0, 1, 10, 1000}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "encoder\t")
	for _, n := range after {
		fmt.Fprintf(tw, "%d blocks\t", n)
	}
	fmt.Fprintln(tw)
	for _, mc := range bench.MemoryCases() {
		points, err := bench.MeasureMemory(w, mc, *conns, after)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(tw, "%v\t", mc)
		for _, p := range points {
			fmt.Fprintf(tw, "%.0f\t", p.BytesPerConn)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Println()
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "decoder, table 4096	new	after its story	")
	for _, impl := range bench.DecoderMemoryImpls() {
		m, err := bench.MeasureDecoderMemory(w, impl, *conns)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t\n", m.Impl, m.New, m.Decoded)
	}
	tw.Flush()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "memory:", err)
	os.Exit(2)
}
