package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

var listCommand = &command{
	Name:      "list",
	UsageLine: "hpackcert list [--decoders] [--cases PREFIX] [-v]",
	Short:     "print the cases (-v: with the RFC text each checks)",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var cases listFlag
		var verbose, decoders bool
		fs.section("list flags", func() {
			fs.Var(&cases, "cases", "`PREFIX` print the cases whose id starts with PREFIX (repeatable, or comma-separated)")
			fs.BoolVar(&verbose, "v", false, "print the RFC text of each case")
			fs.BoolVar(&decoders, "decoders", false, "print the dec/ cases (hpackcert decoders) instead of the enc/ ones; a dec/ prefix in --cases implies it")
		})
		return func(stdout, _ io.Writer) (int, error) {
			prefixes := splitCases(cases)
			selectCases := certify.SelectCases
			if decoders || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(p, "dec/") }) {
				selectCases = certify.SelectDecoderCases
			}
			selected, err := selectCases(prefixes)
			if err != nil {
				return 2, &usageError{fmt.Sprintf("--cases: %v", err)}
			}
			fmt.Fprintf(stdout, "%-12s %-11s %s\n", "case", "if broken", "title")
			for _, c := range selected {
				fmt.Fprintf(stdout, "%-12s %-11s %s\n", c.ID, c.Violation, c.Title)
				if verbose {
					fmt.Fprintf(stdout, "             %s\n", c.Rule())
				}
			}
			return 0, nil
		}
	},
}
