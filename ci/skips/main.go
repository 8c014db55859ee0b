// Command skips reads the output of go test -json on its standard input
// and prints one line for each test that was skipped: the package, the
// test and the text it gave for skipping. With -require TEXT it exits 1
// when a skip's text lacks TEXT, naming those skips on standard error;
// -allow OTHER accepts a skip whose text has OTHER instead.
// With -failures it prints the failed tests and their output instead.
// ci/bare-clone.sh uses it to list the tests a bare clone skips and to
// check that each skips only for missing external data.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

// event is the part of a test2json event this command reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func main() {
	require := flag.String("require", "", "text every skip reason must contain")
	allow := flag.String("allow", "", "another text a skip reason may contain instead of -require's")
	failures := flag.Bool("failures", false, "print failed tests with their output instead of skips")
	flag.Parse()
	output := map[string]*strings.Builder{}
	var bad []string
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			if output[key] == nil {
				output[key] = &strings.Builder{}
			}
			line := strings.TrimSpace(e.Output)
			if line != "" && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "--- ") {
				output[key].WriteString(line + " ")
			}
		case "fail":
			if *failures && output[key] != nil {
				fmt.Printf("FAIL %s: %s\n", key, output[key].String())
			}
		case "skip":
			if *failures {
				continue
			}
			reason := ""
			if b := output[key]; b != nil {
				reason = strings.TrimSpace(b.String())
			}
			fmt.Printf("%s: %s\n", key, reason)
			if *require != "" && !strings.Contains(reason, *require) && (*allow == "" || !strings.Contains(reason, *allow)) {
				bad = append(bad, key+": "+reason)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "skips:", err)
		os.Exit(2)
	}
	if len(bad) > 0 {
		also := ""
		if *allow != "" {
			also = fmt.Sprintf(" or %q", *allow)
		}
		fmt.Fprintf(os.Stderr, "skips: %d tests skipped for another reason than %q%s:\n  %s\n", len(bad), *require, also, strings.Join(bad, "\n  "))
		os.Exit(1)
	}
}
