package qencoders_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
)

func TestDump(t *testing.T) {
	for _, n := range []string{"ref", "quicgo"} {
		cases, graded, _ := qencoders.Run([]qpack.EncoderTarget{builtin(t, n)}, qencoders.Options{})
		g := graded[0]
		t.Logf("%s: breakdown %q conns %d", n, g.Breakdown, g.Connections)
		for _, c := range cases {
			r := g.Results[c.ID]
			t.Logf("  %-16s %-11v %s | %s | %v", c.ID, r.Grade, r.Detail, r.Evidence.String(), r.Consequences)
		}
	}
}
