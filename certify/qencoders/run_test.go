package qencoders_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

func builtin(t *testing.T, name string) qpack.EncoderTarget {
	t.Helper()
	target, err := inprocess.BuiltinQPACKEncoder(name)
	if err != nil {
		t.Fatal(err)
	}
	return target
}

// TestReferencePassesStrict holds the reference encoder to every qenc/
// case: a pass each, non-strict ones included.
func TestReferencePassesStrict(t *testing.T) {
	cases, graded, err := qencoders.Run([]qpack.EncoderTarget{builtin(t, "ref")}, qencoders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := graded[0]
	if g.Breakdown != "" {
		t.Fatalf("breakdown: %s", g.Breakdown)
	}
	for _, c := range cases {
		r := g.Results[c.ID]
		if r.Grade != qencoders.Pass {
			t.Errorf("%s: %v: %s (at %s)", c.ID, r.Grade, r.Detail, r.At)
		}
	}
}
