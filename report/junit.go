package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/visible"
)

// The JUnit XML schema as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// junitProperty is a testsuite's <property>: the reproductions' folder
// and replay command.
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes JUnit XML: a testsuite per encoder, a testcase per
// case with name (the case id) and classname ("hpackcert." and the
// encoder). A failure is a <failure> carrying the reproduction;
// unsupported cases and expected failures are <skipped>; the detail of
// every other grade goes to <system-out>. When the run wrote
// reproductions, every testsuite has the properties hpackcert.repro.dir,
// hpackcert.repro.files and hpackcert.repro.replay, and the first
// failure's text ends with the replay command.
//
// XML 1.0 has no escape for most control characters, and encoding/xml
// writes U+FFFD for them and for invalid UTF-8; so what the encoder
// controls is escaped as visible says first: names and messages on one
// line, the text of an element line by line.
func WriteJUnit(w io.Writer, report *certify.Report) error {
	r := rep{report}
	all := junitSuites{Name: "hpackcert"}
	var props []junitProperty
	if rp := r.Repro; rp != nil {
		props = []junitProperty{{"hpackcert.repro.dir", visible.Line(rp.Dir)}, {"hpackcert.repro.files", fmt.Sprint(rp.Files)}}
		if rp.Replay != "" {
			props = append(props, junitProperty{"hpackcert.repro.replay", visible.Line(rp.Replay)})
		}
	}
	replayed := false
	for _, enc := range r.Encoders {
		name := visible.Line(enc)
		s := junitSuite{Name: name, Properties: props}
		var total time.Duration
		for _, c := range r.Cases {
			res := r.Results[enc][c.ID]
			total += res.Duration
			tc := junitCase{Name: c.ID + " " + c.Title, Classname: "hpackcert." + name, Time: seconds(res.Duration)}
			detail := visible.Line(res.Detail)
			text := res.Detail
			if res.Repro != "" {
				text += "\n" + res.Repro
			}
			if res.Stderr != "" {
				text += "\nencoder stderr:\n" + res.Stderr
			}
			text = visible.Text(text)
			switch {
			case res.Grade == certify.Fail && res.Expected:
				tc.Skipped = &junitMessage{Message: "expected failure: " + detail, Text: text}
				s.Skipped++
			case res.Grade == certify.Fail:
				if rp := r.Repro; rp != nil && rp.Replay != "" && !replayed {
					// The replay command replays the run's first failure.
					text += "\nreplay: " + visible.Line(rp.Replay)
					replayed = true
				}
				tc.Failure = &junitMessage{Message: detail, Type: "fail", Text: text}
				s.Failures++
			case res.Grade == certify.Unsupported:
				tc.Skipped = &junitMessage{Message: "unsupported: " + detail}
				s.Skipped++
			default:
				tc.SystemOut = res.Grade.String() + ": " + text
			}
			s.Cases = append(s.Cases, tc)
		}
		s.Tests = len(s.Cases)
		s.Time = seconds(total)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Skipped += s.Skipped
		all.Suites = append(all.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
