package main

import (
	"flag"
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
			if !strings.Contains(help, "\n  --"+name+" ") && !strings.Contains(help, "\n  --"+name+"\n") {
				t.Errorf("help %s does not list --%s:\n%s", c.Name, name, help)
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
		"  --n INT                  a number (default 3)\n" +
		"  --out DIR                where\n" +
		"  --strict                 a bool\n"
	if b.String() != want {
		t.Errorf("printFlags:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestSharedFlags checks that run, repro, gate and live declare the flags
// they share once: the same flags with the same descriptions.
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
		{liveCommand, []string{"cases", "strict", "expect-fail", "json", "junit", "html", "md"}},
		{reproCommand, []string{"cases", "strict", "expect-fail", "json", "junit", "html", "md", "exec", "timeout"}},
		{gateCommand, []string{"cases", "strict", "expect-fail", "exec", "stories", "encoder", "timeout", "max-block"}},
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
