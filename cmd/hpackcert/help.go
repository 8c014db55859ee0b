package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

// A command is one subcommand of hpackcert, in the manner of cmd/go's
// base.Command: its usage and help are generated from the flags it
// declares, so that they cannot drift apart.
type command struct {
	// Name is what selects the command: hpackcert NAME.
	Name string
	// UsageLine is the one-line usage, "hpackcert run [flags]".
	UsageLine string
	// Short is the description in the list of commands.
	Short string
	// Long is the help text printed after the usage line, before the
	// flags.
	Long string
	// Grades is set for the commands that grade (run, gate, repro, live,
	// decoders): their help ends with the exit status a grade gives.
	Grades bool
	// Refused maps the flags the command refuses, which other commands
	// take, to the reason.
	Refused map[string]string
	// Flags declares the command's flags on fs and returns what runs the
	// command once they are parsed. It is called afresh for each use, so
	// that no flag value outlives a run.
	Flags func(fs *flagSet) func(stdout, stderr io.Writer) (int, error)
}

// commands are hpackcert's subcommands, in the order help lists them; run
// is the default.
var commands []*command

func init() {
	commands = []*command{runCommand, gateCommand, reproCommand, liveCommand, decodersCommand, qpackCommand, qpackDecodersCommand, listCommand, targetsCommand, matrixCommand, encodeCommand, helpCommand, versionCommand}
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// flagSet is a flag.FlagSet whose flags are declared in titled sections,
// the groups a command's help lists them in.
type flagSet struct {
	*flag.FlagSet
	sections []flagSection
}

// flagSection is one titled group of flags, in declaration order.
type flagSection struct {
	title string
	names []string
}

func newFlags(name string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &flagSet{FlagSet: fs}
}

// section declares the flags that declare defines under title; a title
// used twice gathers both groups.
func (fs *flagSet) section(title string, declare func()) {
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	declare()
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			names = append(names, f.Name)
		}
	})
	for i := range fs.sections {
		if fs.sections[i].title == title {
			fs.sections[i].names = append(fs.sections[i].names, names...)
			return
		}
	}
	fs.sections = append(fs.sections, flagSection{title, names})
}

// flagNames returns the names of every flag of c.
func (c *command) flagNames() []string {
	fs := newFlags(c.Name)
	c.Flags(fs)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// exitStatusHelp ends the help of every command that grades.
const exitStatusHelp = "\nexit status: 0 nothing failed; 1 a case failed, a MUST case was left ungraded and not declared\n" +
	"(--declare-unsupported), or a target had no case judged and was not declared to (\"NAME\n" +
	"nothing-judged\" in the --expect-fail file); 2 the run could not happen\n"

// helpWidth is the width help text is wrapped to, and helpColumn where
// the description of a flag starts.
const helpWidth, helpColumn = 100, 27

// printHelp prints c's usage line, its long help and its flags.
func (c *command) printHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n", c.UsageLine)
	if c.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Long))
	}
	fs := newFlags(c.Name)
	c.Flags(fs)
	if len(fs.sections) > 0 {
		fmt.Fprintln(w)
		printFlags(w, fs)
	}
	if c.Grades {
		fmt.Fprint(w, exitStatusHelp)
	}
}

// printFlags prints the flags of fs section by section.
func printFlags(w io.Writer, fs *flagSet) {
	for i, s := range fs.sections {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s:\n", s.title)
		for _, name := range s.names {
			printFlag(w, fs.Lookup(name))
		}
	}
}

// printFlag prints one flag: its spelling (flagSpelling), its value and
// its description, wrapped.
// A description starting with a back-quoted word names the value
// ("`FILE` write ..."); the default is added when it is not the zero
// value and the description does not give it.
func printFlag(w io.Writer, f *flag.Flag) {
	text := f.Usage
	value := ""
	if rest, ok := strings.CutPrefix(text, "`"); ok {
		if name, after, ok := strings.Cut(rest, "`"); ok {
			value, text = name, strings.TrimSpace(after)
		}
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
		if value == "" {
			value, _ = flag.UnquoteUsage(f)
			value = strings.ToUpper(value)
		}
	} else {
		value = ""
	}
	switch f.DefValue {
	case "", "0", "false":
	default:
		if !strings.Contains(text, "(default") {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
	}
	head := "  " + flagSpelling(f.Name)
	if value != "" {
		head += " " + value
	}
	lines := wrap(text, helpWidth-helpColumn)
	if len(head) >= helpColumn-1 {
		fmt.Fprintln(w, head)
	} else {
		fmt.Fprintf(w, "%-*s%s\n", helpColumn, head, lines[0])
		lines = lines[1:]
	}
	for _, l := range lines {
		fmt.Fprintf(w, "%*s%s\n", helpColumn, "", l)
	}
}

// flagSpelling is how help writes a flag: "-v" for a one-letter name, as
// README and common use write it, "--name" for the others (the flag
// package takes either).
func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}

// printUsage prints the general help: the commands, then the flags of
// run, the command hpackcert runs when none is named.
func printUsage(w io.Writer) {
	fmt.Fprint(w, "usage: hpackcert [COMMAND] [flags]\n\ncommands (run when none is named):\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprint(w, "\nhpackcert help COMMAND (or hpackcert COMMAND -h) prints the flags of a command.\n\nthe flags of run:\n\n")
	fs := newFlags(runCommand.Name)
	runCommand.Flags(fs)
	printFlags(w, fs)
	fmt.Fprint(w, exitStatusHelp)
}

var helpCommand = &command{
	Name:      "help",
	UsageLine: "hpackcert help [COMMAND]",
	Short:     "print the help of hpackcert, or of one command",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		return func(stdout, _ io.Writer) (int, error) {
			switch fs.NArg() {
			case 0:
				printUsage(stdout)
				return 0, nil
			case 1:
				c := lookup(fs.Arg(0))
				if c == nil {
					return 2, unknownCommand(fs.Arg(0))
				}
				c.printHelp(stdout)
				return 0, nil
			}
			return 2, &usageError{fmt.Sprintf("help takes one command, not %q", fs.Args())}
		}
	},
}

var versionCommand = &command{
	Name:      "version",
	UsageLine: "hpackcert version (or hpackcert --version)",
	Short:     "print the hpackcert build, the case catalogue and the Go version",
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		return func(stdout, _ io.Writer) (int, error) {
			if fs.NArg() > 0 {
				return 2, &usageError{fmt.Sprintf("unexpected argument %q (see hpackcert help version)", fs.Arg(0))}
			}
			printVersion(stdout)
			return 0, nil
		}
	},
}

// printVersion prints the three versions a bug report needs.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "hpackcert %s\ncatalogue %s\n%s %s/%s\n", certify.Version(), certify.CatalogueVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func unknownCommand(name string) error {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.Name
	}
	return &usageError{fmt.Sprintf("unknown command %q (want %s)", name, strings.Join(names, ", "))}
}

// parse parses args into fs. A command that takes no arguments (all but
// help and version) refuses them.
func parse(fs *flagSet, c *command, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		if refused := c.refusal(err); refused != nil {
			return refused
		}
		return &usageError{fmt.Sprintf("%s (see hpackcert help %s)", err, c.Name)}
	}
	if fs.NArg() > 0 && c != helpCommand && c != versionCommand {
		return &usageError{fmt.Sprintf("unexpected argument %q (see hpackcert help %s)", fs.Arg(0), c.Name)}
	}
	return nil
}
