package qif

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// qifsDir returns the qifs checkout the tests read ($HPACKCERT_QIFS_DIR,
// else ../shared/qifs relative to the module root), or stops the test
// through testenv.Missing.
func qifsDir(t testing.TB) string { return testenv.QIFsDir(t) }
