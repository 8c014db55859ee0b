package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// How every grading command ends (run, repro, gate, decoders, live): the
// report files are created before the run, so that a path that cannot be
// written stops it at once rather than after minutes, and finish writes
// the report in every format asked for and gives the exit status.

// The exit statuses of hpackcert.
const (
	// exitPass: nothing failed.
	exitPass = 0
	// exitFail: the report fails the run (certify.Report.Failed).
	exitFail = 1
	// exitHarness: the run could not happen; the reason goes to stderr.
	exitHarness = 2
)

// reportFormats are the report files a grading command can write, in the
// order they are written: the flag --KIND FILE writes report.Write's
// format KIND into FILE.
var reportFormats = []struct{ kind, help string }{
	{"json", "`FILE` write the JSON report"},
	{"junit", "`FILE` write the JUnit XML report"},
	{"html", "`FILE` write the HTML report"},
	{"md", "`FILE` write the Markdown report"},
}

// reportFlags are the report files asked for, and the folder of the
// reproductions for the commands that write them.
type reportFlags struct {
	// paths are the report files by format; an empty path is not asked
	// for.
	paths map[string]string
	repro string
}

// reportFlagNames are the flags of reportFlags, which the gate refuses.
var reportFlagNames = func() []string {
	var names []string
	for _, f := range reportFormats {
		names = append(names, f.kind)
	}
	return append(names, "repro")
}()

// declare declares a flag per report format and, when repro is set,
// --repro: the folder the reproductions of the failures are written to,
// which hpackcert repro replays.
func (f *reportFlags) declare(fs *flagSet, repro bool) {
	fs.section("reports", func() {
		for _, format := range reportFormats {
			fs.Func(format.kind, format.help, func(path string) error {
				f.set(format.kind, path)
				return nil
			})
		}
		if repro {
			fs.StringVar(&f.repro, "repro", "", "`DIR` write each failure's blocks as a story file, for hpackcert repro")
		}
	})
}

// set asks for the report of format kind in the file path.
func (f *reportFlags) set(kind, path string) {
	if f.paths == nil {
		f.paths = map[string]string{}
	}
	f.paths[kind] = path
}

// create creates the report files asked for, or returns an error naming
// the flag of the first that cannot be written.
func (f *reportFlags) create() (*reportOutputs, error) {
	files := &reportOutputs{}
	for _, format := range reportFormats {
		path := f.paths[format.kind]
		if path == "" {
			continue
		}
		fh, err := os.Create(path)
		if err != nil {
			files.close()
			return nil, fmt.Errorf("--%s %s: cannot write the report: %w", format.kind, path, err)
		}
		files.outputs = append(files.outputs, &output{kind: format.kind, path: path, f: fh})
	}
	return files, nil
}

// reportOutputs are the report files of one run, created before it.
type reportOutputs struct {
	outputs []*output
}

// finish ends a grading command: it prints rep as text, then where the
// reproductions are (rep.Repro, when the run wrote any), writes every
// report file, and returns the exit status. A run that could not happen
// (runErr, or no report) gives exitHarness and its error, after the text
// report when there is one.
func (r *reportOutputs) finish(stdout io.Writer, rep *certify.Report, runErr error) (int, error) {
	if rep == nil {
		return exitHarness, runErr
	}
	if err := report.WriteText(stdout, rep); err != nil {
		return exitHarness, err
	}
	if runErr != nil {
		return exitHarness, runErr
	}
	// The other reports name the reproductions' folder and how to replay
	// one; the text report has them last.
	if rep.Repro != nil {
		fmt.Fprintln(stdout, rep.Repro.Text())
	}
	for _, o := range r.outputs {
		if err := o.write(func(w io.Writer) error { return report.Write(w, o.kind, rep) }); err != nil {
			return exitHarness, err
		}
	}
	if rep.Failed() {
		return exitFail, nil
	}
	return exitPass, nil
}

// close closes the files, removing those never written.
func (r *reportOutputs) close() {
	for _, o := range r.outputs {
		o.close()
	}
}

// output is one report file, created before the run and written after it.
type output struct {
	kind, path string
	f          *os.File
	written    bool
}

// write writes the report into the file and closes it.
func (o *output) write(write func(io.Writer) error) error {
	if err := write(o.f); err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	o.written = true
	return o.f.Close()
}

// close closes the file, and removes it when the run ended before the
// report was written, so that no empty report is left behind.
func (o *output) close() {
	if o.written {
		return
	}
	o.f.Close()
	os.Remove(o.path)
}
