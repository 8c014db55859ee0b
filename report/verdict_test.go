package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
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
	var doc struct {
		Failed   bool `json:"failed"`
		Encoders map[string]struct {
			Breakdown    string                       `json:"breakdown"`
			Ungraded     []struct{ Case, Why string } `json:"ungraded"`
			NotExercised []struct{ Case, Why string } `json:"not_exercised"`
			Cases        map[string]struct {
				Evidence     map[string]any   `json:"evidence"`
				At           string           `json:"at"`
				Consequences []map[string]any `json:"consequences"`
				CausedBy     []string         `json:"caused_by"`
				Declared     string           `json:"declared"`
				NotGraded    bool             `json:"not_graded"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	out := write(t, "json", rep)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
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
	root := enc.Cases["enc/4.2/1"]
	wantEvidence := map[string]any{"blocks": 7.0, "representations": 30.0, "insertions": 4.0, "evictions": 1.0, "size_updates": 2.0,
		"huffman_strings": 9.0, "sensitive_fields": 1.0, "instances": 3.0, "of": "size updates"}
	if len(root.Evidence) != len(wantEvidence) {
		t.Errorf("evidence %v; want %v", root.Evidence, wantEvidence)
	}
	for k, v := range wantEvidence {
		if root.Evidence[k] != v {
			t.Errorf("evidence %s = %v; want %v", k, root.Evidence[k], v)
		}
	}
	if got := enc.Cases["enc/2.3.2/2"].Evidence["not_judged"]; got != 2.0 {
		t.Errorf("evidence not_judged %v; want 2", got)
	}
	if root.At != "story s, block 0" || len(root.Consequences) != 2 {
		t.Fatalf("at %q, consequences %v; want the root's", root.At, root.Consequences)
	}
	for i, want := range []map[string]any{
		{"case": "", "blocks": 3.0, "stories": 1.0, "first": "story s, block 1", "detail": ""},
		{"case": "enc/7.1.3/1", "blocks": 1.0, "stories": 1.0, "first": "story s, block 0", "detail": "enc"},
	} {
		got := root.Consequences[i]
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

// TestDeclaredNeverPass checks that a declared case reads "declared" in
// every matrix, never "pass" nor "unsupported", even when the engine
// graded it pass.
func TestDeclaredNeverPass(t *testing.T) {
	rep := hostileReport("enc")
	rep.Results["ref"]["enc/6.3/1"] = &certify.Result{Grade: certify.Unsupported, Detail: "no size update", Declared: "the library sends none"}
	marks := map[string]*regexp.Regexp{
		"text": regexp.MustCompile(`\nenc/6\.3/1 +declared +declared +pass +a size update`),
		"md":   regexp.MustCompile("\n\\| `enc/6\\.3/1` \\| [^|]+ \\| declared \\| declared \\| pass \\|\n"),
		"html": regexp.MustCompile(`<td class="g declared" title="judged no block; declared: the library sends none"><a href="#e0-enc-6_3-1">declared</a></td><td class="g declared" [^>]+><a href="#e1-enc-6_3-1">declared</a></td>`),
	}
	for format, re := range marks {
		if out := write(t, format, rep); !re.MatchString(out) {
			t.Errorf("%s report does not match %s:\n%s", format, re, out)
		}
	}
	doc := readJUnit(t, write(t, "junit", rep))
	for _, c := range doc.Suites[0].Cases {
		if strings.HasPrefix(c.Name, "enc/6.3/1 ") && (c.Skipped == nil || c.Skipped.Message != "declared: the library sends none") {
			t.Errorf("ref enc/6.3/1: skipped %+v; want declared: the library sends none", c.Skipped)
		}
	}
}

// recordingReport is a report of one recording, all of whose cases pass
// but the MUST case enc/4.2/1 and the SHOULD case enc/5.2/2, which its
// stories do not exercise.
func recordingReport() *certify.Report {
	rep := hostileReport("rec")
	rep.Encoders = []string{"rec"}
	rep.Results = map[string]map[string]*certify.Result{"rec": {}}
	for _, c := range hostileCases {
		rep.Results["rec"][c.ID] = &certify.Result{Grade: certify.Pass, Detail: "ok", Evidence: hostileEvidence}
	}
	rep.Results["rec"]["enc/4.2/1"] = &certify.Result{Grade: certify.Unsupported, Detail: "not exercised: no block followed a single SETTINGS_HEADER_TABLE_SIZE"}
	rep.Results["rec"]["enc/5.2/2"] = &certify.Result{Grade: certify.Unsupported, Detail: "not exercised: no Huffman string"}
	rep.Targets = map[string]certify.TargetInfo{"rec": {Kind: "recorded", Reported: "rec"}}
	rep.StaleExpectations = nil
	return rep
}

// TestRecordingNotExercised checks that the MUST cases a recording does
// not exercise are stated in the verdict line of every format and do not
// fail the run.
func TestRecordingNotExercised(t *testing.T) {
	rep := recordingReport()
	if rep.Failed() {
		t.Fatal("the recording's run fails")
	}
	const clause = "; the recording does not exercise 1 MUST case: enc/4.2/1"
	text := write(t, "text", rep)
	if want := "verdict: PASS: no failure; 2 unsupported" + clause + "\n"; !strings.HasPrefix(text, want) {
		t.Errorf("text report starts %q; want %q", strings.SplitN(text, "\n", 2)[0], want)
	}
	mustContain(t, "Markdown", write(t, "md", rep), "## hpackcert: PASS\n\nno failure; 2 unsupported; the recording does not exercise 1 MUST case: enc/4.2/1.\n")
	mustContain(t, "HTML", write(t, "html", rep), `<span class="pass">PASS</span>`, "no failure; 2 unsupported"+clause)
	var doc struct {
		Failed   bool `json:"failed"`
		Encoders map[string]struct {
			Ungraded     []struct{ Case string }      `json:"ungraded"`
			NotExercised []struct{ Case, Why string } `json:"not_exercised"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal([]byte(write(t, "json", rep)), &doc); err != nil {
		t.Fatal(err)
	}
	if e := doc.Encoders["rec"]; doc.Failed || len(e.Ungraded) != 0 || len(e.NotExercised) != 1 || e.NotExercised[0].Case != "enc/4.2/1" ||
		!strings.HasPrefix(e.NotExercised[0].Why, "not exercised: no block followed") {
		t.Errorf("JSON failed %v, encoder %+v; want false, enc/4.2/1 not exercised, nothing ungraded", doc.Failed, e)
	}
	junit := readJUnit(t, write(t, "junit", rep))
	s := junit.Suites[0]
	if s.Failures != 0 {
		t.Errorf("JUnit: %d failures; want none", s.Failures)
	}
	found := false
	for _, p := range s.Properties {
		if p.Name == "hpackcert.not_exercised" && p.Value == "enc/4.2/1" {
			found = true
		}
	}
	if !found {
		t.Errorf("JUnit suite properties %+v; want hpackcert.not_exercised = enc/4.2/1", s.Properties)
	}
	// Several recordings: each is named.
	rep.Encoders = append(rep.Encoders, "rec2")
	rep.Results["rec2"] = rep.Results["rec"]
	rep.Targets["rec2"] = rep.Targets["rec"]
	if text := write(t, "text", rep); !strings.Contains(strings.SplitN(text, "\n", 2)[0], "; the recording rec does not exercise 1 MUST case: enc/4.2/1; the recording rec2 does not exercise 1 MUST case: enc/4.2/1") {
		t.Errorf("verdict line %q; want each recording named", strings.SplitN(text, "\n", 2)[0])
	}
}

// TestUngradedFailsEveryFormat checks a run whose only fault is MUST cases
// not graded: FAIL in every format, the count and the ids in the verdict,
// the reason cut, and the plural.
func TestUngradedFailsEveryFormat(t *testing.T) {
	rep := recordingReport()
	info := rep.Targets["rec"]
	info.Kind = "stdio"
	rep.Targets["rec"] = info
	long := "not exercised: " + strings.Repeat("the encoder cannot express it ", 10)
	rep.Results["rec"]["enc/2.3.2/2"] = &certify.Result{Grade: certify.Unsupported, Detail: long + "\nsecond line"}
	if !rep.Failed() {
		t.Fatal("the run does not fail")
	}
	want := "2 MUST cases not graded for rec: enc/2.3.2/2, enc/4.2/1 (" + string([]rune(long)[:100]) + " ...); 1 unsupported"
	text := write(t, "text", rep)
	if got := strings.SplitN(text, "\n", 2)[0]; got != "verdict: FAIL: "+want {
		t.Errorf("verdict line %q; want %q", got, "verdict: FAIL: "+want)
	}
	if strings.Contains(strings.SplitN(text, "\n", 2)[0], "second line") {
		t.Error("the verdict line quotes the reason's second line")
	}
	mustContain(t, "text", text, "\nnot graded (MUST cases, each fails the run):\n  rec enc/2.3.2/2 not graded: ", "\n  rec enc/4.2/1 not graded: ")
	mustContain(t, "HTML", write(t, "html", rep), "<title>hpackcert: FAIL</title>", want)
	mustContain(t, "Markdown", write(t, "md", rep), "## hpackcert: FAIL\n\n2 MUST cases not graded for rec: enc/2.3.2/2, enc/4.2/1 (")
	s := readJUnit(t, write(t, "junit", rep)).Suites[0]
	if s.Failures != 2 {
		t.Errorf("JUnit: %d failures; want 2", s.Failures)
	}
	if len(s.Properties) != 1 || s.Properties[0].Name != "hpackcert.not_graded" || !strings.HasPrefix(want, s.Properties[0].Value) {
		t.Errorf("JUnit suite properties %+v; want hpackcert.not_graded = %q", s.Properties, want)
	}
	for _, c := range s.Cases {
		id, _, _ := strings.Cut(c.Name, " ")
		if (id == "enc/2.3.2/2" || id == "enc/4.2/1") && (c.Failure == nil || !strings.HasPrefix(c.Failure.Message, "not graded: not exercised: ")) {
			t.Errorf("JUnit %s: failure %+v; want not graded", id, c.Failure)
		}
		if id == "enc/5.2/2" && (c.Failure != nil || c.Skipped == nil) {
			t.Errorf("JUnit enc/5.2/2, a SHOULD case: want it skipped, not failed")
		}
	}
}

// TestBreakdownAloneFails checks that a breakdown fails the run in every
// format when every case passed: FAIL, the breakdown counted and stated.
func TestBreakdownAloneFails(t *testing.T) {
	rep := recordingReport()
	for _, res := range rep.Results["rec"] {
		res.Grade = certify.Pass
	}
	rep.Targets["rec"] = certify.TargetInfo{Kind: "stdio", Reported: "rec", Breakdown: "encoder broke hpack-stdio at request 3: the answer is not JSON: \"{wire: \\\"8286\\\"}\""}
	text := write(t, "text", rep)
	lines := strings.Split(text, "\n")
	if lines[0] != "verdict: FAIL: 1 breakdown (rec)" || !strings.HasPrefix(lines[1], "rec: breakdown: encoder broke hpack-stdio at request 3: ") {
		t.Errorf("text report starts %q; want the verdict FAIL and the breakdown", lines[:2])
	}
	mustContain(t, "HTML", write(t, "html", rep), "<title>hpackcert: FAIL</title>", "1 breakdown (rec)", `colspan="10">rec: breakdown: `)
	mustContain(t, "Markdown", write(t, "md", rep), "## hpackcert: FAIL\n\n1 breakdown (rec).", "\n- **rec**: breakdown: encoder broke")
	if s := readJUnit(t, write(t, "junit", rep)).Suites[0]; s.Failures != 1 || s.Cases[len(s.Cases)-1].Name != "breakdown" {
		t.Errorf("JUnit: %d failures; want the breakdown", s.Failures)
	}
	rep.Encoders = append(rep.Encoders, "rec2")
	rep.Results["rec2"] = rep.Results["rec"]
	rep.Targets["rec2"] = rep.Targets["rec"]
	if got := strings.SplitN(write(t, "text", rep), "\n", 2)[0]; got != "verdict: FAIL: 2 breakdowns (rec, rec2)" {
		t.Errorf("verdict line %q; want 2 breakdowns (rec, rec2)", got)
	}
}

// TestLiveUngraded checks, on the catalogue's own cases, that a live
// target is held to the MUST cases its traffic can carry: with every MUST
// case unsupported, the report names exactly the cases Report.Ungraded
// returns, some but not all of them, and fails.
func TestLiveUngraded(t *testing.T) {
	cases := certify.Cases()
	rep := &certify.Report{
		Encoders: []string{"srv"},
		Cases:    cases,
		Results:  map[string]map[string]*certify.Result{"srv": {}},
		Targets:  map[string]certify.TargetInfo{"srv": {Kind: "live", Reported: "srv", Live: &certify.LiveInfo{Role: "server", Where: "http://127.0.0.1:1/", Transport: "h2c"}}},
	}
	must := 0
	for _, c := range cases {
		res := &certify.Result{Grade: certify.Pass, Detail: "ok"}
		if c.Violation == certify.Fail {
			res = &certify.Result{Grade: certify.Unsupported, Detail: "not exercised: no block"}
			must++
		}
		rep.Results["srv"][c.ID] = res
	}
	ungraded := rep.Ungraded("srv")
	if len(ungraded) == 0 || len(ungraded) == must {
		t.Fatalf("%d of %d MUST cases ungraded for a live target; want some, those its traffic carries", len(ungraded), must)
	}
	var ids []string
	for _, u := range ungraded {
		ids = append(ids, u.Case)
	}
	text := write(t, "text", rep)
	verdict, _, _ := strings.Cut(text[strings.Index(text, "verdict: "):], "\n")
	if want := fmt.Sprintf("verdict: FAIL: %d MUST cases not graded for srv: %s (not exercised: no block)", len(ids), strings.Join(ids, ", ")); !strings.HasPrefix(verdict, want) {
		t.Errorf("verdict %q; want it to start %q", verdict, want)
	}
	for _, c := range cases {
		if c.Violation != certify.Fail {
			continue
		}
		row := regexp.MustCompile(`\n` + regexp.QuoteMeta(c.ID) + ` +(\S+( \S+)?)  `).FindStringSubmatch(text)
		want := "unsupported"
		for _, id := range ids {
			if id == c.ID {
				want = "not graded"
			}
		}
		if row == nil || row[1] != want {
			t.Errorf("matrix row of %s: %q; want %s", c.ID, row, want)
		}
	}
}

// TestLacksShown checks that what an encoder declares it cannot express
// is named in the text, JSON, JUnit and Markdown reports.
func TestLacksShown(t *testing.T) {
	rep := &certify.Report{
		Encoders: []string{"e"}, Cases: certify.Cases()[:1],
		Results: map[string]map[string]*certify.Result{"e": {certify.Cases()[0].ID: {Grade: certify.Info}}},
		Targets: map[string]certify.TargetInfo{"e": {Kind: "stdio", Lacks: "never-index, pseudo-first"}},
	}
	for _, f := range []struct{ format, want string }{
		{"text", "declares it cannot express: never-index, pseudo-first"},
		{"json", `"lacks": "never-index, pseudo-first"`},
		{"junit", `name="hpackcert.lacks" value="never-index, pseudo-first"`},
		{"md", `declares it cannot express: never\-index\, pseudo\-first`},
	} {
		var buf bytes.Buffer
		if err := report.Write(&buf, f.format, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), f.want) {
			t.Errorf("%s report lacks %q:\n%s", f.format, f.want, buf.String())
		}
	}
}
