package stdio_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// TestUnsupportedSensitiveUngraded runs an encoder that answers
// {"unsupported": ...} to every block with a sensitive field: the MUST
// cases it leaves ungraded fail the run, by default and under --strict,
// until the lack is declared; a declared case is declared, not passed.
func TestUnsupportedSensitiveUngraded(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc") + " -no-never-index"
	for _, strict := range []bool{false, true} {
		opts := certifytest.Quick()
		opts.Strict = strict
		rep, err := certify.Run([]certify.Target{execTarget(t, enc, 10*time.Second)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		name := rep.Encoders[0]
		var ids []string
		for _, u := range rep.Ungraded(name) {
			ids = append(ids, u.Case)
		}
		if !rep.Failed() || !slices.Contains(ids, "enc/7.1.3/1") {
			t.Errorf("strict %v: failed %v, ungraded %v; want the run failed with enc/7.1.3/1 ungraded", strict, rep.Failed(), ids)
		}
		for _, id := range ids {
			if res := rep.Results[name][id]; res.Grade == certify.Pass {
				t.Errorf("%s ungraded but pass", id)
			}
		}
		var declared []certify.Declaration
		for _, id := range ids {
			declared = append(declared, certify.Declaration{Case: id, Encoder: name, Reason: "no never-index API"})
		}
		opts.Declared = declared
		rep, err = certify.Run([]certify.Target{execTarget(t, enc, 10*time.Second)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() {
			t.Errorf("strict %v, lacks declared: the run failed (ungraded %v)", strict, rep.Ungraded(name))
		}
		for _, id := range ids {
			if res := rep.Results[name][id]; res.Declared != "no never-index API" || res.Grade != certify.Unsupported {
				t.Errorf("%s declared: %s, declared %q", id, res.Grade, res.Declared)
			}
		}
	}
}
