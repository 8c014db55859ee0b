package report_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestWriteJUnitHostile parses the JUnit report with encoding/xml in
// strict mode, checks every attribute and text it holds is graphic UTF-8
// (line feeds and tabs aside) with no U+FFFD standing for what the encoder
// wrote, and counts suites, testcases, failures and skips.
func TestWriteJUnitHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteJUnit(&buf, rep); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		d.Strict = true
		check := func(what, s string) {
			if bad, ok := badRune(s, "\n\t"); ok {
				t.Errorf("%s holds %s: %q", what, bad, s)
			}
			if strings.ContainsRune(s, utf8.RuneError) {
				t.Errorf("%s holds U+FFFD, which the encoder did not write: %q", what, s)
			}
		}
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("JUnit report does not parse: %v\n%s", err, buf.Bytes())
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				for _, a := range tok.Attr {
					check(tok.Name.Local+" "+a.Name.Local, a.Value)
				}
			case xml.CharData:
				check("text", string(tok))
			}
		}
		var doc struct {
			Suites []struct {
				Name     string `xml:"name,attr"`
				Failures int    `xml:"failures,attr"`
				Skipped  int    `xml:"skipped,attr"`
				Cases    []struct {
					Name    string    `xml:"name,attr"`
					Failure *struct{} `xml:"failure"`
					Skipped *struct{} `xml:"skipped"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Suites) != len(rep.Encoders) {
			t.Fatalf("%d testsuites; want %d", len(doc.Suites), len(rep.Encoders))
		}
		for i, s := range doc.Suites {
			failures, skipped := 0, 0
			for j, c := range s.Cases {
				if j < len(rep.Cases) && c.Name != rep.Cases[j].ID+" "+rep.Cases[j].Title {
					t.Errorf("testsuite %d testcase %d named %q; want case %s", i, j, c.Name, rep.Cases[j].ID)
				}
				if c.Failure != nil {
					failures++
				}
				if c.Skipped != nil {
					skipped++
				}
			}
			wantCases, wantFailures, wantSkipped := len(rep.Cases), 0, 0
			if i == 1 {
				// The failure, the MUST case not graded and the
				// breakdown, a testcase of its own after the cases; the
				// expected failure, the unsupported case, the declared
				// one and the consequence.
				wantCases, wantFailures, wantSkipped = len(rep.Cases)+1, 3, 4
				if last := s.Cases[len(s.Cases)-1]; last.Name != "breakdown" || last.Failure == nil {
					t.Errorf("testsuite %d ends with testcase %q (failure %v); want a failing breakdown", i, last.Name, last.Failure != nil)
				}
			}
			if len(s.Cases) != wantCases || failures != wantFailures || s.Failures != wantFailures || skipped != wantSkipped || s.Skipped != wantSkipped {
				t.Errorf("testsuite %d: %d testcases, %d <failure> (failures=%d), %d <skipped> (skipped=%d); want %d, %d, %d",
					i, len(s.Cases), failures, s.Failures, skipped, s.Skipped, wantCases, wantFailures, wantSkipped)
			}
		}
		if doc.Suites[0].Name != "ref" || doc.Suites[2].Name != "x/net" {
			t.Errorf("testsuites named %q, %q; want ref and x/net around the hostile one", doc.Suites[0].Name, doc.Suites[2].Name)
		}
	})
}
