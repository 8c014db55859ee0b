// Package testenv holds the one place where tests decide what to do when
// something outside the repository is missing: skip with the reason on a
// user's bare clone, fail when CI=true or HPACKCERT_REQUIRE_NGHTTP2=1.
// It also holds what tests need of the world around them: the module's
// commands built, the processes they start gone, their memory measured.
//
// Files: testenv.go (Required, Missing, ModuleRoot and the hpack-test-case
// folder), build.go (BuildCommands and GoTool, building the module's
// commands once per test binary; ChildProcesses), gone.go (WaitGone and
// ReadPids, waiting until started processes have exited) and peakrss.go
// (MeasuredCommand and RunMeasured, a command's peak RSS; GoMemLimit).
package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Required reports whether missing external dependencies must fail tests
// rather than skip them: CI=true (set by CI systems) or
// HPACKCERT_REQUIRE_NGHTTP2=1.
func Required() bool {
	if ci, err := strconv.ParseBool(os.Getenv("CI")); err == nil && ci {
		return true
	}
	return os.Getenv("HPACKCERT_REQUIRE_NGHTTP2") == "1"
}

// Missing stops the test because what is described by what is absent: it
// fails when Required, and skips with the reason otherwise.
func Missing(t testing.TB, what string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s (required because CI=true or HPACKCERT_REQUIRE_NGHTTP2=1)", what)
	}
	t.Skipf("skipping: %s (set CI=true to make this a failure)", what)
}

// ModuleRoot returns the directory holding go.mod, found by walking up from
// the working directory, or "" when there is none.
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// TestCaseDirPath returns where the hpack-test-case data is expected:
// $HPACKCERT_TESTCASE_DIR when set, else ../shared/hpack-test-case relative
// to the module root. It does not check that the directory exists.
func TestCaseDirPath() string {
	if dir := os.Getenv("HPACKCERT_TESTCASE_DIR"); dir != "" {
		return dir
	}
	root := ModuleRoot()
	if root == "" {
		return ""
	}
	return filepath.Join(root, "..", "shared", "hpack-test-case")
}

// TestCaseDir returns the hpack-test-case directory (with raw-data/,
// nghttp2/, go-hpack/, python-hpack/), or stops the test through Missing.
func TestCaseDir(t testing.TB) string {
	t.Helper()
	dir := TestCaseDirPath()
	if dir == "" {
		Missing(t, "hpack-test-case data: no module root found")
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "raw-data")); err != nil {
		Missing(t, "hpack-test-case data not found at "+dir+" (set HPACKCERT_TESTCASE_DIR)")
	}
	return dir
}
