// Command hpackcert certifies HPACK (RFC 7541) header encoders and
// decoders.
//
// Usage:
//
//	hpackcert [run] [flags]       certify encoders (default: the built-in ones)
//	hpackcert gate [flags]        run as a CI gate: every report into one folder
//	hpackcert repro --story FILE [flags]  replay one failure written by run or decoders --repro DIR
//	hpackcert live [flags]        grade HTTP/2 servers, proxies and clients over the wire
//	hpackcert decoders [flags]    certify decoders on the dec/ cases (default: the built-in ones)
//	hpackcert list [--cases P] [-v]  print the cases (-v: with the RFC text each checks)
//	hpackcert targets [--format tsv|json]  print live's target catalogue
//	hpackcert matrix --page SIDE [flags]  write a published matrix page around a run's report
//	hpackcert encode --stories DIR --out DIR [--encoder E]
//	                              write an encoder's output in the hpack-test-case format
//	hpackcert help [COMMAND]      print the help, or a command's (also COMMAND -h)
//	hpackcert version             print the build, the case catalogue and the Go version
//
// Encoders to certify, any number of each, all in one matrix:
//
//	--encoder builtin:NAME   a built-in Go encoder: ref, xnet (nghttp2 with -tags nghttp2)
//	--exec 'CMD ARGS'        a program speaking hpack-stdio/1 on its stdin and stdout
//	--stories DIR            story files with recorded "wire" to grade
//
// With none, the built-in encoders are certified.
//
// Each command is a file: run (encoders.go), repro (repro.go, and
// decrepro.go for the engine's decoder reproductions), gate, live,
// decoders, list, targets (catalogue.go), matrix (a published matrix
// page around a run's report), encode; help.go holds help and version and
// generates every usage from the flags. The commands that grade share
// their flags (flags.go) and end one way (exit.go). main.go picks the
// command and, on an interrupt, kills the programs it started. origin.go
// is live's --origin; origin_unix.go checks that an inherited descriptor
// is a listening socket, and origin_other.go, built where there is no
// Unix, refuses every descriptor.
//
// Exit status: 0 when no case fails, 1 when a case fails (not counting
// --expect-fail entries) or a MUST case is left unsupported for an encoder
// the run drives without being declared (--declare-unsupported, or an
// "unsupported" line of the --expect-fail file), 2 when the run itself
// could not happen (bad flags, unreadable files, an encoder that never
// answers hello), with a one-line reason on standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hpackcert/hpackcert/internal/proc"
	_ "github.com/hpackcert/hpackcert/oracle/all"
)

func main() {
	// Each --exec encoder and live target runs in a process group of its
	// own, which an interrupt of the terminal does not reach: kill them
	// before going.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-interrupted
		proc.KillAll()
		fmt.Fprintf(os.Stderr, "hpackcert: %v: stopped, encoder programs and live targets killed\n", sig)
		os.Exit(exitHarness)
	}()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is a harness error caused by the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// run runs the command and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	named := len(args) > 0 && !strings.HasPrefix(args[0], "-")
	name := runCommand.Name
	if named {
		name, args = args[0], args[1:]
	} else if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		printVersion(stdout)
		return exitPass
	}
	status, err := exitHarness, error(unknownCommand(name))
	if c := lookup(name); c != nil {
		fs := newFlags(c.Name)
		exec := c.Flags(fs)
		if err = parse(fs, c, args); err == nil {
			status, err = exec(stdout, stderr)
		}
		if errors.Is(err, flag.ErrHelp) {
			// hpackcert -h asks for hpackcert's help; hpackcert run -h for run's.
			if named {
				c.printHelp(stdout)
			} else {
				printUsage(stdout)
			}
			return exitPass
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "hpackcert: %s\n", oneLine(err.Error()))
		return exitHarness
	}
	return status
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
