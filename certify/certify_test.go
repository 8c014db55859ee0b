package certify_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// plantedBugs is the table of every planted bug of internal/broken and
// the cases it fails, each with its grade: the defect graded once, under
// the rule it breaks (the root causes of diagnose.go), whatever else its
// divergences break downstream. A bug that breaks a rule in two ways
// (update-above-setting signals 4096 where the setting is lower, and,
// after settings of 0 then 4096, signals 4096 where the smallest, 0, was
// due) fails each rule it breaks. The same table holds for the stdio
// encoder of certify/testdata/stdioenc (source/stdio's tests).
var plantedBugs = certifytest.PlantedBugs

// TestBrokenEncodersCaught is the proof that the certifier catches bugs
// exactly: each broken encoder fails the cases of plantedBugs and no
// other, with the grade the case gives a violation, and the same encoder
// without the bug passes them.
func TestBrokenEncodersCaught(t *testing.T) {
	targets := []certify.Target{certifytest.BrokenTarget(broken.None)}
	for _, p := range plantedBugs {
		targets = append(targets, certifytest.BrokenTarget(p.Bug))
	}
	rep, err := certify.Run(targets, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plantedBugs {
		enc := "broken " + p.Bug.String()
		certifytest.CheckPlanted(t, rep, enc, p)
		for id := range p.Fails {
			if got := rep.Results["broken none"][id].Grade; got != certify.Pass {
				t.Errorf("broken none: %s graded %s; want pass", id, got)
			}
		}
	}
	if !rep.Failed() {
		t.Error("report with failing encoders: Failed() = false; want true")
	}
	// An encoder that writes no size update leaves the rules about size
	// updates nothing to judge: consequences of its failure, not
	// ungraded cases.
	enc := "broken " + broken.NoSizeUpdates.String()
	for _, id := range []string{"enc/4.3/1", "enc/6.3/1", "enc/6.3/2"} {
		res := rep.Results[enc][id]
		if res.Grade != certify.Unsupported || len(res.CausedBy) != 1 || res.CausedBy[0] != "enc/4.2/1" {
			t.Errorf("%s: %s %v caused by %q (%s); want unsupported, caused by enc/4.2/1", enc, id, res.Grade, res.CausedBy, res.Detail)
		}
	}
	if u := rep.Ungraded(enc); len(u) > 0 {
		t.Errorf("%s: ungraded %v; want none (the cases it leaves are consequences)", enc, u)
	}
}

// TestWrongHuffmanCodeCaught flips one bit of the Huffman code of one
// octet: enc/5.2/4 fails and names that octet.
func TestWrongHuffmanCodeCaught(t *testing.T) {
	var targets []certify.Target
	for _, x := range certifytest.HuffmanOctetsUnderTest {
		targets = append(targets, certifytest.BrokenTarget(broken.WrongHuffmanCode(x)))
	}
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/4"}
	rep, err := certify.Run(targets, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range certifytest.HuffmanOctetsUnderTest {
		certifytest.CheckHuffmanOctetCaught(t, rep, rep.Encoders[i], x)
	}
}

// TestReferenceCoverage checks that the scenarios exercise, through the
// reference encoder, every static entry and name, every Huffman code and
// every integer boundary the coverage section lists within reach: with
// the built-in's 4,096-octet capacity, those its table reaches; with a
// capacity past 2^5-1+2^21, every one but those past the run's limits.
func TestReferenceCoverage(t *testing.T) {
	ref, err := inprocess.Builtin("ref")
	if err != nil {
		t.Fatal(err)
	}
	large := certify.Func("ref-4MiB", func() certify.Encoder { return certify.NewReference(encoder.Config{Capacity: 4 << 20}) })
	rep, err := certify.Run([]certify.Target{ref, large}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, ints string
	}{
		{"ref", "integer boundaries 13/13 (of 30: 13 need a larger table, 4 past the run's limits)"},
		{"ref-4MiB", "integer boundaries 26/26 (of 30: 4 past the run's limits)"},
	} {
		cov := rep.Coverage[tt.name]
		if cov == nil {
			t.Fatalf("no coverage for %s", tt.name)
		}
		if !cov.Complete() || !strings.HasSuffix(cov.String(), tt.ints) {
			var missing []string
			for _, b := range cov.Integers {
				if !b.Covered {
					missing = append(missing, fmt.Sprintf("%s = %s (%s)", b.Use, b.Value, b.Unreachable))
				}
			}
			t.Errorf("coverage of %s: %s; want %s\nstatic entries missing: %q\nstatic names missing: %q\nHuffman octets missing: %q\nintegers missing: %q",
				tt.name, cov, tt.ints, cov.StaticEntries.Missing, cov.StaticNames.Missing, cov.HuffmanOctets.Missing, missing)
		}
		if cov.StaticEntries.Total != 61 || cov.HuffmanOctets.Total != 256 || cov.StaticNames.Total != 52 {
			t.Errorf("coverage totals of %s %s; want 61 static entries, 52 static names, 256 Huffman codes", tt.name, cov)
		}
	}
}

// TestCleanEncodersPassStrict runs the reference encoder and the bug-free
// broken encoder with --strict: nothing may fail.
func TestCleanEncodersPassStrict(t *testing.T) {
	ref, err := inprocess.Builtin("ref")
	if err != nil {
		t.Fatal(err)
	}
	opts := certifytest.Quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{ref, certifytest.BrokenTarget(broken.None)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range rep.Encoders {
		if bad := certifytest.GradesWithout(rep, enc); len(bad) > 0 {
			t.Errorf("%s with Strict:\n%s", enc, strings.Join(bad, "\n"))
		}
	}
	if rep.Failed() {
		t.Error("Failed() = true; want false")
	}
	if got := rep.Results["ref"]["enc/7.3/2"].Detail; !raceEnabled && !strings.HasPrefix(got, "0.0 allocations per block") {
		t.Errorf("ref enc/7.3/2: %q; want 0.0 allocations per block", got)
	}
}

// TestXNetGrades records how x/net's encoder does: it indexes
// authorization and short cookies unless the caller marks them
// sensitive, and like the reference it sends no size update in a block
// without fields (both non-strict); it breaks no MUST.
func TestXNetGrades(t *testing.T) {
	xnet, err := inprocess.Builtin("xnet")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := certify.Run([]certify.Target{xnet}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(certifytest.GradesWithout(rep, "x/net"), "\n")
	if !regexp.MustCompile(`^enc/4\.2/4 non-strict: [^\n]*\nenc/7\.1\.3/2 non-strict: [^\n]*$`).MatchString(got) {
		t.Errorf("x/net grades other than pass/info:\n%s\nwant enc/4.2/4 and enc/7.1.3/2 non-strict", got)
	}
}

// TestStrictTurnsNonStrictIntoFail checks --strict on a non-strict bug.
func TestStrictTurnsNonStrictIntoFail(t *testing.T) {
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/2"}
	for _, strict := range []bool{false, true} {
		opts.Strict = strict
		rep, err := certify.Run([]certify.Target{certifytest.BrokenTarget(broken.AlwaysHuffman)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := certify.NonStrict
		if strict {
			want = certify.Fail
		}
		if got := rep.Results["broken always-huffman"]["enc/5.2/2"].Grade; got != want {
			t.Errorf("Strict=%v: enc/5.2/2 graded %s; want %s", strict, got, want)
		}
		if rep.Failed() != strict {
			t.Errorf("Strict=%v: Failed() = %v; want %v", strict, rep.Failed(), strict)
		}
	}
}

func TestExpectFail(t *testing.T) {
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/1"}
	opts.ExpectFail = []string{"broken huffman-zero-padding enc/5.2/1"}
	rep, err := certify.Run([]certify.Target{certifytest.BrokenTarget(broken.HuffmanZeroPadding)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results["broken huffman-zero-padding"]["enc/5.2/1"]
	if res.Grade != certify.Fail || !res.Expected {
		t.Errorf("enc/5.2/1: grade %s, expected %v; want fail, expected", res.Grade, res.Expected)
	}
	if rep.Failed() {
		t.Error("an expected failure made Failed() true")
	}
	if len(rep.StaleExpectations) != 0 {
		t.Errorf("StaleExpectations = %q; want none", rep.StaleExpectations)
	}

	// The same list against the encoder once the bug is fixed: the entry
	// is stale.
	fixed := certify.Func("broken huffman-zero-padding", func() certify.Encoder { return broken.New(broken.None) })
	rep, err = certify.Run([]certify.Target{fixed}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := opts.ExpectFail; len(rep.StaleExpectations) != 1 || rep.StaleExpectations[0] != want[0] {
		t.Errorf("StaleExpectations = %q; want %q", rep.StaleExpectations, want)
	}

	// Entries that cannot match are errors, not silently stale.
	for _, bad := range []struct{ entry, want string }{
		{"enc/9.9/9", `no case "enc/9.9/9"`},
		{"nobody enc/5.2/1", `no encoder "nobody" in this run`},
	} {
		opts.ExpectFail = []string{bad.entry}
		if _, err := certify.Run([]certify.Target{fixed}, opts); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("expected failure %q: error %v; want one containing %q", bad.entry, err, bad.want)
		}
	}
}

func TestSelectCases(t *testing.T) {
	tests := []struct {
		prefixes []string
		want     []string
		err      bool
	}{
		{[]string{"enc/4.2/"}, []string{"enc/4.2/1", "enc/4.2/2", "enc/4.2/3", "enc/4.2/4"}, false},
		{[]string{"enc/7.1.3", "enc/1."}, []string{"enc/1.1/1", "enc/7.1.3/1", "enc/7.1.3/2"}, false},
		{[]string{"enc/9"}, nil, true},
	}
	for _, tt := range tests {
		cases, err := certify.SelectCases(tt.prefixes)
		if (err != nil) != tt.err {
			t.Errorf("SelectCases(%q) error %v; want error %v", tt.prefixes, err, tt.err)
			continue
		}
		var got []string
		for _, c := range cases {
			got = append(got, c.ID)
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("SelectCases(%q) = %q; want %q", tt.prefixes, got, tt.want)
		}
	}
}

// TestCasesDocumented checks that every case says what it checks.
func TestCasesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range certify.Cases() {
		if !strings.HasPrefix(c.ID, "enc/"+c.Section+"/") {
			t.Errorf("%s: id does not start with enc/%s/", c.ID, c.Section)
		}
		if c.Title == "" || c.RFC == "" {
			t.Errorf("%s: title %q, RFC text %q; want both", c.ID, c.Title, c.RFC)
		}
		if seen[c.ID] {
			t.Errorf("%s: duplicate id", c.ID)
		}
		seen[c.ID] = true
	}
}

func TestTestEncoder(t *testing.T) {
	certify.TestEncoder(t, func() certify.Encoder { return certify.NewReference(encoder.Config{}) }, certifytest.Quick())
}

// failingEncoder fails every block.
type failingEncoder struct{}

func (failingEncoder) SetMaxDynamicTableSize(uint32) error { return nil }
func (failingEncoder) EncodeBlock(dst []byte, _ []certify.Field) ([]byte, error) {
	return dst, errors.New("out of order")
}

// TestBreakdownGrades checks that an encoder that breaks down is one
// failure, the target's breakdown naming the encoder's error once, and
// that no case fails for it: the cases judged nothing, and say so without
// repeating the error.
func TestBreakdownGrades(t *testing.T) {
	rep, err := certify.Run([]certify.Target{certify.Func("failing", func() certify.Encoder { return failingEncoder{} })}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Targets["failing"].Breakdown; !strings.Contains(b, "out of order") || !strings.Contains(b, "scenario traffic") {
		t.Errorf("breakdown %q; want the encoder's error and where", b)
	}
	if !rep.Failed() {
		t.Error("Failed() = false for a target that broke down")
	}
	for _, c := range rep.Cases {
		res := rep.Results["failing"][c.ID]
		if res.Grade != certify.Unsupported || strings.Contains(res.Detail, "out of order") || !strings.Contains(res.Detail, "broke down") {
			t.Errorf("%s: %s %q; want unsupported, pointing to the breakdown without repeating it", c.ID, res.Grade, res.Detail)
		}
	}
}
