// Package report renders the results of a certification run
// (certify.Report) in every format: text for a terminal (text.go), JSON
// for dashboards (json.go, which also reads a report back: ReadJSON),
// JUnit XML for CI systems (junit.go), an HTML matrix (html.go) and
// Markdown for CI step summaries (markdown.go, live.go for the live
// section); the published matrix pages put a run's Markdown report in
// their page (page.go, the layout; matrixpages.go, each page's words). Every
// source's results, live captures included, are written here and nowhere
// else. Every format lists failures first, and every string a source
// controls (an encoder's name and output, a recorded file, a live peer's
// headers, status and debug data, a started program's stderr) is escaped
// by the writer of its format (escape.go, on top of internal/visible),
// never by the caller. report.go holds what the formats share: Write,
// which picks a format by name, the order of results, the verdict, the
// summaries and the wording of a matrix cell, a breakdown and a root
// cause.
//
// Every format shows the whole verdict the engine reaches: PASS or FAIL as
// Report.Failed says; a target's breakdown, its one failure as a whole;
// the MUST cases not graded for an encoder the certifier drives, which
// fail the run ("N MUST cases not graded for E: ids (why)"), and those a
// recording does not exercise, which do not; for each case, what it
// judged (certify.Evidence); under a root cause, the consequences that
// followed from it ("consequences, caused by ID at WHERE:"); on a case
// left with nothing to judge by a root cause, "not graded: caused by
// IDS"; and a case the user declared as "declared", never as pass. In a
// matrix a result reads as its grade, or "fail (expected)", "declared",
// "consequence" or "not graded". A case's time is written once, in the
// format's timing field, never in its finding.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
)

// rep is a report as the writers read it: the engine's results and the
// ordering and wording the formats share. ungraded holds, per encoder,
// the ids of Report.Ungraded: the MUST cases that fail the run by not
// being graded.
type rep struct {
	*certify.Report
	ungraded map[string]map[string]bool
}

func newRep(report *certify.Report) rep {
	r := rep{report, map[string]map[string]bool{}}
	for _, enc := range r.Encoders {
		for _, u := range r.Ungraded(enc) {
			if r.ungraded[enc] == nil {
				r.ungraded[enc] = map[string]bool{}
			}
			r.ungraded[enc][u.Case] = true
		}
	}
	return r
}

// names returns the encoders' names escaped for a format.
func (r rep) names(escape func(string) string) []string {
	out := make([]string, len(r.Encoders))
	for i, enc := range r.Encoders {
		out[i] = escape(enc)
	}
	return out
}

// counts returns how many cases got each grade for an encoder, the
// cases that do not apply to it (n/a) counted apart from the unsupported
// ones: not applicable is no lack.
func (r rep) counts(encoder string) (n map[certify.Grade]int, inapplicable int) {
	n = r.Counts(encoder)
	for _, res := range r.Results[encoder] {
		if inapplicableResult(res) {
			inapplicable++
		}
	}
	n[certify.Unsupported] -= inapplicable
	return n, inapplicable
}

// inapplicableResult reports whether a result is n/a: a case that does not
// apply to the kind of target, neither declared nor left by a root cause.
func inapplicableResult(res *certify.Result) bool {
	return res.Grade == certify.Unsupported && res.NotApplicable && res.Declared == "" && len(res.CausedBy) == 0
}

// summary counts an encoder's grades, the cases that do not apply apart
// ("n/a"), then, in parentheses, what the grades alone do not say: the
// failures expected, the MUST cases not graded, the cases declared and
// those left to a root cause.
func (r rep) summary(encoder string) string {
	n, inapplicable := r.counts(encoder)
	var expected, declared, caused int
	for _, res := range r.Results[encoder] {
		switch {
		case res.Expected:
			expected++
		case res.Declared != "":
			declared++
		case res.Grade == certify.Unsupported && len(res.CausedBy) > 0:
			caused++
		}
	}
	s := fmt.Sprintf("%d pass, %d non-strict, %d fail, %d info, %d unsupported", n[certify.Pass], n[certify.NonStrict], n[certify.Fail], n[certify.Info], n[certify.Unsupported])
	if inapplicable > 0 {
		s += fmt.Sprintf(", %d n/a", inapplicable)
	}
	var also []string
	for _, k := range []struct {
		n         int
		one, many string
	}{
		{expected, "failure expected", "failures expected"},
		{len(r.ungraded[encoder]), "MUST case not graded", "MUST cases not graded"},
		{declared, "declared", "declared"},
		{caused, "consequence of a failure", "consequences of failures"},
	} {
		if k.n > 0 {
			also = append(also, counted(k.n, k.one, k.many))
		}
	}
	if len(also) > 0 {
		s += " (" + strings.Join(also, ", ") + ")"
	}
	return s
}

