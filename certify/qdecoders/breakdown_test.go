package qdecoders

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// TestBreakdown: a panic is the decoder's breakdown, its one failure:
// the cases before it are graded, none after it is played, and each is
// left as its consequence.
func TestBreakdown(t *testing.T) {
	panics := hooks{refuse: func(_ *fakeDecoder, k stepKind, _ uint64, _ []byte) error {
		if k == cancelStep {
			panic("cancel")
		}
		return nil
	}}
	g := grade(t, &fakeTarget{name: "panics", h: panics})
	if !strings.Contains(g.Breakdown, "panicked: cancel") || !strings.Contains(g.BreakdownRepro, "reset of stream") {
		t.Fatalf("breakdown %q, repro %q", g.Breakdown, g.BreakdownRepro)
	}
	if res := g.Results["qdec/2.2/1"]; res.Grade != Pass {
		t.Errorf("qdec/2.2/1, before the breakdown: %s: %s", res.Grade, res.Detail)
	}
	for _, id := range []string{"qdec/2.2.2.2/1", "qdec/4.4.3/1", "qdec/7.3/1"} {
		res := g.Results[id]
		if res.Grade != Unsupported || len(res.CausedBy) != 1 || res.CausedBy[0] != BreakdownCause {
			t.Errorf("%s: %s %v: %s", id, res.Grade, res.CausedBy, res.Detail)
		}
	}
}

// TestIncrementOfZero: an Insert Count Increment of 0 fails
// qdec/4.4.3/1 and no other case.
func TestIncrementOfZero(t *testing.T) {
	zero := hooks{after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		if k == encoderStep {
			ds = append(ds, 0x00)
		}
		return got, ds
	}}
	g := grade(t, &fakeTarget{name: "zero", h: zero})
	for id, res := range g.Results {
		want := Pass
		if id == "qdec/4.4.3/1" {
			want = Fail
		}
		if (res.Grade == Fail) != (want == Fail) {
			t.Errorf("%s graded %s: %s", id, res.Grade, res.Detail)
		}
	}
	if d := g.Results["qdec/4.4.3/1"].Detail; !strings.Contains(d, "Increment of 0") {
		t.Errorf("qdec/4.4.3/1: %s", d)
	}
}

// TestSelectCases: a prefix selects its cases; one no case has is an
// error naming it.
func TestSelectCases(t *testing.T) {
	cs, err := SelectCases([]string{"qdec/2.2.2"})
	if err != nil || len(cs) != 3 {
		t.Fatalf("%v, %v", cs, err)
	}
	if _, err := SelectCases([]string{"qdec/9"}); err == nil || !strings.Contains(err.Error(), `"qdec/9"`) {
		t.Errorf("error %v", err)
	}
	if v := CatalogueVersion(); !strings.HasPrefix(v, "22 QPACK decoder cases, ") {
		t.Errorf("catalogue %q", v)
	}
}

// TestRootCause: a decoder that breaks qdec/2.2/1 diverges in the
// traffic stories of other cases too; those divergences are listed as
// the root case's consequences, not failures of their own.
func TestRootCause(t *testing.T) {
	g := grade(t, &fakeTarget{name: "swaps", h: breakers["qdec/2.2/1"]})
	root := g.Results["qdec/2.2/1"]
	if root.Grade != Fail {
		t.Fatalf("qdec/2.2/1 graded %s", root.Grade)
	}
	listed := map[string]bool{}
	for _, c := range root.Consequences {
		listed[c.Case] = true
	}
	for _, id := range []string{"qdec/2.2.2.1/1", "qdec/2.2.2.3/1", "qdec/4.4.3/1"} {
		if !listed[id] {
			t.Errorf("qdec/2.2/1's consequences %+v do not list %s", root.Consequences, id)
		}
		if res := g.Results[id]; res.Evidence.NotJudged == 0 {
			t.Errorf("%s: no step left unjudged: %s", id, res.Evidence)
		}
	}
}

// TestParseLack: the lacks a source reads by name, and an unknown one.
func TestParseLack(t *testing.T) {
	var l Lacks
	for _, name := range []string{"dynamic-table", "never-indexed"} {
		if err := l.ParseLack(name); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(l.Names(), ","); got != "dynamic-table,never-indexed" {
		t.Errorf("names %q", got)
	}
	if err := l.ParseLack("huffman"); err == nil || !strings.Contains(err.Error(), `"huffman"`) {
		t.Errorf("error %v", err)
	}
}
