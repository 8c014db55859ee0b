package main

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// TestCommandHelp checks that help COMMAND and COMMAND -h print that
// command's own help, the same text, listing every flag of the command,
// and that hpackcert's own help lists every command.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		status, help, stderr := runCLI(t, "help", c.Name)
		if status != 0 || stderr != "" || !strings.HasPrefix(help, "usage: "+c.UsageLine+"\n") {
			t.Errorf("help %s: exit %d, stderr %q, output %q; want 0 and the usage line %q", c.Name, status, stderr, help, c.UsageLine)
			continue
		}
		for _, name := range c.flagNames() {
			if spelled := "\n  " + flagSpelling(name); !strings.Contains(help, spelled+" ") && !strings.Contains(help, spelled+"\n") {
				t.Errorf("help %s does not list %s:\n%s", c.Name, flagSpelling(name), help)
			}
		}
		if c == helpCommand || c == versionCommand {
			continue
		}
		for _, h := range []string{"-h", "--help"} {
			if status, out, _ := runCLI(t, c.Name, h); status != 0 || out != help {
				t.Errorf("%s %s: exit %d, output\n%s\nwant 0 and the output of help %s:\n%s", c.Name, h, status, out, c.Name, help)
			}
		}
	}
	status, general, _ := runCLI(t, "help")
	if status != 0 {
		t.Fatalf("help: exit %d", status)
	}
	for _, c := range commands {
		if !strings.Contains(general, "\n  "+c.Name+" ") {
			t.Errorf("help does not list the command %s:\n%s", c.Name, general)
		}
	}
	// hpackcert -h is hpackcert's help: run is the command of no name.
	if status, out, _ := runCLI(t, "-h"); status != 0 || out != general {
		t.Errorf("-h: exit %d; want 0 and the output of help", status)
	}
	if help := captureHelp(liveCommand); strings.Contains(general, "--target") || !strings.Contains(help, "--target") {
		t.Error("live's --target is in hpackcert's help, or not in live's")
	}
	if status, _, stderr := runCLI(t, "help", "nope"); status != 2 || !strings.Contains(stderr, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d, %q; want 2 and the unknown command", status, stderr)
	}
}

// captureHelp returns the help of c.
func captureHelp(c *command) string {
	var b strings.Builder
	c.printHelp(&b)
	return b.String()
}

// TestHelpLayout checks that the generated help stays readable: no line
// wider than helpWidth, every flag described, a flag's value named.
func TestHelpLayout(t *testing.T) {
	for _, c := range commands {
		help := captureHelp(c)
		for _, line := range strings.Split(help, "\n") {
			if len(line) > helpWidth {
				t.Errorf("help %s: line of %d characters, over %d: %q", c.Name, len(line), helpWidth, line)
			}
		}
		fs := newFlags(c.Name)
		c.Flags(fs)
		sectioned := 0
		for _, s := range fs.sections {
			sectioned += len(s.names)
		}
		fs.VisitAll(func(f *flag.Flag) {
			if strings.TrimSpace(strings.TrimPrefix(f.Usage, "`")) == "" {
				t.Errorf("%s --%s has no description", c.Name, f.Name)
			}
		})
		if n := len(c.flagNames()); sectioned != n {
			t.Errorf("%s: %d flags in sections of its help, of %d", c.Name, sectioned, n)
		}
	}
	var b strings.Builder
	fs := newFlags("x")
	fs.section("s", func() {
		fs.String("out", "", "`DIR` where")
		fs.Bool("strict", false, "a bool")
		fs.Int("n", 3, "a number")
	})
	printFlags(&b, fs)
	want := "s:\n" +
		"  -n INT                   a number (default 3)\n" +
		"  --out DIR                where\n" +
		"  --strict                 a bool\n"
	if b.String() != want {
		t.Errorf("printFlags:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestHelpEnds checks how each command's help ends: the commands that
// grade with the one exit-status text, the others with their last flag,
// and none with an empty section; and that list's -v reads as README
// writes it.
func TestHelpEnds(t *testing.T) {
	grading := []string{"run", "gate", "repro", "live", "decoders", "qpack", "qpack-decoders"}
	for _, c := range commands {
		help := captureHelp(c)
		if got, want := strings.HasSuffix(help, exitStatusHelp), slices.Contains(grading, c.Name); got != want || strings.Count(help, "exit status:") > 1 {
			t.Errorf("help %s ends with the exit status of a grade: %v, want %v:\n%s", c.Name, got, want, help)
		}
		if strings.Contains(help, "\n\n\n") || strings.HasSuffix(help, "\n\n") {
			t.Errorf("help %s holds an empty section:\n%q", c.Name, help)
		}
	}
	if help := captureHelp(listCommand); !strings.Contains(help, "\n  -v   ") || strings.Contains(help, "--v") {
		t.Errorf("help list does not spell -v as README does:\n%s", help)
	}
	if got := captureHelp(versionCommand); got != "usage: "+versionCommand.UsageLine+"\n" {
		t.Errorf("help version = %q; want its usage line alone", got)
	}
}

// TestSharedFlags checks that run, repro, gate, live and decoders declare
// the flags they share once: the same flags with the same descriptions.
func TestSharedFlags(t *testing.T) {
	usages := func(c *command) map[string]string {
		fs := newFlags(c.Name)
		c.Flags(fs)
		out := map[string]string{}
		fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f.Usage })
		return out
	}
	run := usages(runCommand)
	for _, shared := range []struct {
		c     *command
		flags []string
	}{
		{liveCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "json", "junit", "html", "md"}},
		{reproCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "json", "junit", "html", "md", "exec", "timeout"}},
		{gateCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "exec", "stories", "encoder", "timeout", "max-block"}},
		{decodersCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "json", "junit", "html", "md", "repro", "timeout", "traffic-stories", "traffic-blocks", "seed"}},
		{qpackCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "json", "junit", "html", "md"}},
		{qpackDecodersCommand, []string{"cases", "strict", "expect-fail", "declare-unsupported", "json", "junit", "html", "md"}},
	} {
		other := usages(shared.c)
		for _, name := range shared.flags {
			if other[name] == "" || other[name] != run[name] {
				t.Errorf("%s --%s is %q; run's is %q: want one declaration", shared.c.Name, name, other[name], run[name])
			}
		}
	}
	if _, ok := usages(liveCommand)["repro"]; ok {
		t.Error("live declares --repro, which it cannot honour")
	}
	if repro, decoders := usages(reproCommand)["decoder"], usages(decodersCommand)["decoder"]; repro == "" || repro != decoders {
		t.Errorf("repro --decoder is %q; decoders' is %q: want one declaration", repro, decoders)
	}
}

