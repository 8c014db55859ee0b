package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// QIFsDir returns the directory of the QPACK test data (QIF traffic and
// recorded encoder output): $HPACKCERT_QIFS_DIR when set, else
// ../shared/qifs relative to the module root. Without it the test stops
// through Missing.
func QIFsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("HPACKCERT_QIFS_DIR")
	if dir == "" {
		root := ModuleRoot()
		if root == "" {
			Missing(t, "qifs data: no module root found")
		}
		dir = filepath.Join(root, "..", "shared", "qifs")
	}
	if _, err := os.Stat(filepath.Join(dir, "qifs")); err != nil {
		Missing(t, "qifs data not found at "+dir+" (set HPACKCERT_QIFS_DIR)")
	}
	return dir
}
