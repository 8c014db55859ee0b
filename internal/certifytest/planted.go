package certifytest

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// Planted is one planted bug of internal/broken and the cases it fails,
// with the grade of each: no other case may fail or be non-strict.
type Planted struct {
	Bug   broken.Bug
	Fails map[string]certify.Grade
}

// PlantedBugs is the table of every planted bug and the cases it fails,
// the proof that a defect is graded once, under the rule it breaks
// (certify's root causes): the engine's and the stdio source's tests run
// it, in process and over hpack-stdio.
var PlantedBugs = []Planted{
	{broken.IndexNotInserted, map[string]certify.Grade{"enc/2.3.2/1": certify.Fail, "enc/2.3.2/2": certify.Fail}},
	{broken.NoUpdateAfterDownUp, map[string]certify.Grade{"enc/4.2/2": certify.Fail, "enc/4.2/4": certify.NonStrict}},
	{broken.ThreeUpdates, map[string]certify.Grade{"enc/4.2/3": certify.NonStrict}},
	{broken.UpdateAboveSetting, map[string]certify.Grade{"enc/6.3/1": certify.Fail, "enc/4.2/2": certify.Fail, "enc/4.2/4": certify.NonStrict}},
	{broken.HuffmanZeroPadding, map[string]certify.Grade{"enc/5.2/1": certify.Fail}},
	{broken.AlwaysHuffman, map[string]certify.Grade{"enc/5.2/2": certify.NonStrict}},
	{broken.AuthorizationIndexed, map[string]certify.Grade{"enc/7.1.3/2": certify.NonStrict}},
	{broken.SensitiveIndexed, map[string]certify.Grade{"enc/7.1.3/1": certify.Fail}},
	{broken.Overhead31, map[string]certify.Grade{"enc/4.1/1": certify.Fail}},
	{broken.EvictOneTooFew, map[string]certify.Grade{"enc/4.4/1": certify.Fail}},
	// No size update at all: the lowered settings are its failures
	// (4.2/1 and, for several settings before a block, 4.2/2); the rules
	// about the updates it never writes (4.3/1, 6.3/1, 6.3/2) are their
	// consequences, neither failed nor left ungraded.
	{broken.NoSizeUpdates, map[string]certify.Grade{"enc/4.2/1": certify.Fail, "enc/4.2/2": certify.Fail, "enc/4.2/4": certify.NonStrict}},
	// A name index counted after the insertion that evicts the name's
	// entry (§4.4 has the decoder read the name first): the index names
	// another entry, or none, on the decoders' side, the disagreement of
	// indices 2.3.2/2 owns (the own-name stories are targeted, the
	// situation rare in the traffic).
	{broken.EvictedNameAfterInsert, map[string]certify.Grade{"enc/2.3.2/2": certify.Fail}},
	{broken.WrongHuffmanCode('a'), map[string]certify.Grade{"enc/5.2/4": certify.Fail}},
}

// CheckPlanted checks that enc, the encoder with p's bug, fails exactly
// p's cases with their grades, each with a reproduction carrying the wire.
func CheckPlanted(t testing.TB, rep *certify.Report, enc string, p Planted) {
	t.Helper()
	var got []string
	for _, c := range rep.Cases {
		res := rep.Results[enc][c.ID]
		if res == nil {
			continue
		}
		want, listed := p.Fails[c.ID]
		switch {
		case listed && res.Grade != want:
			t.Errorf("%s: %s graded %s (%s); want %s", p.Bug, c.ID, res.Grade, res.Detail, want)
		case !listed && (res.Grade == certify.Fail || res.Grade == certify.NonStrict):
			t.Errorf("%s: %s graded %s (%s); want no failure: the bug breaks only %s", p.Bug, c.ID, res.Grade, res.Detail, strings.Join(keys(p.Fails), ", "))
		case listed && !strings.Contains(res.Repro, "wire"):
			t.Errorf("%s: %s has no reproduction with the wire: %q", p.Bug, c.ID, res.Repro)
		}
		if res.Grade == certify.Fail || res.Grade == certify.NonStrict {
			got = append(got, c.ID+" "+res.Grade.String())
		}
	}
	t.Logf("%s: %s", p.Bug, strings.Join(got, ", "))
}

func keys(m map[string]certify.Grade) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
