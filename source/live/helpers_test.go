package live

import (
	"sync"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
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

// wantGrades checks the grade of every graded case: those listed get
// theirs, every other one that ran passes.
func wantGrades(t *testing.T, rep *certify.Report, want map[string]certify.Grade) {
	t.Helper()
	enc := rep.Encoders[0]
	for _, c := range rep.Cases {
		res := rep.Results[enc][c.ID]
		g, listed := want[c.ID]
		switch {
		case listed && res.Grade != g:
			t.Errorf("%s %s: %v (%s); want %v", enc, c.ID, res.Grade, res.Detail, g)
		case !listed && (res.Grade == certify.Fail || res.Grade == certify.NonStrict):
			t.Errorf("%s %s: %v (%s); want pass", enc, c.ID, res.Grade, res.Detail)
		}
	}
}
