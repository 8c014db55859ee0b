package qif

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// qifsDir returns the qifs checkout the tests read ($HPACKCERT_QIFS_DIR,
// else ../shared/qifs relative to the module root), or stops the test
// through testenv.Missing.
func qifsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("HPACKCERT_QIFS_DIR")
	if dir == "" {
		root := testenv.ModuleRoot()
		if root == "" {
			testenv.Missing(t, "qifs data: no module root found")
		}
		dir = filepath.Join(root, "..", "shared", "qifs")
	}
	if _, err := os.Stat(filepath.Join(dir, "qifs")); err != nil {
		testenv.Missing(t, "qifs data not found at "+dir+" (set HPACKCERT_QIFS_DIR)")
	}
	return dir
}
