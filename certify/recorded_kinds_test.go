package certify

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ts "github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// recordedKinds returns recorded stories encoded by the reference
// encoder: a story of traffic (the first of raw-data, cut to 12 blocks),
// the same story again, and a generated one whose values carry the octets
// given.
func recordedKinds(t *testing.T, octets string) []*vectors.Story {
	t.Helper()
	raw, err := vectors.RawData()
	if err != nil {
		t.Fatal(err)
	}
	var traffic vectors.Story
	for _, s := range raw {
		if len(s.Cases) >= 12 {
			traffic = *s
			break
		}
	}
	traffic.Path = "traffic-a"
	traffic.Cases = traffic.Cases[:12]
	again := traffic
	again.Path = "traffic-a-again"
	gen := vectors.Story{Path: "generated-b", Cases: []vectors.Case{
		{Headers: []vectors.Field{{Name: ":status", Value: "200"}, {Name: "x-octets", Value: octets}}},
		{Headers: []vectors.Field{{Name: ":status", Value: "200"}, {Name: "x-octets", Value: octets}, {Name: "x-more", Value: "v"}}},
	}}
	ref := Func("ref", func() Encoder { return NewReference(encoder.Config{}) })
	var out []*vectors.Story
	for _, s := range []*vectors.Story{&traffic, &again, &gen} {
		enc, err := EncodeStory(ref, s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, enc)
	}
	return out
}

// fieldValueOctets returns every octet an HTTP field value may carry.
func fieldValueOctets() string {
	var b strings.Builder
	b.WriteString("a\tb")
	for x := 0x20; x <= 0xff; x++ {
		if x != 0x7f {
			b.WriteByte(byte(x))
		}
	}
	return b.String()
}

