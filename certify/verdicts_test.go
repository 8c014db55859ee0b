package certify_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// literalOnly is an encoder that never Huffman-codes and, unless
// insert is set, never inserts: every field a literal without indexing
// (with incremental indexing when insert is set, never referenced; never
// indexed when sensitive), with raw strings, and the size updates RFC 7541
// §4.2 asks for.
type literalOnly struct {
	acked  []uint32
	insert bool
	// zero: the encoder's table is 0 from the start of its first block
	// (an update to 0, no other), so that every insertion empties it.
	zero, started bool
}

func (e *literalOnly) SetMaxDynamicTableSize(n uint32) error {
	e.acked = append(e.acked, n)
	return nil
}

func (e *literalOnly) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	if e.zero {
		if !e.started {
			dst = encoder.AppendInteger(dst, 0x20, 5, 0)
		}
		e.started, e.acked = true, nil
	}
	if len(e.acked) > 0 {
		smallest := slices.Min(e.acked)
		final := e.acked[len(e.acked)-1]
		if smallest < final {
			dst = encoder.AppendInteger(dst, 0x20, 5, uint64(smallest))
		}
		dst = encoder.AppendInteger(dst, 0x20, 5, uint64(final))
		e.acked = nil
	}
	for _, f := range fields {
		pattern, prefix := byte(0x00), uint8(4)
		switch {
		case f.Sensitive:
			pattern = 0x10
		case e.insert:
			pattern, prefix = 0x40, 6
		}
		dst = encoder.AppendInteger(dst, pattern, prefix, 0)
		for _, s := range []string{f.Name, f.Value} {
			dst = encoder.AppendInteger(dst, 0x00, 7, uint64(len(s)))
			dst = append(dst, s...)
		}
	}
	return dst, nil
}

