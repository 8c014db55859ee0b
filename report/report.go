// Package report renders the results of a certification run
// (certify.Report) in every format: text for a terminal (text.go), JSON
// for dashboards (json.go), JUnit XML for CI systems (junit.go), an HTML
// matrix (html.go) and Markdown for CI step summaries (markdown.go). Every
// source's results, live captures included, are written here and nowhere
// else. Every format lists failures first, and every string a source
// controls (an encoder's name and output, a recorded file, a live peer's
// headers, status and debug data, a started program's stderr) is escaped
// by the writer of its format (escape.go, on top of internal/visible),
// never by the caller.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
)

// rep is a report as the writers read it: the engine's results and the
// ordering and wording the formats share.
type rep struct{ *certify.Report }

// names returns the encoders' names escaped for a format.
func (r rep) names(escape func(string) string) []string {
	out := make([]string, len(r.Encoders))
	for i, enc := range r.Encoders {
		out[i] = escape(enc)
	}
	return out
}

func (r rep) summary(encoder string) string {
	n := r.Counts(encoder)
	expected := 0
	for _, res := range r.Results[encoder] {
		if res.Expected {
			expected++
		}
	}
	s := fmt.Sprintf("%d pass, %d non-strict, %d fail, %d info, %d unsupported", n[certify.Pass], n[certify.NonStrict], n[certify.Fail], n[certify.Info], n[certify.Unsupported])
	if expected > 0 {
		s += " (" + counted(expected, "failure expected", "failures expected") + ")"
	}
	return s
}

// cell is how a grade reads in a matrix.
func cell(res *certify.Result) string {
	if res.Expected {
		return "fail (expected)"
	}
	return res.Grade.String()
}

// The ranks order the results in every report, most urgent first: what
// fails the run, what was known to fail, what breaks a SHOULD, what could
// not be judged, what was measured, what passed.
const (
	rankFail = iota
	rankExpected
	rankNonStrict
	rankUnsupported
	rankInfo
	rankPass
	ranks
)

func rank(res *certify.Result) int {
	switch {
	case res.Grade == certify.Fail && res.Expected:
		return rankExpected
	case res.Grade == certify.Fail:
		return rankFail
	case res.Grade == certify.NonStrict:
		return rankNonStrict
	case res.Grade == certify.Unsupported:
		return rankUnsupported
	case res.Grade == certify.Info:
		return rankInfo
	}
	return rankPass
}

// entry is the result of a case for an encoder, the encoder given by its
// position in Report.Encoders.
type entry struct {
	enc int
	c   certify.Case
	res *certify.Result
}

// ranked returns the results by rank, each rank in encoder order, then in
// case order: the failures of one encoder read together.
func (r rep) ranked() [ranks][]entry {
	var out [ranks][]entry
	for i, enc := range r.Encoders {
		for _, c := range r.Cases {
			if res := r.Results[enc][c.ID]; res != nil {
				out[rank(res)] = append(out[rank(res)], entry{i, c, res})
			}
		}
	}
	return out
}

// firstLabel is how a report introduces the first failure: an expected
// one is not a failure of the run, and says so.
func firstLabel(e entry) string {
	if e.res.Expected {
		return "first expected failure"
	}
	return "first failure"
}

// firstFailure returns the first failure of the ranked results, an
// unexpected one when there is one.
func firstFailure(ranked *[ranks][]entry) (entry, bool) {
	for _, k := range []int{rankFail, rankExpected} {
		if len(ranked[k]) > 0 {
			return ranked[k][0], true
		}
	}
	return entry{}, false
}

// verdict sums the run up: PASS or FAIL, as the exit status says, and how
// many results call for a look.
func (r rep) verdict(ranked *[ranks][]entry) (word, text string) {
	word, text = "PASS", "no failure"
	if n := len(ranked[rankFail]); n > 0 {
		failing := map[int]bool{}
		for _, e := range ranked[rankFail] {
			failing[e.enc] = true
		}
		word, text = "FAIL", fmt.Sprintf("%s in %d of %d encoders", counted(n, "failure", "failures"), len(failing), len(r.Encoders))
	}
	var also []string
	for _, k := range []struct {
		rank      int
		one, many string
	}{
		{rankExpected, "expected failure", "expected failures"},
		{rankNonStrict, "non-strict", "non-strict"},
		{rankUnsupported, "unsupported", "unsupported"},
	} {
		if n := len(ranked[k.rank]); n > 0 {
			also = append(also, counted(n, k.one, k.many))
		}
	}
	if len(also) > 0 {
		text += "; " + strings.Join(also, ", ")
	}
	return word, text
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// rule is the RFC text a case checks, citing RFC 7541 once: the texts
// start with the section they quote (not always the case's own), or name
// an appendix.
func rule(c certify.Case) string {
	if strings.HasPrefix(c.RFC, "§") || strings.HasPrefix(c.RFC, "Appendix ") {
		return "RFC 7541 " + c.RFC
	}
	return "RFC 7541 §" + c.Section + ": " + c.RFC
}

// runLine says which build and catalogue graded the run, and when; empty
// for a report that was not made by Run.
func (r rep) runLine() string {
	if r.Version == "" {
		return ""
	}
	s := fmt.Sprintf("hpackcert %s; catalogue %s", r.Version, r.Catalogue)
	if !r.Started.IsZero() {
		s += fmt.Sprintf("; started %s, took %s", r.Started.Format(time.RFC3339), r.Elapsed.Round(time.Millisecond))
	}
	return s
}

// writers maps a format's name, as the command line spells it, to its
// writer.
var writers = map[string]func(io.Writer, *certify.Report) error{
	"text":  WriteText,
	"json":  WriteJSON,
	"junit": WriteJUnit,
	"html":  WriteHTML,
	"md":    WriteMarkdown,
}

// Write writes r to w in the named format: "text", "json", "junit",
// "html" or "md".
func Write(w io.Writer, format string, r *certify.Report) error {
	write, ok := writers[format]
	if !ok {
		return fmt.Errorf("report: unknown format %q (want text, json, junit, html or md)", format)
	}
	return write(w, r)
}
