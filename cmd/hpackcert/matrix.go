package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hpackcert/hpackcert/report"
)

// matrixCommand writes a published matrix page from the files of a run
// that ci/matrix.sh or ci/decoders.sh made: the scripts gather the
// versions and run hpackcert; the page's words and layout are report's.
var matrixCommand = &command{
	Name:      "matrix",
	UsageLine: "hpackcert matrix --page SIDE --from-md FILE --args FILE --programs FILE [flags]",
	Short:     "write a published matrix page (docs/MATRIX*.md) around a run's report",
	Long: `Matrix writes the page ci/matrix.sh (--page encoders) or ci/decoders.sh
(--page decoders) publishes: a title and an introduction dated now, the table of
the programs certified with their packages' versions, the command that ran and
its exit status, then the run's Markdown report. The encoder page lists each
adapter's limits from the run's JSON report.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		var m matrixFlags
		fs.section("matrix flags", func() {
			fs.StringVar(&m.side, "page", "", "`SIDE` the page: encoders (docs/MATRIX.md), decoders (docs/MATRIX-decoders.md), qpack-encoders or qpack-decoders (the two halves of docs/MATRIX-qpack.md)")
			fs.StringVar(&m.md, "from-md", "", "`FILE` the run's Markdown report (--md)")
			fs.StringVar(&m.json, "from-json", "", "`FILE` the run's JSON report (--json); needed by the encoder page")
			fs.StringVar(&m.args, "args", "", "`FILE` hpackcert's arguments of the run, one a line, the subcommand first")
			fs.StringVar(&m.programs, "programs", "", "`FILE` the program table, one row a line: program<TAB>package<TAB>version")
			fs.IntVar(&m.status, "status", 0, "`N` the run's exit status")
			fs.StringVar(&m.commit, "commit", "unknown", "`REV` the commit the run was built from")
			fs.StringVar(&m.out, "out", "", "`FILE` write the page there (default: standard output)")
		})
		return func(stdout, _ io.Writer) (int, error) {
			if err := m.write(stdout); err != nil {
				return exitHarness, err
			}
			return exitPass, nil
		}
	},
}

// matrixFlags are the flags of hpackcert matrix.
type matrixFlags struct {
	side, md, json, args, programs, commit, out string
	status                                      int
}

// write reads the run's files and writes its page.
func (m *matrixFlags) write(stdout io.Writer) error {
	if m.side == "" || m.md == "" || m.args == "" || m.programs == "" {
		return &usageError{"matrix needs --page, --from-md, --args and --programs (see hpackcert help matrix)"}
	}
	facts := report.MatrixFacts{When: time.Now(), Commit: m.commit, Status: m.status}
	md, err := os.ReadFile(m.md)
	if err != nil {
		return fmt.Errorf("--from-md: %w", err)
	}
	if facts.Command, err = readArgs(m.args); err != nil {
		return fmt.Errorf("--args %s: %w", m.args, err)
	}
	if err := readFile(m.programs, func(r io.Reader) (err error) {
		facts.Programs, err = report.ReadProgramRows(r)
		return err
	}); err != nil {
		return fmt.Errorf("--programs %s: %w", m.programs, err)
	}
	if m.json != "" {
		if err := readFile(m.json, func(r io.Reader) (err error) {
			facts.Report, err = report.ReadJSON(r)
			return err
		}); err != nil {
			return fmt.Errorf("--from-json %s: %w", m.json, err)
		}
	}
	page, err := report.MatrixPage(m.side, facts)
	if err != nil {
		return fmt.Errorf("--page: %w", err)
	}
	if m.out == "" {
		return report.WritePage(stdout, page, md)
	}
	f, err := os.Create(m.out)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := report.WritePage(f, page, md); err != nil {
		f.Close()
		return fmt.Errorf("--out %s: %w", m.out, err)
	}
	return f.Close()
}

// readFile opens path and hands it to read.
func readFile(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f)
}

// readArgs reads a command's arguments, one a line: a file written by
// printf '%s\n' "${args[@]}" (no argument of the scripts holds a newline).
func readArgs(path string) ([]string, error) {
	var args []string
	err := readFile(path, func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			args = append(args, sc.Text())
		}
		return sc.Err()
	})
	if err == nil && len(args) == 0 {
		err = fmt.Errorf("no arguments")
	}
	return args, err
}