// TestNothingJudgedIsNotAPass checks the evidence rule on an encoder that
// never inserts and never Huffman-codes, the two representations RFC 7541
// leaves to the encoder: every case whose rule is about them is "not
// applicable", with the counts that show it, never a pass and never
// ungraded (nothing the certifier could send would make it apply), so the
// run passes without a declaration, and a declaration does not turn it
// into "declared"; coverage counts no Huffman code. The same encoder
// inserting every field makes the table rules apply again (one use is
// enough), and Huffman's stay not applicable.
func TestNothingJudgedIsNotAPass(t *testing.T) {
	target := certify.Func("literal-only", func() certify.Encoder { return &literalOnly{} })
	rep, err := certify.Run([]certify.Target{target}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	tableCases := []string{"enc/4.1/1", "enc/4.3/1", "enc/4.4/1"}
	huffmanCases := []string{"enc/5.2/1", "enc/5.2/2", "enc/5.2/4"}
	notApplicable := func(rep *certify.Report, name string, ids []string, what string) {
		t.Helper()
		for _, id := range ids {
			res := rep.Results[name][id]
			if res.Grade != certify.Unsupported || !res.NotApplicable || !strings.HasPrefix(res.Detail, "not applicable: ") || !strings.Contains(res.Detail, what) ||
				res.Evidence.Instances != 0 || res.Evidence.Blocks == 0 || res.Declared != "" {
				t.Errorf("%s %s: %s n/a %v declared %q %q (evidence %+v); want unsupported, not applicable (%q), with the blocks judged", name, id, res.Grade, res.NotApplicable, res.Declared, res.Detail, res.Evidence, what)
			}
		}
	}
	notApplicable(rep, "literal-only", tableCases, "added no entry to the dynamic table")
	notApplicable(rep, "literal-only", huffmanCases, "Huffman-coded none of the")
	for _, id := range []string{"enc/3.2/1", "enc/4.2/1", "enc/6.3/1", "enc/7.1.3/1"} {
		if res := rep.Results["literal-only"][id]; res.Grade != certify.Pass || res.Evidence.Instances == 0 {
			t.Errorf("%s: %s %q (evidence %+v); want pass on judged instances", id, res.Grade, res.Detail, res.Evidence)
		}
	}
	if n := rep.Coverage["literal-only"].HuffmanOctets.Covered; n != 0 {
		t.Errorf("Huffman codes covered: %d; want 0 for an encoder that never Huffman-codes", n)
	}
	if u := rep.Ungraded("literal-only"); len(u) != 0 || rep.Failed() {
		t.Errorf("ungraded %v, failed %v; want none (not applicable is not a lack), and the run passed", u, rep.Failed())
	}

	opts := certifytest.Quick()
	opts.Declared = []certify.Declaration{
		{Case: "enc/4.", Encoder: "literal-only", Reason: "it never inserts"},
		{Case: "enc/5.2/", Reason: "it never Huffman-codes"},
	}
	opts.Strict = true
	rep, err = certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if u := rep.Ungraded("literal-only"); len(u) != 0 || rep.Failed() {
		t.Errorf("declared: ungraded %v, failed %v; want none, and the run passed", u, rep.Failed())
	}
	notApplicable(rep, "literal-only", append(tableCases, huffmanCases...), "not applicable")
	if res := rep.Results["literal-only"]["enc/4.2/1"]; res.Declared != "" || res.Grade != certify.Pass {
		t.Errorf("enc/4.2/1, graded and covered by a declaration: %s, declared %q; want pass, not declared", res.Grade, res.Declared)
	}

	inserting := certify.Func("inserting", func() certify.Encoder { return &literalOnly{insert: true} })
	rep, err = certify.Run([]certify.Target{inserting}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"enc/4.1/1", "enc/4.4/1"} {
		if res := rep.Results["inserting"][id]; res.Grade != certify.Pass || res.NotApplicable || res.Evidence.Instances == 0 {
			t.Errorf("inserting %s: %s n/a %v %q; want pass on judged insertions", id, res.Grade, res.NotApplicable, res.Detail)
		}
	}
	notApplicable(rep, "inserting", huffmanCases, "Huffman-coded none of the")

	// A table of 0 from the first block: every insertion empties it, so
	// nothing is ever evicted (the rules on evictions do not apply), but
	// the entries' sizes and the attempts to add an entry larger than the
	// table are judged.
	zero := certify.Func("zero-table", func() certify.Encoder { return &literalOnly{insert: true, zero: true} })
	rep, err = certify.Run([]certify.Target{zero}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	notApplicable(rep, "zero-table", []string{"enc/4.3/1", "enc/4.4/1"}, "too small for any entry")
	for _, id := range []string{"enc/3.2/2", "enc/4.1/1", "enc/4.4/2"} {
		if res := rep.Results["zero-table"][id]; res.Grade != certify.Pass || res.Evidence.Instances == 0 {
			t.Errorf("zero-table %s: %s n/a %v %q; want pass on judged instances", id, res.Grade, res.NotApplicable, res.Detail)
		}
	}
	if u := rep.Ungraded("zero-table"); len(u) != 0 || rep.Failed() {
		t.Errorf("zero-table: ungraded %v, failed %v; want none, and the run passed", u, rep.Failed())
	}
}

// TestRootCauseOutsideTheSelection checks that a divergence whose owner
// was not selected is not filed under a selected case it has nothing to
// do with: x/net's missing size update before a block without fields
// (enc/4.2/4's) decodes right with an RFC 7541 table, so no table model
// explains it, and enc/4.1/1 alone passes.
func TestRootCauseOutsideTheSelection(t *testing.T) {
	xnet, err := inprocess.Builtin("xnet")
	if err != nil {
		t.Fatal(err)
	}
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/4.1/", "enc/4.4/"}
	rep, err := certify.Run([]certify.Target{xnet}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"enc/4.1/1", "enc/4.4/1", "enc/4.4/2"} {
		if res := rep.Results["x/net"][id]; res.Grade != certify.Pass {
			t.Errorf("%s: %s %q; want pass", id, res.Grade, res.Detail)
		}
	}
}

// noSensitive is the broken encoder without a bug, whose library has no
// never-index API: a sensitive field is an error.
type noSensitive struct{ certify.Encoder }

func (e noSensitive) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	for _, f := range fields {
		if f.Sensitive {
			return dst, errors.New("no never-index API")
		}
	}
	return e.Encoder.EncodeBlock(dst, fields)
}

// TestDeclaredLackBuildsScenarios checks that a lack declared in advance
// changes what the encoder is given, not what it is graded on: the
// encoder that cannot express a sensitive field, declared with
// Lacks.NeverIndex, gets no sensitive field, breaks down nowhere, passes
// every other case on full-strength input, and enc/7.1.3/1 says the
// encoder declared the lack — and stays ungraded, failing the run, until
// the user declares it too; undeclared, the same encoder breaks down.
func TestDeclaredLackBuildsScenarios(t *testing.T) {
	newEnc := func() certify.Encoder { return noSensitive{broken.New(broken.None)} }
	undeclared := certify.Func("no-sensitive", newEnc)
	declared := certify.Declare(certify.Func("no-sensitive declared", newEnc), certify.Lacks{NeverIndex: true})
	rep, err := certify.Run([]certify.Target{undeclared, declared}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Targets["no-sensitive"].Breakdown; !strings.Contains(b, "no never-index API") {
		t.Errorf("undeclared: breakdown %q; want the encoder's error", b)
	}
	info := rep.Targets["no-sensitive declared"]
	if info.Breakdown != "" || info.Lacks != "never-index" {
		t.Errorf("declared: breakdown %q, lacks %q; want none and never-index", info.Breakdown, info.Lacks)
	}
	for _, c := range rep.Cases {
		res := rep.Results["no-sensitive declared"][c.ID]
		switch {
		case c.ID == "enc/7.1.3/1":
			if res.Grade != certify.Unsupported || res.Declared != "" || !strings.HasPrefix(res.Detail, "the encoder declares no never-index API") {
				t.Errorf("%s: %s %q, declared %q; want unsupported, naming the encoder's lack, not declared by the user", c.ID, res.Grade, res.Detail, res.Declared)
			}
		case c.Violation == certify.Info:
		case res.Grade != certify.Pass:
			t.Errorf("%s: %s %q; want pass on the scenarios built without sensitive fields", c.ID, res.Grade, res.Detail)
		}
	}
	if u := rep.Ungraded("no-sensitive declared"); len(u) != 1 || u[0].Case != "enc/7.1.3/1" {
		t.Errorf("declared by the encoder: ungraded %v; want enc/7.1.3/1 alone", u)
	}
	opts := certifytest.Quick()
	opts.Declared = []certify.Declaration{{Case: "enc/7.1.3/1", Reason: "the library has no never-index API"}}
	rep, err = certify.Run([]certify.Target{declared}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() || rep.Results["no-sensitive declared"]["enc/7.1.3/1"].Declared == "" {
		t.Errorf("declared by the encoder and the user: failed %v, %+v; want the run passed, the case declared", rep.Failed(), rep.Results["no-sensitive declared"]["enc/7.1.3/1"])
	}
}