func runKinds(t *testing.T, stories []*vectors.Story, generated []string, replay bool) map[string]*Result {
	t.Helper()
	rec := recording(t, stories)
	for i := range rec.Stories {
		st := &rec.Stories[i]
		st.Generated = slices.Contains(generated, st.Name)
		if replay && st.Name == "traffic-a-again" {
			st.ReplayOf = "traffic-a"
		}
	}
	rep, err := Run([]Target{mustTarget(t, rec)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results["kinds"]
}

func TestRecordedGeneratedStories(t *testing.T) {
	stories := recordedKinds(t, fieldValueOctets())
	// Unmarked, every story is traffic: the generated cases go
	// unsupported, but the octet case judges the octets the stories
	// carry, all of them.
	res := runKinds(t, stories, nil, false)
	for _, id := range []string{"enc/3.2/2", "enc/2.3.2/2"} {
		if res[id].Grade != Unsupported {
			t.Errorf("unmarked: %s %v (%s); want unsupported", id, res[id].Grade, res[id].Detail)
		}
	}
	if r := res["enc/5.2/3"]; r.Grade != Pass || r.Evidence.Blocks != 26 {
		t.Errorf("unmarked: enc/5.2/3 %v on %d blocks (%s); want pass on all 26", r.Grade, r.Evidence.Blocks, r.Detail)
	}
	if res["enc/3.2/1"].Grade != Pass || res["enc/3.2/1"].Evidence.Blocks != 26 {
		t.Errorf("unmarked: enc/3.2/1 %v on %d blocks; want pass on all 26", res["enc/3.2/1"].Grade, res["enc/3.2/1"].Evidence.Blocks)
	}
	// Marked, the generated story is judged by the generated cases and
	// only by them; the traffic by the traffic cases.
	res = runKinds(t, stories, []string{"generated-b"}, false)
	for id, blocks := range map[string]int{"enc/3.2/1": 24, "enc/3.2/2": 2, "enc/5.2/3": 2, "enc/5.2/1": 26} {
		if res[id].Grade != Pass || res[id].Evidence.Blocks != blocks {
			t.Errorf("marked: %s %v on %d blocks (%s); want pass on %d", id, res[id].Grade, res[id].Evidence.Blocks, res[id].Detail, blocks)
		}
	}
	if !strings.Contains(res["enc/5.2/3"].Detail, "all 224 octet values") {
		t.Errorf("enc/5.2/3 detail %q; want it to say all 224 field octets were carried", res["enc/5.2/3"].Detail)
	}
	// A generated story short of some field octets does not pass 5.2/3.
	res = runKinds(t, recordedKinds(t, "abc\x80"), []string{"generated-b"}, false)
	if r := res["enc/5.2/3"]; r.Grade != Unsupported || !strings.Contains(r.Detail, "missing 0x09, 0x20-") {
		t.Errorf("few octets: enc/5.2/3 %v (%s); want unsupported, naming HTAB and SP missing", r.Grade, r.Detail)
	}
}

// recording returns the recording of stories, named kinds.
func recording(t *testing.T, stories []*vectors.Story) *Recording {
	t.Helper()
	rec, err := ts.FromStories("kinds", "test", stories)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// mustTarget returns the engine's target for rec.
func mustTarget(t *testing.T, rec *Recording) Target {
	t.Helper()
	target, err := Recorded(rec)
	if err != nil {
		t.Fatal(err)
	}
	return target
}

func mustRecorded(t *testing.T, stories []*vectors.Story) Target {
	t.Helper()
	return mustTarget(t, recording(t, stories))
}

func TestRecordedReplayDeterminism(t *testing.T) {
	stories := recordedKinds(t, fieldValueOctets())
	if r := runKinds(t, stories, nil, false)["enc/2.2/1"]; r.Grade != Unsupported {
		t.Errorf("no replay: enc/2.2/1 %v (%s); want unsupported", r.Grade, r.Detail)
	}
	if r := runKinds(t, stories, nil, true)["enc/2.2/1"]; r.Grade != Info || !strings.Contains(r.Detail, "deterministic: 12 blocks") {
		t.Errorf("replay: enc/2.2/1 %v (%s); want info, 12 blocks identical", r.Grade, r.Detail)
	}
	// A different input from block 5 on: compared up to there.
	changed := recordedKinds(t, fieldValueOctets())
	changed[1].Cases[5].Headers = append(changed[1].Cases[5].Headers, vectors.Field{Name: "date", Value: "later"})
	if r := runKinds(t, changed, nil, true)["enc/2.2/1"]; r.Grade != Info || !strings.Contains(r.Detail, "deterministic: 5 blocks") || !strings.Contains(r.Detail, "from block 5 on") {
		t.Errorf("changed input: enc/2.2/1 %v (%s); want info, 5 blocks compared", r.Grade, r.Detail)
	}
	// The same input, another output: not deterministic.
	other := recordedKinds(t, fieldValueOctets())
	other[1].Cases[3].Wire = append([]byte{0x20}, other[1].Cases[3].Wire...)
	if r := runKinds(t, other, nil, true)["enc/2.2/1"]; r.Grade != Info || !strings.Contains(r.Detail, "not deterministic: story traffic-a-again, block 3") {
		t.Errorf("other output: enc/2.2/1 %v (%s); want info, not deterministic at block 3", r.Grade, r.Detail)
	}
}

func TestRecordedFieldRole(t *testing.T) {
	stories := recordedKinds(t, fieldValueOctets())
	for _, tc := range []struct {
		role                   string
		entries, names, absent int
		without                string
	}{
		{"response", 54, 48, 7, ":method"},
		{"request", 54, 51, 7, ":status"},
	} {
		rec := recording(t, stories)
		rec.Role = tc.role
		rep, err := Run([]Target{mustTarget(t, rec)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cov := rep.Coverage["kinds"]
		if cov.StaticEntries.Reach != tc.entries || cov.StaticNames.Reach != tc.names || cov.HuffmanOctets.Reach != 224 {
			t.Errorf("%s: reach %d entries, %d names, %d octets; want %d, %d, 224", tc.role, cov.StaticEntries.Reach, cov.StaticNames.Reach, cov.HuffmanOctets.Reach, tc.entries, tc.names)
		}
		if !strings.Contains(cov.StaticEntries.Beyond, tc.without) || !strings.Contains(cov.String(), "within reach") {
			t.Errorf("%s: coverage %q; want the entries a %s cannot carry (%s) named", tc.role, cov.String(), tc.role, tc.without)
		}
	}
	rec := recording(t, stories)
	rec.Role = "push"
	if _, err := Recorded(rec); err == nil || !strings.Contains(err.Error(), `"push"`) {
		t.Errorf(`Recorded with role "push": %v; want an error naming it`, err)
	}
	// Without a role, the coverage says nothing of reach.
	rep, err := Run([]Target{mustRecorded(t, stories)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Coverage["kinds"].String(); strings.Contains(s, "within reach") {
		t.Errorf("no role: coverage %q; want no reach", s)
	}
}

// TestExpectedBreakdown: "NAME breakdown" in an expect file makes a
// target's breakdown a known finding that fails no run; one that does not
// happen is stale.
func TestExpectedBreakdown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "expect.txt")
	if err := os.WriteFile(path, []byte("kinds breakdown\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	failures, _, err := ReadExpectations(path)
	if err != nil || len(failures) != 1 || failures[0] != "kinds breakdown" {
		t.Fatalf("ReadExpectations = %q, %v; want [kinds breakdown]", failures, err)
	}
	if err := os.WriteFile(path, []byte("breakdown\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadExpectations(path); err == nil {
		t.Error(`ReadExpectations("breakdown" alone): no error; want one (a breakdown names its target)`)
	}
	stories := recordedKinds(t, fieldValueOctets())
	for _, tc := range []struct {
		expect              []string
		failed, expectedSet bool
		stale               int
	}{
		{nil, true, false, 0},
		{[]string{"kinds breakdown"}, false, true, 0},
	} {
		rec := recording(t, stories)
		rec.Breakdown = errors.New("target stopped at request 3 of 9")
		rep, err := Run([]Target{mustTarget(t, rec)}, Options{ExpectFail: tc.expect})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() != tc.failed || rep.Targets["kinds"].BreakdownExpected != tc.expectedSet || len(rep.StaleExpectations) != tc.stale {
			t.Errorf("expect %q: failed %v, expected %v, stale %q; want %v, %v, %d", tc.expect, rep.Failed(), rep.Targets["kinds"].BreakdownExpected, rep.StaleExpectations, tc.failed, tc.expectedSet, tc.stale)
		}
	}
	// Expected but not broken down: stale.
	rep, err := Run([]Target{mustRecorded(t, stories)}, Options{ExpectFail: []string{"kinds breakdown"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.StaleExpectations) != 1 {
		t.Errorf("no breakdown: stale %q; want the expectation", rep.StaleExpectations)
	}
}

// TestJoinedValueIsNoHuffmanFault records a block whose Huffman-coded
// value is another, longer one than the list says was given (a target that
// joined a repeated field's values): the decoded list is wrong (enc/3.2/x),
// but no Huffman code is (enc/5.2/4), since no wrong code of the last
// octets decodes as that many more; a few more octets still are one.
func TestJoinedValueIsNoHuffmanFault(t *testing.T) {
	for _, tc := range []struct {
		given, written string
		huffman        Grade
	}{
		{"abc", "abc, and a second value joined to it", Pass},
		{"abc", "abc0", Fail},
	} {
		stories := recordedKinds(t, tc.written)
		gen := stories[2]
		for i := range gen.Cases {
			gen.Cases[i].Headers[1].Value = tc.given
		}
		res := runKinds(t, stories, []string{"generated-b"}, false)
		if r := res["enc/5.2/4"]; r.Grade != tc.huffman {
			t.Errorf("%q written for %q: enc/5.2/4 %v (%s); want %v", tc.written, tc.given, r.Grade, r.Detail, tc.huffman)
		}
		if tc.huffman == Pass {
			if r := res["enc/3.2/2"]; r.Grade != Fail || !strings.Contains(r.Detail, "generated-b, block 0") {
				t.Errorf("%q written for %q: enc/3.2/2 %v (%s); want a failure at generated-b, block 0", tc.written, tc.given, r.Grade, r.Detail)
			}
		}
	}
}