// cell is how a result reads in a matrix: its grade, but for an expected
// failure; a case the user declared ("declared", never pass); a case left
// with nothing to judge by another's failure ("consequence"); and a MUST
// case not graded for an encoder the certifier drives ("not graded"),
// which fails the run.
func (r rep) cell(encoder, id string, res *certify.Result) string {
	switch {
	case res.Expected:
		return "fail (expected)"
	case res.Declared != "":
		return "declared"
	case res.Grade == certify.Unsupported && len(res.CausedBy) > 0:
		return "consequence"
	case res.Grade == certify.Unsupported && res.NotApplicable:
		return "n/a"
	case r.ungraded[encoder][id]:
		return "not graded"
	}
	return res.Grade.String()
}

// The ranks order the results in every report, most urgent first: what
// fails the run (a failure, then a MUST case not graded), what was known
// to fail, what breaks a SHOULD, what could not be judged, what was
// measured, what passed.
const (
	rankFail = iota
	rankUngraded
	rankExpected
	rankNonStrict
	rankUnsupported
	rankInfo
	rankPass
	ranks
)

func (r rep) rank(encoder, id string, res *certify.Result) int {
	switch {
	case res.Grade == certify.Fail && res.Expected:
		return rankExpected
	case res.Grade == certify.Fail:
		return rankFail
	case r.ungraded[encoder][id]:
		return rankUngraded
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
				k := r.rank(enc, c.ID, res)
				out[k] = append(out[k], entry{i, c, res})
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

// verdict sums the run up: PASS or FAIL, as the exit status says
// (Report.Failed); what fails it (the failures, the breakdowns, the MUST
// cases not graded for each encoder, with the first one's reason); how
// many results call for a look; and the MUST cases each recording does
// not exercise. names are the encoders' names and esc the function that
// escapes free text, both for the format: the reason a case was not
// graded may quote the encoder.
func (r rep) verdict(ranked *[ranks][]entry, names []string, esc func(string) string) (word, text string) {
	word = "PASS"
	if r.Failed() {
		word = "FAIL"
	}
	var fails []string
	if n := len(ranked[rankFail]); n > 0 {
		failing := map[int]bool{}
		for _, e := range ranked[rankFail] {
			failing[e.enc] = true
		}
		fails = append(fails, fmt.Sprintf("%s in %d of %d %s", counted(n, "failure", "failures"), len(failing), len(r.Encoders), subjectNoun(r.Report)))
	}
	var broke []string
	expectedBreakdowns := 0
	for i, enc := range r.Encoders {
		switch info := r.Targets[enc]; {
		case info.Breakdown != "" && info.BreakdownExpected:
			expectedBreakdowns++
		case info.Breakdown != "":
			broke = append(broke, names[i])
		}
	}
	if len(broke) > 0 {
		fails = append(fails, fmt.Sprintf("%s (%s)", counted(len(broke), "breakdown", "breakdowns"), strings.Join(broke, ", ")))
	}
	for i, enc := range r.Encoders {
		if u := r.Ungraded(enc); len(u) > 0 {
			fails = append(fails, fmt.Sprintf("%s for %s: %s (%s)", counted(len(u), "MUST case not graded", "MUST cases not graded"), names[i], caseIDs(u), esc(cut(u[0].Why))))
		}
	}
	expectedNothing := 0
	for i, enc := range r.Encoders {
		switch {
		case !r.NothingJudged(enc):
		case r.Targets[enc].NothingJudgedExpected:
			expectedNothing++
		default:
			fails = append(fails, fmt.Sprintf("nothing judged for %s (%s)", names[i], esc(cut(r.nothingJudgedWhy(enc)))))
		}
	}
	text = "no failure"
	if len(fails) > 0 {
		text = strings.Join(fails, "; ")
	}
	var declared, caused, inapplicable int
	for _, e := range ranked[rankUnsupported] {
		switch {
		case e.res.Declared != "":
			declared++
		case len(e.res.CausedBy) > 0:
			caused++
		case e.res.NotApplicable:
			inapplicable++
		}
	}
	var also []string
	for _, k := range []struct {
		n         int
		one, many string
	}{
		{len(ranked[rankExpected]), "expected failure", "expected failures"},
		{expectedBreakdowns, "expected breakdown", "expected breakdowns"},
		{expectedNothing, "target expected to judge nothing", "targets expected to judge nothing"},
		{len(ranked[rankNonStrict]), "non-strict", "non-strict"},
		{len(ranked[rankUnsupported]) - declared - caused - inapplicable, "unsupported", "unsupported"},
		{declared, "declared", "declared"},
		{caused, "consequence of a failure", "consequences of failures"},
		{inapplicable, "not applicable", "not applicable"},
	} {
		if k.n > 0 {
			also = append(also, counted(k.n, k.one, k.many))
		}
	}
	if len(also) > 0 {
		text += "; " + strings.Join(also, ", ")
	}
	for i, enc := range r.Encoders {
		u := r.NotExercised(enc)
		if len(u) == 0 || r.NothingJudged(enc) {
			continue
		}
		recording := "the recording"
		if len(r.Encoders) > 1 {
			recording += " " + names[i]
		}
		text += fmt.Sprintf("; %s does not exercise %s: %s", recording, counted(len(u), "MUST case", "MUST cases"), caseIDs(u))
	}
	return word, text
}

// nothingJudgedWhy says why a target had no case judged: the first
// case's reason, which for a recording without "wire" or a target that
// lacks everything is every case's.
func (r rep) nothingJudgedWhy(encoder string) string {
	for _, c := range r.Cases {
		if res := r.Results[encoder][c.ID]; res != nil && res.Detail != "" {
			return c.ID + ": " + res.Detail
		}
	}
	return "no case ran"
}

// caseIDs lists the ids of cases, comma-separated.
func caseIDs(u []certify.Ungraded) string {
	ids := make([]string, len(u))
	for i, c := range u {
		ids[i] = c.Case
	}
	return strings.Join(ids, ", ")
}

// cutAt is how many runes of a reason a verdict line keeps.
const cutAt = 100

// cut returns the first line of s, cut to cutAt runes: a verdict line
// quotes the reason a case was not graded, the details have the rest.
func cut(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if utf8.RuneCountInString(s) <= cutAt {
		return s
	}
	return string([]rune(s)[:cutAt]) + " ..."
}

// breakdownLine is how every format states a target's breakdown, the
// name and the breakdown escaped for it.
func breakdownLine(name, breakdown string, expected bool) string {
	return name + ": " + breakdownWord(expected) + ": " + breakdown
}

// breakdownWord names a breakdown, and an expected one as such.
func breakdownWord(expected bool) string {
	if expected {
		return "breakdown (expected)"
	}
	return "breakdown"
}

// causedByLine says which root causes left a case with nothing to judge.
func causedByLine(res *certify.Result) string {
	return "not graded: caused by " + strings.Join(res.CausedBy, ", ")
}

// consequencesHead introduces the consequences of a root cause.
func consequencesHead(c certify.Case, res *certify.Result) string {
	if res.At == "" {
		return "consequences, caused by " + c.ID + ":"
	}
	return "consequences, caused by " + c.ID + " at " + res.At + ":"
}

// evidenceCell is what a case judged as the evidence table shows it: the
// instances of its rule, "3384 blocks", "0 insertions"; "-" for a result
// that counts nothing (a hand-made one).
func evidenceCell(ev certify.Evidence) string {
	if ev.Of == "" {
		return "-"
	}
	return counted(ev.Instances, singular(ev.Of), ev.Of)
}

// singular returns the noun phrase of one instance, from the plural that
// certify.Evidence.Of holds: its first word ending in "s" loses the "s"
// ("blocks with size updates", "evictions by insertion", "table
// comparisons").
func singular(of string) string {
	words := strings.Fields(of)
	for i, w := range words {
		if len(w) > 1 && strings.HasSuffix(w, "s") {
			words[i] = strings.TrimSuffix(w, "s")
			return strings.Join(words, " ")
		}
	}
	return of
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
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

// subjectNoun is what the report's targets are: "encoders", or
// "decoders" for a report of the dec/ cases.
func subjectNoun(r *certify.Report) string {
	if r.Subject != "" {
		return r.Subject
	}
	return "encoders"
}

// lacksVerb says what a target's declared lacks are: what an encoder
// "cannot express", what a decoder "lacks" (never-indexed, a header-list
// limit).
func lacksVerb(r *certify.Report) string {
	if r.Subject == "decoders" {
		return "it lacks"
	}
	return "it cannot express"
}
