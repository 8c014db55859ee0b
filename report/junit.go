package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
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
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitMessage   `xml:"failure,omitempty"`
	Skipped    *junitMessage   `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

// junitProperty is a <property> of a testsuite (the reproductions' folder
// and replay command, the MUST cases a recording does not exercise) or of
// a testcase (what the case judged, its root causes, its consequences,
// its declaration).
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
// encoder). A failure is a <failure> carrying the reproduction, what the
// case judged and, for a root cause, its consequences; so is a MUST case
// not graded for an encoder the certifier drives (message "not graded:
// ..."), since it fails the run. Unsupported cases, declared ones
// ("declared: REASON") and expected failures are <skipped>; the detail of
// every other grade goes to <system-out>. A target that broke down has
// one more testcase after its cases, "breakdown", a <failure> with the
// breakdown; a target that had no case judged, "nothing judged", a
// <failure> with the first case's reason (<skipped> when declared).
//
// Every testcase has the properties evidence.blocks,
// evidence.representations, evidence.insertions, evidence.evictions,
// evidence.size_updates, evidence.huffman_strings,
// evidence.sensitive_fields, evidence.instances, evidence.of and
// evidence.not_judged (certify.Evidence), and, when set, at (where the
// first violation is), caused_by, declared, not_graded and one
// consequence per consequence of a root cause. When the run wrote
// reproductions, every testsuite has the properties hpackcert.repro.dir,
// hpackcert.repro.files and hpackcert.repro.replay, and the first
// failure's text ends with the replay command. The testsuite of an
// encoder with MUST cases not graded has hpackcert.not_graded ("N MUST
// cases not graded for E: ids (why)"); a recording's has
// hpackcert.not_exercised, the MUST cases its stories do not exercise.
//
// XML 1.0 has no escape for most control characters, and encoding/xml
// writes U+FFFD for them and for invalid UTF-8; so what the encoder
// controls is escaped as visible says first: names and messages on one
// line, the text of an element line by line.
func WriteJUnit(w io.Writer, report *certify.Report) error {
	r := newRep(report)
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
		if u := r.Ungraded(enc); len(u) > 0 {
			s.Properties = append(slices.Clip(s.Properties), junitProperty{"hpackcert.not_graded", fmt.Sprintf("%s for %s: %s (%s)",
				counted(len(u), "MUST case not graded", "MUST cases not graded"), name, caseIDs(u), visible.Line(cut(u[0].Why)))})
		}
		if u := r.NotExercised(enc); len(u) > 0 {
			s.Properties = append(slices.Clip(s.Properties), junitProperty{"hpackcert.not_exercised", caseIDs(u)})
		}
		if l := r.Targets[enc].Lacks; l != "" {
			s.Properties = append(slices.Clip(s.Properties), junitProperty{"hpackcert.lacks", visible.Line(l)})
		}
		var total time.Duration
		for _, c := range r.Cases {
			res := r.Results[enc][c.ID]
			total += res.Duration
			tc := junitCase{Name: c.ID + " " + c.Title, Classname: "hpackcert." + name, Time: seconds(res.Duration), Properties: junitResultProperties(r, enc, c, res)}
			detail := visible.Line(res.Detail)
			text := res.Detail + "\nevidence: " + res.Evidence.String()
			if len(res.Consequences) > 0 {
				text += "\n" + consequencesHead(c, res)
				for _, cq := range res.Consequences {
					text += "\n  " + cq.String()
				}
			}
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
			case r.ungraded[enc][c.ID]:
				tc.Failure = &junitMessage{Message: "not graded: " + detail, Type: "not graded", Text: text}
				s.Failures++
			case res.Declared != "":
				tc.Skipped = &junitMessage{Message: "declared: " + visible.Line(res.Declared), Text: text}
				s.Skipped++
			case res.Grade == certify.Unsupported && len(res.CausedBy) > 0:
				tc.Skipped = &junitMessage{Message: visible.Line(causedByLine(res)), Text: text}
				s.Skipped++
			case res.Grade == certify.Unsupported && res.NotApplicable:
				tc.Skipped = &junitMessage{Message: detail}
				s.Skipped++
			case res.Grade == certify.Unsupported:
				tc.Skipped = &junitMessage{Message: "unsupported: " + detail}
				s.Skipped++
			default:
				tc.SystemOut = res.Grade.String() + ": " + text
			}
			s.Cases = append(s.Cases, tc)
		}
		if info := r.Targets[enc]; info.Breakdown != "" {
			s.addWhole(name, "breakdown", &junitMessage{Message: breakdownWord(info.BreakdownExpected) + ": " + visible.Line(info.Breakdown), Type: "breakdown", Text: visible.Text(r.breakdownText(info))}, info.BreakdownExpected)
		}
		if r.NothingJudged(enc) {
			s.addWhole(name, "nothing judged", &junitMessage{Message: "nothing judged: " + visible.Line(r.nothingJudgedWhy(enc)), Type: "nothing judged"}, r.Targets[enc].NothingJudgedExpected)
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

// addWhole adds the testcase of a finding about the target as a whole
// (its breakdown, nothing judged): a <failure>, or, when the finding was
// expected and so fails no run, <skipped> with the same text.
func (s *junitSuite) addWhole(target, name string, msg *junitMessage, expected bool) {
	tc := junitCase{Name: name, Classname: "hpackcert." + target, Time: seconds(0)}
	if expected {
		tc.Skipped = msg
		s.Skipped++
	} else {
		tc.Failure = msg
		s.Failures++
	}
	s.Cases = append(s.Cases, tc)
}

// junitResultProperties are a testcase's properties: what the case
// judged, where it first failed, what it was caused by or declared, and
// the consequences of a root cause.
func junitResultProperties(r rep, enc string, c certify.Case, res *certify.Result) []junitProperty {
	ev := res.Evidence
	props := []junitProperty{
		{"evidence.blocks", fmt.Sprint(ev.Blocks)},
		{"evidence.representations", fmt.Sprint(ev.Representations)},
		{"evidence.insertions", fmt.Sprint(ev.Insertions)},
		{"evidence.evictions", fmt.Sprint(ev.Evictions)},
		{"evidence.size_updates", fmt.Sprint(ev.SizeUpdates)},
		{"evidence.huffman_strings", fmt.Sprint(ev.HuffmanStrings)},
		{"evidence.sensitive_fields", fmt.Sprint(ev.SensitiveFields)},
		{"evidence.instances", fmt.Sprint(ev.Instances)},
		{"evidence.of", visible.Line(ev.Of)},
		{"evidence.not_judged", fmt.Sprint(ev.NotJudged)},
	}
	if res.At != "" {
		props = append(props, junitProperty{"at", visible.Line(res.At)})
	}
	if len(res.CausedBy) > 0 {
		props = append(props, junitProperty{"caused_by", visible.Line(strings.Join(res.CausedBy, ", "))})
	}
	if res.Declared != "" {
		props = append(props, junitProperty{"declared", visible.Line(res.Declared)})
	}
	if r.ungraded[enc][c.ID] {
		props = append(props, junitProperty{"not_graded", "true"})
	}
	for _, cq := range res.Consequences {
		props = append(props, junitProperty{"consequence", visible.Line(cq.String())})
	}
	return props
}

// breakdownText is a breakdown in full: what broke, its reproduction and
// the program's stderr.
func (r rep) breakdownText(info certify.TargetInfo) string {
	text := info.Breakdown
	if info.BreakdownRepro != "" {
		text += "\n" + info.BreakdownRepro
	}
	if info.BreakdownStderr != "" {
		text += "\n" + r.stderrHeading() + "\n" + info.BreakdownStderr
	}
	return text
}

// stderrHeading heads the stderr of a breakdown: "encoder stderr:", or
// "decoder stderr:" in a report of decoders.
func (r rep) stderrHeading() string {
	return strings.TrimSuffix(subjectNoun(r.Report), "s") + " stderr:"
}