// TestGradeFlagsDeclared checks that the declarations of the expect
// file and of every --declare-unsupported reach the run's options, the
// file's first, and that the expected failures still do.
func TestGradeFlagsDeclared(t *testing.T) {
	expect := filepath.Join(t.TempDir(), "expected.txt")
	file := "enc/5.2/1\nunsupported enc/7.1.3/1 for okhttp 3.13.1: no never-index API\n"
	if err := os.WriteFile(expect, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gradeFlags{expectFail: expect, declared: listFlag{"enc/4.2/,enc/6.3/: one size update per block", "unsupported enc/5.2/4: never Huffman-codes"}}
	opts, err := f.options()
	if err != nil {
		t.Fatal(err)
	}
	want := []certify.Declaration{
		{Case: "enc/7.1.3/1", Encoder: "okhttp 3.13.1", Reason: "no never-index API"},
		{Case: "enc/4.2/", Reason: "one size update per block"},
		{Case: "enc/6.3/", Reason: "one size update per block"},
		{Case: "enc/5.2/4", Reason: "never Huffman-codes"},
	}
	if !reflect.DeepEqual(opts.Declared, want) || !slices.Equal(opts.ExpectFail, []string{"enc/5.2/1"}) {
		t.Errorf("options: declared %+v, expected failures %q; want %+v and [enc/5.2/1]", opts.Declared, opts.ExpectFail, want)
	}
	if opts, err := (&gradeFlags{}).options(); err != nil || opts.Declared != nil {
		t.Errorf("no declaration: %+v, %v; want none", opts.Declared, err)
	}
}

// TestDeclareUnsupportedFlag checks that run, gate and live refuse a
// declaration without its reason, or of no case, before anything runs,
// and say which flag was wrong.
func TestDeclareUnsupportedFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--declare-unsupported", "enc/7.1.3/1"}, `--declare-unsupported: declaration "enc/7.1.3/1": no reason`},
		{[]string{"run", "--declare-unsupported", "enc/7.1.3/1: ok", "--declare-unsupported", "enc/9/: x"}, `no case id starts with "enc/9/"`},
		{[]string{"gate", "--out", t.TempDir(), "--exec", "/nonexistent/enc", "--declare-unsupported", "enc/7.1.3/1 for x:"}, "the reason after the colon is empty"},
		{[]string{"live", "--server", "http://127.0.0.1:1", "--declare-unsupported", "enc/7.1.3/1 enc/4.2/1: x"}, "separate case ids with commas"},
	} {
		status, stdout, stderr := runCLI(t, tc.args...)
		if status != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q\n%s", tc.args, status, stderr, tc.want, stdout)
		}
	}
}

// TestVersion checks that version and --version print the build, the
// case catalogue and the Go version.
func TestVersion(t *testing.T) {
	want := []string{"hpackcert " + certify.Version(), "catalogue " + certify.CatalogueVersion(), runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		status, out, stderr := runCLI(t, args...)
		if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); status != 0 || stderr != "" || !slices.Equal(got, want) {
			t.Errorf("%q: exit %d, stderr %q, lines %q; want 0 and %q", args, status, stderr, got, want)
		}
	}
	if status, _, stderr := runCLI(t, "version", "extra"); status != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, %q; want 2", status, stderr)
	}
}
