package stdio_test

import (
	"os"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// stdioBinaries builds certify/testdata/stdioenc and cmd/hpackcert-stdio-ref once
// per test binary and returns the directory holding them.
func stdioBinaries(t *testing.T) string {
	t.Helper()
	return testenv.BuildCommands(t, "certify/testdata/stdioenc", "cmd/hpackcert-stdio-ref")
}

func TestMain(m *testing.M) {
	if os.Getenv(decoderHelperEnv) == "1" {
		os.Exit(runDecoderHelper(os.Args[1:]))
	}
	// The decoder helpers are this binary, started by the tests with the
	// variable inherited.
	os.Setenv(decoderHelperEnv, "1")
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

func execTarget(t *testing.T, command string, timeout time.Duration) certify.Target {
	t.Helper()
	target, err := stdio.Exec(command, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	return target
}
