package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// write returns r in the named format.
func write(t *testing.T, format string, r *certify.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := report.Write(&buf, format, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// mustContain fails the test for every mark out lacks.
func mustContain(t *testing.T, format, out string, marks ...string) {
	t.Helper()
	for _, m := range marks {
		if !strings.Contains(out, m) {
			t.Errorf("%s report lacks %q", format, m)
		}
	}
	if t.Failed() {
		t.Logf("%s report:\n%s", format, out)
	}
}

// TestVerdictText checks what the text report says of the verdict's new
// parts, on hostileReport with a plain name: the verdict line counts the
// breakdown and names the MUST case not graded with its reason; the
// breakdown has a line right after it; the full entries say what the case
// judged and list a root cause's consequences; the declared case and the
// one left to a root cause say so in the details; the evidence table
// counts the instances of each case's rule.
func TestVerdictText(t *testing.T) {
	out := write(t, "text", hostileReport("enc"))
	lines := strings.Split(out, "\n")
	if want := "verdict: FAIL: 1 failure in 1 of 3 encoders; 1 breakdown (enc); 1 MUST case not graded for enc: enc/2.3.2/2 (not exercised: enc); " +
		"1 expected failure, 1 non-strict, 1 unsupported, 1 declared, 1 consequence of a failure"; lines[0] != want {
		t.Errorf("verdict line %q; want %q", lines[0], want)
	}
	if want := "enc: breakdown: encoder broke hpack-stdio at request 7: enc"; lines[1] != want {
		t.Errorf("line after the verdict %q; want %q", lines[1], want)
	}
	mustContain(t, "text", out,
		"\nenc: 0 pass, 1 non-strict, 2 fail, 0 info, 4 unsupported (1 failure expected, 1 MUST case not graded, 1 declared, 1 consequence of a failure)\n",
		"\n    evidence: judged 3 size updates in 7 blocks (30 representations, 4 insertions, 1 eviction, 2 size updates, 9 Huffman strings, 1 sensitive field)\n"+
			"    consequences, caused by enc/4.2/1 at story s, block 0:\n"+
			"      3 blocks of 1 story after the divergence judged by no case (first: story s, block 1)\n"+
			"      enc/7.1.3/1 also found fault with 1 block of 1 story (first: story s, block 0: enc)\n"+
			"    story s, block 0: enc\n",
		"\nnot graded (MUST cases, each fails the run):\n  enc enc/2.3.2/2 not graded: the dynamic table holds what the decoder's holds\n    RFC 7541 §2.3.2: ",
		"\n    evidence: judged no block; 2 blocks not judged\n",
		"\n  enc enc/6.3/1 declared: no API for enc\n    enc\n",
		"\n  enc enc/7.1.3/1 consequence: not graded: caused by enc/4.2/1\n    not graded: enc\n",
		"\nenc/2.3.2/2  3 size updates  0 table comparisons  3 size updates\n",
		"\nenc/7.3/1    3 size updates  -                    3 size updates\n",
	)
	if strings.Contains(out, "enc/6.3/1    pass  declared") == false {
		t.Errorf("the declared case's row does not read declared:\n%s", out)
	}
}

// TestVerdictJSON checks the JSON report's new members: "breakdown",
// "ungraded" and "failed" per encoder, and per case "evidence" (named as
// certify.Evidence's tags), "at", "consequences" (every member present),
// "caused_by", "declared" and "not_graded".
func TestVerdictJSON(t *testing.T) {
	rep := hostileReport("enc")
	out := write(t, "json", rep)
	doc, err := report.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	// The spelling of evidence and consequences is what this test checks,
	// so it reads them as the JSON has them, not through the types that
	// write them.
	var spelled struct {
		Encoders map[string]struct {
			Cases map[string]struct {
				Evidence     map[string]any   `json:"evidence"`
				Consequences []map[string]any `json:"consequences"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal([]byte(out), &spelled); err != nil {
		t.Fatal(err)
	}
	enc := doc.Encoders["enc"]
	if !doc.Failed || enc.Breakdown != "encoder broke hpack-stdio at request 7: enc" || len(enc.NotExercised) != 0 {
		t.Errorf("failed %v, breakdown %q, not_exercised %+v; want true, the breakdown, none", doc.Failed, enc.Breakdown, enc.NotExercised)
	}
	if len(enc.Ungraded) != 1 || enc.Ungraded[0].Case != "enc/2.3.2/2" || enc.Ungraded[0].Why != "not exercised: enc" {
		t.Errorf("ungraded %+v; want enc/2.3.2/2 with its reason", enc.Ungraded)
	}
	for _, member := range []string{`"ungraded": [`, `"case": "enc/2.3.2/2"`, `"why": "not exercised: enc"`} {
		if !strings.Contains(out, member) {
			t.Errorf("JSON report lacks %s", member)
		}
	}
	root, rootSpelled := enc.Cases["enc/4.2/1"], spelled.Encoders["enc"].Cases["enc/4.2/1"]
	wantEvidence := map[string]any{"blocks": 7.0, "representations": 30.0, "insertions": 4.0, "evictions": 1.0, "size_updates": 2.0,
		"huffman_strings": 9.0, "sensitive_fields": 1.0, "instances": 3.0, "of": "size updates"}
	if len(rootSpelled.Evidence) != len(wantEvidence) {
		t.Errorf("evidence %v; want %v", rootSpelled.Evidence, wantEvidence)
	}
	for k, v := range wantEvidence {
		if rootSpelled.Evidence[k] != v {
			t.Errorf("evidence %s = %v; want %v", k, rootSpelled.Evidence[k], v)
		}
	}
	if got := spelled.Encoders["enc"].Cases["enc/2.3.2/2"].Evidence["not_judged"]; got != 2.0 {
		t.Errorf("evidence not_judged %v; want 2", got)
	}
	if root.At != "story s, block 0" || len(root.Consequences) != 2 || len(rootSpelled.Consequences) != 2 {
		t.Fatalf("at %q, consequences %v; want the root's", root.At, root.Consequences)
	}
	for i, want := range []map[string]any{
		{"case": "", "blocks": 3.0, "stories": 1.0, "first": "story s, block 1", "detail": ""},
		{"case": "enc/7.1.3/1", "blocks": 1.0, "stories": 1.0, "first": "story s, block 0", "detail": "enc"},
	} {
		got := rootSpelled.Consequences[i]
		if len(got) != len(want) {
			t.Errorf("consequence %d = %v; want %v", i, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("consequence %d %s = %v; want %v", i, k, got[k], v)
			}
		}
	}
	if c := enc.Cases["enc/7.1.3/1"]; len(c.CausedBy) != 1 || c.CausedBy[0] != "enc/4.2/1" {
		t.Errorf("caused_by %q; want enc/4.2/1", c.CausedBy)
	}
	if c := enc.Cases["enc/6.3/1"]; c.Declared != "no API for enc" || c.NotGraded {
		t.Errorf("declared %q, not_graded %v; want the reason, false", c.Declared, c.NotGraded)
	}
	if !enc.Cases["enc/2.3.2/2"].NotGraded || enc.Cases["enc/7.1.3/1"].NotGraded {
		t.Error("not_graded is not set on the MUST case not graded alone")
	}
}

// junitDoc is the JUnit report as the tests read it.
type junitDoc struct {
	Suites []struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name       string `xml:"name,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, out string) junitDoc {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JUnit report does not parse: %v\n%s", err, out)
	}
	return doc
}

// TestVerdictJUnit checks the JUnit report's new parts: every testcase's
// evidence properties, the root cause's consequences in its failure text
// and as properties, the MUST case not graded a failure, the declared case
// and the consequence skipped with their reasons, and the breakdown a
// failing testcase of its own.
func TestVerdictJUnit(t *testing.T) {
	doc := readJUnit(t, write(t, "junit", hostileReport("enc")))
	s := doc.Suites[1]
	props := map[string]map[string][]string{}
	for _, c := range s.Cases {
		id, _, _ := strings.Cut(c.Name, " ")
		props[id] = map[string][]string{}
		for _, p := range c.Properties {
			props[id][p.Name] = append(props[id][p.Name], p.Value)
		}
	}
	for k, v := range map[string]string{
		"evidence.blocks": "7", "evidence.representations": "30", "evidence.insertions": "4", "evidence.evictions": "1",
		"evidence.size_updates": "2", "evidence.huffman_strings": "9", "evidence.sensitive_fields": "1",
		"evidence.instances": "3", "evidence.of": "size updates", "evidence.not_judged": "0", "at": "story s, block 0",
	} {
		if got := props["enc/4.2/1"][k]; len(got) != 1 || got[0] != v {
			t.Errorf("enc/4.2/1 property %s = %q; want %q", k, got, v)
		}
	}
	if got := props["enc/4.2/1"]["consequence"]; len(got) != 2 || !strings.HasPrefix(got[1], "enc/7.1.3/1 also found fault with 1 block of 1 story") {
		t.Errorf("enc/4.2/1 consequence properties %q; want the two consequences", got)
	}
	if got := props["enc/7.1.3/1"]["caused_by"]; len(got) != 1 || got[0] != "enc/4.2/1" {
		t.Errorf("enc/7.1.3/1 caused_by %q; want enc/4.2/1", got)
	}
	if got := props["enc/6.3/1"]["declared"]; len(got) != 1 || got[0] != "no API for enc" {
		t.Errorf("enc/6.3/1 declared %q; want the reason", got)
	}
	if got := props["ref"]; got != nil {
		t.Errorf("a testcase named ref: %v", got)
	}
	byID := map[string]int{}
	for i, c := range s.Cases {
		id, _, _ := strings.Cut(c.Name, " ")
		byID[id] = i
	}
	root := s.Cases[byID["enc/4.2/1"]]
	if root.Failure == nil || !strings.Contains(root.Failure.Text, "\nevidence: judged 3 size updates in 7 blocks") ||
		!strings.Contains(root.Failure.Text, "\nconsequences, caused by enc/4.2/1 at story s, block 0:\n  3 blocks of 1 story after the divergence") {
		t.Errorf("the root's failure %+v; want its evidence and consequences in the text", root.Failure)
	}
	if f := s.Cases[byID["enc/2.3.2/2"]].Failure; f == nil || f.Message != "not graded: not exercised: enc" || f.Type != "not graded" {
		t.Errorf("the MUST case not graded: failure %+v; want a failure, not graded", f)
	}
	if sk := s.Cases[byID["enc/6.3/1"]].Skipped; sk == nil || sk.Message != "declared: no API for enc" {
		t.Errorf("the declared case: skipped %+v; want declared: no API for enc", sk)
	}
	if sk := s.Cases[byID["enc/7.1.3/1"]].Skipped; sk == nil || sk.Message != "not graded: caused by enc/4.2/1" {
		t.Errorf("the consequence: skipped %+v; want not graded: caused by enc/4.2/1", sk)
	}
	b := s.Cases[byID["breakdown"]]
	if b.Failure == nil || b.Failure.Message != "breakdown: encoder broke hpack-stdio at request 7: enc" || b.Failure.Type != "breakdown" {
		t.Errorf("breakdown testcase failure %+v; want the breakdown", b.Failure)
	}
	if s.Failures != 3 || s.Tests != len(hostileCases)+1 {
		t.Errorf("hostile suite: %d tests, %d failures; want %d and 3", s.Tests, s.Failures, len(hostileCases)+1)
	}
	for _, other := range []int{0, 2} {
		for _, c := range doc.Suites[other].Cases {
			if c.Name == "breakdown" {
				t.Errorf("suite %s has a breakdown testcase", doc.Suites[other].Name)
			}
		}
	}
}

// TestVerdictHTML checks the page's new parts: each cell's title says
// what the case judged (and why it is declared, a consequence or not
// graded), the summary has the breakdown in a row, the verdict names the
// MUST case not graded, and the sections say what the case judged, its
// declaration, its root causes and its consequences.
func TestVerdictHTML(t *testing.T) {
	out := write(t, "html", hostileReport("enc"))
	mustContain(t, "HTML", out,
		"1 breakdown (enc); 1 MUST case not graded for enc: enc/2.3.2/2 (not exercised: enc); 1 expected failure, 1 non-strict, 1 unsupported, 1 declared, 1 consequence of a failure; first failure: ",
		`<tr><td class="fail" colspan="10">enc: breakdown: encoder broke hpack-stdio at request 7: enc</td></tr>`,
		`<td class="n fail">1 (+1 expected), 1 not graded</td>`,
		`<td class="g pass" title="judged 3 size updates in 7 blocks (30 representations, 4 insertions, 1 eviction, 2 size updates, 9 Huffman strings, 1 sensitive field)"><a href="#e0-enc-2_3_2-2">pass</a></td>`,
		`<td class="g ungraded" title="judged no block; 2 blocks not judged; not graded, which fails the run: not exercised: enc"><a href="#e1-enc-2_3_2-2">not graded</a></td>`,
		`<td class="g declared" title="judged no block; declared: no API for enc"><a href="#e1-enc-6_3-1">declared</a></td>`,
		`<td class="g consequence" title="judged no block; 3 blocks not judged; not graded: caused by enc/4.2/1"><a href="#e1-enc-7_1_3-1">consequence</a></td>`,
		`<td class="g fail" title="judged 3 size updates in 7 blocks (30 representations, 4 insertions, 1 eviction, 2 size updates, 9 Huffman strings, 1 sensitive field); 2 consequences; see the section"><a href="#e1-enc-4_2-1">fail</a></td>`,
		"<h2>Not graded</h2>",
		`<section id="e1-enc-2_3_2-2" class="ungraded">`,
		`<p class="declared">declared: no API for enc</p>`,
		"<p>not graded: caused by enc/4.2/1</p>",
		"<p>consequences, caused by enc/4.2/1 at story s, block 0:</p><ul><li>3 blocks of 1 story after the divergence judged by no case (first: story s, block 1)</li><li>enc/7.1.3/1 also found fault with 1 block of 1 story (first: story s, block 0: enc)</li></ul>",
		`<p class="evidence">evidence: judged 3 size updates in 7 blocks`,
	)
}

// TestVerdictMarkdown checks the Markdown report's new parts: the
// breakdown a line of the summary, the verdict naming the MUST case not
// graded, the cells, and the details' evidence, declaration, root causes
// and consequences.
func TestVerdictMarkdown(t *testing.T) {
	out := write(t, "md", hostileReport("enc"))
	mustContain(t, "Markdown", out,
		"\n1 failure in 1 of 3 encoders; 1 breakdown (enc); 1 MUST case not graded for enc: enc/2.3.2/2 (not exercised\\: enc); 1 expected failure",
		"\n- **enc**: breakdown: encoder broke hpack\\-stdio at request 7\\: enc\n",
		"| `enc/2.3.2/2` | the dynamic table holds what the decoder\\'s holds | pass | **not graded** | pass |",
		"| `enc/6.3/1` | a size update is at most the setting | pass | declared | pass |",
		"| `enc/7.1.3/1` | sensitive fields are never indexed | pass | consequence | pass |",
		"\n### Evidence\n\nWhat each case judged: the instances of its rule.\n\n| case | ref | enc | x\\/net |\n|---|---|---|---|\n| `enc/2.3.2/2` | 3 size updates | 0 table comparisons | 3 size updates |\n",
		"\n| `enc/7.3/1` | 3 size updates | \\- | 3 size updates |\n",
		"\n### Not graded (MUST cases, each fails the run)\n\n<details open><summary>enc <code>enc/2.3.2/2</code> not graded: not exercised: enc</summary>\n",
		"\nEvidence: judged 3 size updates in 7 blocks \\(30 representations\\, ",
		"\nDeclared: no API for enc\n",
		"\nnot graded\\: caused by enc\\/4\\.2\\/1\n",
		"\nconsequences\\, caused by enc\\/4\\.2\\/1 at story s\\, block 0\\:\n\n- 3 blocks of 1 story after the divergence judged by no case \\(first\\: story s\\, block 1\\)\n- enc\\/7\\.1\\.3\\/1 also found fault",
	)
}
