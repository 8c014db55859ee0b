package live

import (
	"sync"
	"testing"
)

// testScript is the script of the tests: the targeted connection and two
// traffic stories of 24 blocks, every change of the schedule on each.
var testScript = sync.OnceValues(func() (*Script, error) { return DefaultScript(2, 24) })

func script(t testing.TB) *Script {
	t.Helper()
	sc, err := testScript()
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
