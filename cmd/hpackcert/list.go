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
	UsageLine: "hpackcert list [--decoders|--qpack|--qpack-decoders] [--cases PREFIX] [-v]",
	Short:     "print the cases (-v: with the RFC text each checks)",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var cases listFlag
		var verbose, decoders, qenc, qdec bool
		fs.section("list flags", func() {
			fs.Var(&cases, "cases", "`PREFIX` print the cases whose id starts with PREFIX (repeatable, or comma-separated)")
			fs.BoolVar(&verbose, "v", false, "print the RFC text of each case")
			fs.BoolVar(&decoders, "decoders", false, "print the dec/ cases (hpackcert decoders) instead of the enc/ ones; a dec/ prefix in --cases implies it")
			fs.BoolVar(&qenc, "qpack", false, "print the qenc/ cases (hpackcert qpack); a qenc/ prefix in --cases implies it")
			fs.BoolVar(&qdec, "qpack-decoders", false, "print the qdec/ cases (hpackcert qpack-decoders); a qdec/ prefix in --cases implies it")
		})
		return func(stdout, _ io.Writer) (int, error) {
			prefixes := splitCases(cases)
			has := func(side string) bool {
				return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(p, side) })
			}
			selectCases := certify.SelectCases
			switch {
			case decoders || has("dec/"):
				selectCases = certify.SelectDecoderCases
			case qenc || has("qenc/"):
				selectCases = certify.SelectQPACKEncoderCases
			case qdec || has("qdec/"):
				selectCases = certify.SelectQPACKDecoderCases
			}
			selected, err := selectCases(prefixes)
			if err != nil {
				return 2, &usageError{fmt.Sprintf("--cases: %v", err)}
			}
			width := 12
			for _, c := range selected {
				width = max(width, len(c.ID)+1)
			}
			fmt.Fprintf(stdout, "%-*s %-11s %s\n", width, "case", "if broken", "title")
			for _, c := range selected {
				fmt.Fprintf(stdout, "%-*s %-11s %s\n", width, c.ID, c.Violation, c.Title)
				if verbose {
					fmt.Fprintf(stdout, "%*s %s\n", width, "", c.Rule())
				}
			}
			return 0, nil
		}
	},
}
