// Command paired measures how many times faster our encoder is than x/net's
// and libnghttp2's on the workloads issue 16 sets targets for, our decoder
// on those of issue 38 (decode-*, huffman-decode, hop-*), and the QPACK
// reference encoder against libnghttp3's (qpack-encode, issue 39), with the
// implementations run in short alternating slices and each peer's time
// divided by ours within the same round (see bench.MeasurePaired). It
// prints, per workload, each implementation's median time per operation
// and the quartiles of the per-round ratios. BENCHMARKS.md explains why
// these ratios are steadier than those of compare.sh on a shared machine.
//
// Usage:
//
//	taskset -c 0 go run -tags nghttp2,nghttp3 ./bench/cmd/paired [-rounds 60] [-slice 20ms] [-w batch,stories,...] [-dir path/to/hpack-test-case]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hpackcert/hpackcert/bench"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// targets are issue 16's, by workload and peer, and issue 38's for the
// decoding rows.
var targets = map[string]map[string]string{
	"batch":                 {"xnet": ">= 5x", "nghttp2": ">= 2.5x"},
	"stories":               {"xnet": ">= 5x", "nghttp2": ">= 2.5x"},
	"churn":                 {"xnet": ">= 4x"},
	"huffman-text-varied":   {"xnet": ">= 3x"},
	"huffman-random-varied": {"xnet": ">= 3x"},
	"compat-batch":          {},
	"compat-stories":        {},
	"block-batch":           {},
	"block-stories":         {},
	"block-churn":           {},
	"proxy-stories":         {},
	"proxy-churn":           {},
	// Issue 38's: decoding, and the proxy hop on both halves.
	"decode-batch":   {"xnet": ">= 3x", "nghttp2": ">= 1.5x"},
	"decode-stories": {"xnet": ">= 3x", "nghttp2": ">= 1.5x"},
	"huffman-decode": {},
	"hop-stories":    {"xnet": ">= 3.5x", "nghttp2": ">= 1.5x"},
	"hop-churn":      {},
	// Issue 39's: QPACK encoding, the reference against libnghttp3.
	"qpack-encode": {},
}

func main() {
	dir := flag.String("dir", testenv.TestCaseDirPath(), "hpack-test-case directory (holding raw-data/), for the stories")
	rounds := flag.Int("rounds", 60, "rounds of slices per workload")
	slice := flag.Duration("slice", 20*time.Millisecond, "time of one implementation's slice in a round")
	only := flag.String("w", "", "comma-separated `workloads` (batch, stories, churn, huffman-text-varied, huffman-random-varied, compat-batch, compat-stories, block-batch, block-stories, block-churn, proxy-stories, proxy-churn, decode-batch, decode-stories, huffman-decode, hop-stories, hop-churn, qpack-encode); empty: all")
	flag.Parse()
	if *rounds < 1 || *slice <= 0 {
		fmt.Fprintln(os.Stderr, "paired: -rounds and -slice must be positive")
		os.Exit(2)
	}
	var names []string
	if *only != "" {
		names = strings.Split(*only, ",")
		for _, n := range names {
			if _, ok := targets[n]; !ok {
				fmt.Fprintf(os.Stderr, "paired: unknown workload %q in -w\n", n)
				os.Exit(2)
			}
		}
	}
	workloads, err := bench.PairedWorkloads(*dir, bench.Impls(), names)
	if err != nil {
		fmt.Fprintln(os.Stderr, "paired:", err)
		os.Exit(2)
	}
	fmt.Printf("%s %s/%s, %d rounds of %v slices\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, *rounds, *slice)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tunit\timpl\tns/unit (median)\tpeer/ours (median)\tq1\tq3\ttarget\t")
	clock := "thread CPU time"
	for _, w := range workloads {
		res, err := bench.MeasurePaired(w, *rounds, *slice)
		w.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, "paired:", err)
			os.Exit(1)
		}
		for i, impl := range res.Impls {
			if i == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t\t\t\t\t\n", res.Workload, res.Unit, impl, res.Median(i))
				continue
			}
			q1, med, q3 := res.Ratios(i)
			fmt.Fprintf(tw, "\t\t%s\t%.1f\t%.2fx\t%.2fx\t%.2fx\t%s\t\n", impl, res.Median(i), med, q1, q3, targets[res.Workload][impl])
		}
		if !res.CPUTime {
			clock = "wall time"
		}
	}
	tw.Flush()
	fmt.Println("clock:", clock)
}
