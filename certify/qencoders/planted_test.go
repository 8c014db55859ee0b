package qencoders_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qbroken"
)

// TestPlantedBugs grades an independent encoder (internal/qbroken) with
// each planted bug: the bug is caught under the one case whose rule it
// breaks, and no other case fails or turns non-strict; without a bug,
// every case passes.
func TestPlantedBugs(t *testing.T) {
	targets := []qpack.EncoderTarget{qbroken.Target(qbroken.None)}
	want := map[string]string{targets[0].Name(): ""}
	for _, p := range qbroken.Bugs() {
		target := qbroken.Target(p.Bug)
		targets = append(targets, target)
		want[target.Name()] = p.Case
	}
	cases, graded, err := qencoders.Run(targets, qencoders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range graded {
		if g.Breakdown != "" {
			t.Errorf("%s: breakdown: %s", g.Name, g.Breakdown)
			continue
		}
		caught := want[g.Name]
		for _, c := range cases {
			r := g.Results[c.ID]
			switch {
			case c.ID == caught && r.Grade != c.Violation:
				t.Errorf("%s: %s graded %v, want %v: %s", g.Name, c.ID, r.Grade, c.Violation, r.Detail)
			case c.ID != caught && (r.Grade == qencoders.Fail || r.Grade == qencoders.NonStrict):
				t.Errorf("%s: %s also graded %v: %s (at %s)", g.Name, c.ID, r.Grade, r.Detail, r.At)
			case c.ID != caught && r.Grade != qencoders.Pass:
				t.Logf("%s: %s %v: %s", g.Name, c.ID, r.Grade, r.Detail)
			}
		}
	}
}
