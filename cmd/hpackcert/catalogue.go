package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/source/live/targets"
)

// catalogueEntry is one target of live's catalogue as hpackcert targets
// prints it; the JSON names are the TSV header's.
type catalogueEntry struct {
	Name      string `json:"name"`
	Role      string `json:"role"`
	Package   string `json:"package"`
	Program   string `json:"program"`
	H2COrigin bool   `json:"h2c-origin"`
	Decoder   bool   `json:"decoder"`
}

// catalogueColumns are the columns of the TSV, in order.
var catalogueColumns = []string{"name", "role", "package", "program", "h2c-origin", "decoder"}

var targetsCommand = &command{
	Name:      "targets",
	UsageLine: "hpackcert targets [--format tsv|json]",
	Short:     "print live's target catalogue: name, role, package, program",
	Long: `Targets prints the targets hpackcert live --target and hpackcert decoders --live
know by name, in the catalogue's order, one per line, so that scripts install and
list them from the binary rather than from a copy.

The TSV (the default) starts with the header line
  name  role  package  program  h2c-origin  decoder
(tab-separated) and gives each target's fields in that order, "-" for none: name is
what --target takes; role is server, proxy or client; package is the Debian package
holding it, or a phrase saying how else it is installed ("bun from npm (...)"), none
for a target in hpackcert's process; program is the command hpackcert looks for on
PATH before it starts the target (none: it checks what the target needs otherwise);
h2c-origin is yes for a proxy that NAME:h2c-origin runs reaching hpackcert's origin
over h2c; decoder is yes for a target decoders --live grades. --format json prints
one JSON array of objects with the same names, the booleans as true or false and
empty strings for none.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var format string
		fs.section("targets flags", func() {
			fs.StringVar(&format, "format", "tsv", "`tsv|json` the output format")
		})
		return func(stdout, _ io.Writer) (int, error) {
			return printCatalogue(stdout, format)
		}
	},
}

// catalogue returns live's targets as the targets command prints them.
func catalogue() []catalogueEntry {
	var out []catalogueEntry
	for _, t := range targets.Targets() {
		out = append(out, catalogueEntry{
			Name: t.Name, Role: t.Role, Package: t.Package, Program: t.Binary,
			H2COrigin: t.H2COrigin, Decoder: t.Role != live.RoleClient && t.NoDecoder == "",
		})
	}
	return out
}

// printCatalogue prints the catalogue in format.
func printCatalogue(w io.Writer, format string) (int, error) {
	entries := catalogue()
	switch format {
	case "json":
		data, err := json.MarshalIndent(entries, "", "  ")
		if err != nil {
			return exitHarness, err
		}
		fmt.Fprintf(w, "%s\n", data)
	case "tsv":
		fmt.Fprintln(w, strings.Join(catalogueColumns, "\t"))
		for _, e := range entries {
			fmt.Fprintln(w, strings.Join([]string{e.Name, e.Role, orDash(e.Package), orDash(e.Program), yesNo(e.H2COrigin), yesNo(e.Decoder)}, "\t"))
		}
	default:
		return exitHarness, &usageError{fmt.Sprintf("--format %q: want tsv or json", format)}
	}
	return exitPass, nil
}

// orDash is s, or "-" for none: a shell's read joins empty
// tab-separated fields.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
