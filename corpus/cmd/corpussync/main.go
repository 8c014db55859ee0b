// Command corpussync keeps the raw seed corpus in corpus/<Target>/ and Go's
// native corpus in fuzz/testdata/fuzz/<Target>/ in step, in both
// directions, exports the seeds for libFuzzer binaries built by
// go-118-fuzz-build (OSS-Fuzz, ClusterFuzzLite), and brings the corpora
// those farms grow back. Run it from the module root:
//
//	go run ./corpus/cmd/corpussync            # sync both ways
//	go run ./corpus/cmd/corpussync -check     # exit 1 if a sync would write
//	go run ./corpus/cmd/corpussync -libfuzzer DIR
//	go run ./corpus/cmd/corpussync -from-libfuzzer DIR
//
// -from-libfuzzer reads DIR/<Target>/, libFuzzer inputs framed for
// go-118-fuzz-build, adds the values not in corpus/<Target>/ yet, and
// syncs. A second sync writes nothing.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hpackcert/hpackcert/corpus"
)

func main() {
	rawDir := flag.String("corpus", "corpus", "directory of raw seeds, one subdirectory per target")
	testdataDir := flag.String("testdata", "fuzz/testdata/fuzz", "directory of \"go test fuzz v1\" files, one subdirectory per target")
	check := flag.Bool("check", false, "write nothing; list what a sync would write and exit 1 if anything")
	libFuzzerDir := flag.String("libfuzzer", "", "sync nothing; write the raw seeds, framed for go-118-fuzz-build binaries, to `dir`/<Target>/")
	fromLibFuzzer := flag.String("from-libfuzzer", "", "add the inputs of the libFuzzer corpora `dir`/<Target>/ (framed for go-118-fuzz-build) to the raw seeds, then sync")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: corpussync [-check] [-corpus dir] [-testdata dir] [-libfuzzer dir | -from-libfuzzer dir]")
		os.Exit(2)
	}
	if *fromLibFuzzer != "" {
		writes, err := corpus.ImportLibFuzzer(*fromLibFuzzer, *rawDir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpussync:", err)
			os.Exit(2)
		}
		for _, w := range writes {
			fmt.Println("imported", w.Path)
		}
		fmt.Printf("corpussync: %d inputs imported from %s\n", len(writes), *fromLibFuzzer)
	}
	if *libFuzzerDir != "" {
		n, err := corpus.ExportLibFuzzer(*rawDir, *libFuzzerDir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpussync:", err)
			os.Exit(2)
		}
		fmt.Printf("corpussync: %d libFuzzer seeds in %s\n", n, *libFuzzerDir)
		return
	}
	if *check {
		writes, err := corpus.Plan(*rawDir, *testdataDir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpussync:", err)
			os.Exit(2)
		}
		for _, w := range writes {
			fmt.Println("missing:", w.Path)
		}
		if len(writes) > 0 {
			fmt.Fprintf(os.Stderr, "corpussync: %d files out of step; run go run ./corpus/cmd/corpussync\n", len(writes))
			os.Exit(1)
		}
		return
	}
	writes, err := corpus.Sync(*rawDir, *testdataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpussync:", err)
		os.Exit(2)
	}
	for _, w := range writes {
		fmt.Println("wrote", w.Path)
	}
	fmt.Printf("corpussync: %d files written\n", len(writes))
}
