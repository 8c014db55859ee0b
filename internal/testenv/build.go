package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	buildMu    sync.Mutex
	buildDir   string
	buildBuilt = map[string]error{}
)

// BuildCommands builds the main packages pkgs, given as paths relative to
// the module root ("cmd/hpackcert-stdio-ref"), into one directory and
// returns it; each package is built once per test binary. A missing go
// command stops the test through Missing; a build failure fails it with the
// compiler's output. Call RemoveBuilt from TestMain to delete the directory.
func BuildCommands(t testing.TB, pkgs ...string) string {
	t.Helper()
	goTool := GoTool(t, "to build "+pkgs[0])
	root := ModuleRoot()
	if root == "" {
		t.Fatal("testenv: no module root to build from")
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "hpackcert-bin")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
	}
	for _, pkg := range pkgs {
		err, done := buildBuilt[pkg]
		if !done {
			cmd := exec.Command(goTool, "build", "-o", buildDir, "./"+filepath.ToSlash(pkg))
			cmd.Dir = root
			if out, cerr := cmd.CombinedOutput(); cerr != nil {
				err = &buildError{pkg, string(out), cerr}
			}
			buildBuilt[pkg] = err
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return buildDir
}

// GoTool returns the path of the go command the tests run with: the one
// of the test binary's GOROOT when it has one (a binary built with
// -trimpath has none), else the go on PATH. Without either it stops t
// through Missing, saying what the command was for.
func GoTool(t testing.TB, what string) string {
	t.Helper()
	if root := runtime.GOROOT(); root != "" {
		if p, err := exec.LookPath(filepath.Join(root, "bin", "go")); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("go")
	if err != nil {
		Missing(t, "the go command, "+what)
	}
	return p
}

// RemoveBuilt deletes what BuildCommands built.
func RemoveBuilt() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string {
	return "testenv: building " + e.pkg + ": " + e.err.Error() + "\n" + e.out
}

// ChildProcesses skips t under -short: what it checks runs in child
// processes (a binary built by BuildCommands, a shell script), which the
// race detector of the test binary does not instrument. ci/test.sh runs
// the tests once in full and then with -short twice (under -race, and in
// the bare clone), where such a test would only repeat its first run.
// what says which child processes.
func ChildProcesses(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: " + what + " run in child processes; the run without -short checks them in full")
	}
}
