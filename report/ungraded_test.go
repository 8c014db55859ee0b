package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

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
	doc, err := report.ReadJSON(strings.NewReader(write(t, "json", rep)))
	if err != nil {
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
