package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gateFiles are the report files the gate writes into its --out folder,
// by format, and gateRepro the folder of the reproductions there.
var gateFiles = map[string]string{"json": "report.json", "junit": "junit.xml", "html": "report.html", "md": "summary.md"}

const gateRepro = "repro"

// stepSummaryLimit is the most the gate appends to GitHub's job summary:
// GitHub refuses a step summary over 1 MiB.
const stepSummaryLimit = 1000000

var gateCommand = &command{
	Name:      "gate",
	Grades:    true,
	UsageLine: "hpackcert gate [--out DIR] [flags]",
	Short:     "certify as a CI gate: every report and reproduction into one folder",
	Long: `Gate certifies the encoders named, as run does, and writes every report into the
folder --out: report.json, junit.xml, report.html, summary.md, and in repro/ each
failure's blocks as a story file. Every report names that folder and a replay
command, with the absolute path of this binary, that works after the gate exits.
When GITHUB_STEP_SUMMARY is set (GitHub Actions), the Markdown report is appended
to the job summary, cut short at a line end past 1 MB. ci/gate.sh and the GitHub
Action build hpackcert and run this command; the report flags of run (--json,
--junit, --html, --md, --repro) are refused: the gate chooses the files. As in run,
a MUST case left unsupported fails the gate unless --declare-unsupported or an
"unsupported CASES: REASON" line of the --expect-fail file declares it.`,
	Refused: func() map[string]string {
		why := map[string]string{}
		for _, name := range reportFlagNames {
			why[name] = "the gate writes every report into its --out folder (or $HPACKCERT_OUT); set that instead"
		}
		return why
	}(),
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		c := &certification{}
		var out string
		fs.section("gate", func() {
			fs.StringVar(&out, "out", "", "`DIR` the folder of the reports (default $HPACKCERT_OUT, else hpackcert-report)")
		})
		c.encoderFlags.declare(fs)
		c.gradeFlags.declare(fs)
		c.runFlags.declare(fs)
		return func(stdout, stderr io.Writer) (int, error) {
			return c.gate(out, stdout, stderr)
		}
	},
}

// gate runs the certification c as the gate, its reports in out.
func (c *certification) gate(out string, stdout, stderr io.Writer) (int, error) {
	if !c.encoderFlags.named() {
		return 2, &usageError{"name the encoder to certify: --exec './my-encoder --hpack-stdio', --stories DIR or --encoder builtin:NAME (see hpackcert help gate)"}
	}
	if out == "" {
		out = os.Getenv("HPACKCERT_OUT")
	}
	if out == "" {
		out = "hpackcert-report"
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return 2, fmt.Errorf("--out %s: %w", out, err)
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return 2, fmt.Errorf("cannot find this program's path, for the replay command: %w", err)
	}
	c.dirs = []string{dir}
	c.replayBin = bin
	c.reportFlags = reportFlags{repro: filepath.Join(dir, gateRepro)}
	for kind, name := range gateFiles {
		c.reportFlags.set(kind, filepath.Join(dir, name))
	}
	status, err := c.run(stdout)
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" {
		if serr := appendStepSummary(summary, c.paths["md"], stepSummaryLimit); serr != nil && err == nil {
			status, err = 2, serr
		}
	}
	switch {
	case err != nil:
		// run prints the reason; the gate adds nothing to it.
	case status == 0:
		fmt.Fprintf(stderr, "hpackcert gate: HPACK conformance gate passed; reports in %s/\n", dir)
	default:
		fmt.Fprintf(stderr, "hpackcert gate: HPACK conformance gate FAILED: see the first failure above and %s\n", c.paths["html"])
	}
	return status, err
}

// appendStepSummary appends the Markdown report md to the job summary
// file summary, cut short at a line end when it is over limit octets,
// with a note saying where the whole report is. A report that was never
// written (the run could not happen) appends nothing.
func appendStepSummary(summary, md string, limit int) error {
	data, err := os.ReadFile(md)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(data) > limit {
		// The matrix and the first failures come first in the Markdown.
		note := fmt.Sprintf("\n\n*(cut short: the whole report is in %s)*\n", md)
		cut := bytes.LastIndexByte(data[:max(0, limit-len(note))], '\n') + 1
		data = append(data[:cut:cut], note...)
	}
	f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	return nil
}

// refusal returns the error for a flag the command refuses, when err is
// the flag package's error for an undefined flag that c refuses.
func (c *command) refusal(err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return nil
	}
	why, ok := c.Refused[name]
	if !ok {
		return nil
	}
	return &usageError{fmt.Sprintf("--%s: %s", name, why)}
}
