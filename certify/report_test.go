package certify_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/internal/broken"
)

// sampleReport runs the reference and two broken encoders on a few cases,
// for every grade but unsupported to show up.
// It runs once per test binary; the tests only read it.
func sampleReport(t *testing.T) *certify.Report {
	t.Helper()
	sample.once.Do(func() {
		ref, err := certify.Builtin("ref")
		if err != nil {
			sample.err = err
			return
		}
		opts := quick()
		opts.Cases = []string{"enc/5.2/", "enc/1.1/1"}
		sample.rep, sample.err = certify.Run([]certify.Target{ref, brokenTarget(broken.HuffmanZeroPadding), brokenTarget(broken.AlwaysHuffman)}, opts)
	})
	if sample.err != nil {
		t.Fatal(sample.err)
	}
	return sample.rep
}

var sample struct {
	once sync.Once
	rep  *certify.Report
	err  error
}

func TestWriteJUnit(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteJUnit(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name      string    `xml:"name,attr"`
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit report does not parse: %v\n%s", err, buf.Bytes())
	}
	if len(doc.Suites) != len(rep.Encoders) {
		t.Fatalf("%d testsuites; want %d", len(doc.Suites), len(rep.Encoders))
	}
	for i, s := range doc.Suites {
		if s.Name != rep.Encoders[i] {
			t.Errorf("testsuite %d named %q; want %q", i, s.Name, rep.Encoders[i])
		}
		if len(s.Cases) != len(rep.Cases) {
			t.Errorf("testsuite %s: %d testcases; want %d", s.Name, len(s.Cases), len(rep.Cases))
		}
		failures := 0
		for _, c := range s.Cases {
			if c.Name == "" || c.Classname == "" {
				t.Errorf("testsuite %s: testcase name %q classname %q; want both", s.Name, c.Name, c.Classname)
			}
			if c.Failure != nil {
				failures++
			}
		}
		if want := rep.Counts(s.Name)[certify.Fail]; failures != want || s.Failures != want {
			t.Errorf("testsuite %s: %d <failure> elements, failures=%d; want %d", s.Name, failures, s.Failures, want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Traffic  string `json:"traffic"`
		Encoders map[string]struct {
			Summary  map[string]int `json:"summary"`
			Coverage *struct {
				HuffmanOctets struct{ Covered, Total int } `json:"huffman_octets"`
			} `json:"coverage"`
			Cases map[string]struct {
				Grade    string   `json:"grade"`
				Detail   string   `json:"detail"`
				Duration *float64 `json:"duration"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JSON report does not parse: %v", err)
	}
	if doc.Traffic != rep.TrafficSource || doc.Traffic == "" {
		t.Errorf("JSON traffic %q; want %q", doc.Traffic, rep.TrafficSource)
	}
	for _, enc := range rep.Encoders {
		if got, want := doc.Encoders[enc].Summary["pass"], rep.Counts(enc)[certify.Pass]; got != want {
			t.Errorf("JSON %s summary pass = %d; want %d", enc, got, want)
		}
		cov := doc.Encoders[enc].Coverage
		if cov == nil || cov.HuffmanOctets.Total != 256 || cov.HuffmanOctets.Covered != rep.Coverage[enc].HuffmanOctets.Covered {
			t.Errorf("JSON %s coverage %+v; want the report's, %s", enc, cov, rep.Coverage[enc])
		}
		for _, c := range rep.Cases {
			got, ok := doc.Encoders[enc].Cases[c.ID]
			want := rep.Results[enc][c.ID]
			if !ok || got.Grade != want.Grade.String() || got.Detail != want.Detail || got.Duration == nil {
				t.Errorf("JSON %s %s = %+v; want grade %s, detail %q and a duration", enc, c.ID, got, want.Grade, want.Detail)
			}
		}
	}
}

func TestWriteHTML(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	links := regexp.MustCompile(`<a href="#([^"]+)">`).FindAllStringSubmatch(html, -1)
	if want := len(rep.Cases) * len(rep.Encoders); len(links) != want {
		t.Fatalf("%d cell links; want %d (cases x encoders)", len(links), want)
	}
	for _, l := range links {
		if !strings.Contains(html, `id="`+l[1]+`"`) {
			t.Errorf("link #%s has no target", l[1])
		}
	}
	if !strings.Contains(html, "not a prefix of EOS") {
		t.Error("the HTML report lacks the detail of the failure")
	}
}

func TestWriteMarkdown(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, c := range rep.Cases {
		if !strings.Contains(md, "| `"+c.ID+"` |") {
			t.Errorf("no row for %s", c.ID)
		}
	}
	if !strings.Contains(md, "**fail**") || !strings.Contains(md, "<details>") {
		t.Errorf("the Markdown report does not show the failure:\n%s", md)
	}
}

func TestWriteText(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, c := range rep.Cases {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.ID) + ` `).MatchString(text) {
			t.Errorf("no line for %s", c.ID)
		}
	}
	for _, want := range []string{
		"ref: 4 pass, 0 non-strict, 0 fail, 1 info, 0 unsupported",
		"  coverage: static entries ",
		"first failure: broken huffman-zero-padding enc/5.2/1",
		"wire (",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
}

func TestGradeText(t *testing.T) {
	for _, g := range []certify.Grade{certify.Pass, certify.Info, certify.Unsupported, certify.NonStrict, certify.Fail} {
		text, err := g.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back certify.Grade
		if err := back.UnmarshalText(text); err != nil || back != g {
			t.Errorf("grade %s: round trip through %q gave %s, %v", g, text, back, err)
		}
	}
	var g certify.Grade
	if err := g.UnmarshalText([]byte("excellent")); err == nil {
		t.Error(`UnmarshalText("excellent"): no error`)
	}
}
