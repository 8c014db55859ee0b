// Command grades reads hpackcert JSON reports (run, decoders and live, each
// with --json) and prints one line per target and case: the target, the
// case id and its grade, sorted. Two revisions' outputs compared with diff
// show whether a change kept behaviour (ci/golden.sh does that for the
// built-in encoders and decoders, the recorded directories, the adapters
// and the live targets).
//
//	grades [-kind KIND] REPORT.json...
//
// -kind keeps the targets of one kind ("in-process", "stdio", "recorded"
// or "live"): one decoder run's report gives the adapters' and the live
// targets' grades apart.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/hpackcert/hpackcert/report"
)

func main() {
	kind := flag.String("kind", "", "keep the targets of this `KIND` only")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: grades [-kind KIND] REPORT.json...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	lines, err := grades(flag.Args(), *kind)
	if err != nil {
		fmt.Fprintln(os.Stderr, "grades:", err)
		os.Exit(2)
	}
	for _, l := range lines {
		fmt.Println(l)
	}
}

// grades returns the "target<TAB>case<TAB>grade" lines of the reports at
// paths, sorted: of every target, or of the targets of kind when it is set.
func grades(paths []string, kind string) ([]string, error) {
	var lines []string
	for _, path := range paths {
		r, err := readReport(path)
		if err != nil {
			return nil, err
		}
		for name, target := range r.Encoders {
			if kind != "" && target.Kind != kind {
				continue
			}
			for id, c := range target.Cases {
				lines = append(lines, fmt.Sprintf("%s\t%s\t%s", name, id, c.Grade))
			}
		}
	}
	slices.Sort(lines)
	return lines, nil
}

// readReport reads the JSON report at path; its errors name the file.
func readReport(path string) (*report.JSONReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
