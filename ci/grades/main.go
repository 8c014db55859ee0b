// Command grades reads hpackcert JSON reports (run --json, live --json) and
// prints one line per encoder and case: the encoder, the case id and its
// grade, sorted. Two revisions' outputs compared with diff show whether a
// change kept behaviour (ci/golden.sh does that for the built-in encoders,
// the recorded directories, the matrix adapters and the live targets).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// report is the part of a JSON report this command reads.
type report struct {
	Encoders map[string]struct {
		Cases map[string]struct {
			Grade string `json:"grade"`
		} `json:"cases"`
	} `json:"encoders"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: grades REPORT.json...")
		os.Exit(2)
	}
	var lines []string
	for _, path := range os.Args[1:] {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "grades:", err)
			os.Exit(2)
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			fmt.Fprintf(os.Stderr, "grades: %s: %v\n", path, err)
			os.Exit(2)
		}
		for enc, e := range r.Encoders {
			for id, c := range e.Cases {
				lines = append(lines, fmt.Sprintf("%s\t%s\t%s", enc, id, c.Grade))
			}
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
}
