package qencoders_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/source/recorded"
)

func TestDumpRecorded(t *testing.T) {
	ts, err := recorded.QPACKDir("../../../shared/qifs/encoded/qpack-05")
	if err != nil {
		t.Fatal(err)
	}
	cases, graded, _ := qencoders.Run(ts, qencoders.Options{})
	for _, g := range graded {
		t.Logf("%s: breakdown %q conns %d", g.Name, g.Breakdown, g.Connections)
		for _, c := range cases {
			r := g.Results[c.ID]
			if r.Grade != qencoders.Pass {
				t.Logf("  %-16s %-11v %s | %v", c.ID, r.Grade, r.Detail, r.Consequences)
			}
		}
	}
}
