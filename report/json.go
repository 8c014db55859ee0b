package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/hpackcert/hpackcert/certify"
)

// JSONResult is one case's result as the JSON report spells it (see
// WriteJSON for what each member means).
type JSONResult struct {
	Grade        certify.Grade     `json:"grade"`
	Detail       string            `json:"detail"`
	Duration     float64           `json:"duration"` // seconds
	Repro        string            `json:"repro,omitempty"`
	At           string            `json:"at,omitempty"`
	Expected     bool              `json:"expected_failure,omitempty"`
	Stderr       string            `json:"stderr,omitempty"`
	Evidence     certify.Evidence  `json:"evidence"`
	Consequences []JSONConsequence `json:"consequences,omitempty"`
	CausedBy     []string          `json:"caused_by,omitempty"`
	Declared     string            `json:"declared,omitempty"`
	NotGraded    bool              `json:"not_graded,omitempty"`
	// NotApplicable marks a case that does not apply to the kind of
	// target (certify.Result.NotApplicable), shown "n/a".
	NotApplicable bool `json:"not_applicable,omitempty"`
}

// JSONConsequence is certify.Consequence as the JSON report spells it:
// every member present, the case "" for the blocks no case judged.
type JSONConsequence struct {
	Case    string `json:"case"`
	Blocks  int    `json:"blocks"`
	Stories int    `json:"stories"`
	First   string `json:"first"`
	Detail  string `json:"detail"`
}

// JSONUngraded is certify.Ungraded as the JSON report spells it.
type JSONUngraded struct {
	Case string `json:"case"`
	Why  string `json:"why"`
}

func jsonUngradedList(list []certify.Ungraded) []JSONUngraded {
	var out []JSONUngraded
	for _, u := range list {
		out = append(out, JSONUngraded{u.Case, jsonText(u.Why)})
	}
	return out
}

// JSONTarget is one target's results as the JSON report spells them, under
// its name in JSONReport.Encoders (a decoder's too: the member keeps its
// name so that dashboards read both sides alike).
type JSONTarget struct {
	Kind            string                `json:"kind"`
	Reported        string                `json:"reported"`
	Binary          bool                  `json:"binary"`
	Lacks           string                `json:"lacks,omitempty"`
	Elapsed         float64               `json:"elapsed_seconds"`
	Breakdown       string                `json:"breakdown,omitempty"`
	BreakdownRepro  string                `json:"breakdown_repro,omitempty"`
	BreakdownStderr string                `json:"breakdown_stderr,omitempty"`
	Ungraded        []JSONUngraded        `json:"ungraded,omitempty"`
	NotExercised    []JSONUngraded        `json:"not_exercised,omitempty"`
	NothingJudged   string                `json:"nothing_judged,omitempty"`
	NothingExpected bool                  `json:"nothing_judged_expected,omitempty"`
	Summary         map[string]int        `json:"summary"`
	Coverage        *certify.Coverage     `json:"coverage,omitempty"`
	Cases           map[string]JSONResult `json:"cases"`
	Live            *JSONLive             `json:"live,omitempty"`
}

// JSONLive is certify.LiveInfo as the JSON report spells it.
type JSONLive struct {
	Version   string   `json:"version,omitempty"`
	Role      string   `json:"role"`
	Encoder   string   `json:"hpack_encoder,omitempty"`
	Where     string   `json:"where"`
	Transport string   `json:"transport"`
	Transform string   `json:"declared_transformation,omitempty"`
	Blocks    int      `json:"blocks"`
	Conns     int      `json:"connections"`
	Notes     []string `json:"notes,omitempty"`
	Elapsed   float64  `json:"elapsed_seconds"`
}

// JSONReport is the JSON report's one object, the shape WriteJSON writes
// and ReadJSON reads: the programs that read reports (ci/grades, the
// matrix pages, the tests) use it rather than declaring their own.
type JSONReport struct {
	Version           string                `json:"version"`
	Catalogue         string                `json:"catalogue"`
	Started           string                `json:"started,omitempty"`
	Elapsed           float64               `json:"elapsed_seconds"`
	Failed            bool                  `json:"failed"`
	Traffic           string                `json:"traffic"`
	Strict            bool                  `json:"strict"`
	Subject           string                `json:"subject,omitempty"`
	Encoders          map[string]JSONTarget `json:"encoders"`
	StaleExpectations []string              `json:"stale_expectations,omitempty"`
	Repro             *JSONRepro            `json:"repro,omitempty"`
}

// JSONRepro is certify.Repro as the JSON report spells it.
type JSONRepro struct {
	Dir    string `json:"dir"`
	Files  int    `json:"files"`
	Replay string `json:"replay,omitempty"`
}

// WriteJSON writes the report as one object, for dashboards that compare
// runs: "version" (the hpackcert build) and "catalogue" (the case
// catalogue's count and digest) tell whether two reports graded with the
// same cases; "started" (RFC 3339) and "elapsed_seconds" date the run;
// "failed" is the verdict (exit status 1); "traffic" says where the
// traffic stories came from; "strict"; and "encoders" maps each encoder's
// name to its "kind" ("in-process", "stdio", "recorded" or "live"),
// "reported" (the name it gave itself), "binary" (whether it offered
// hpack-stdio's binary form), "lacks" (what it declared its library
// cannot express), "elapsed_seconds", "breakdown" (the
// target's one failure as a whole, when it broke down), "ungraded" (the
// MUST cases not graded for an encoder the certifier drives, each
// {case, why}: they fail the run), "not_exercised" (for a recording, the
// MUST cases its stories do not exercise, {case, why}: they do not fail
// it), "nothing_judged" (when no case was judged for the target, the
// first case's reason: it fails the run unless "nothing_judged_expected"
// says it was declared), "summary" (cases per grade, every grade present, and "n/a": the cases
// that do not apply, counted apart from "unsupported"), "coverage" (see
// certify.Coverage) and "cases", each case id mapped to {grade, detail,
// duration in seconds, repro, at (where the first violation is),
// expected_failure, stderr, evidence, consequences, caused_by, declared,
// not_graded, not_applicable}. "evidence" counts what the case judged, as certify.Evidence
// names it: "blocks", "representations", "insertions", "evictions",
// "size_updates", "huffman_strings", "sensitive_fields", "instances" of
// the rule and what they are ("of"), and "not_judged" blocks.
// "consequences", on the case a divergence was filed under, lists what
// followed from it, each {case ("" for the blocks no case judged),
// blocks, stories, first, detail}; "caused_by" names the root causes that
// left a case nothing to judge; "declared" is the reason the user gave
// for a case declared ungradable; "not_applicable" marks a case that does
// not apply to the kind of target (shown n/a); "not_graded" marks the case as one of
// "ungraded".
// A target captured live (hpackcert live) also has "live": its
// "version", "role", "hpack_encoder", "where", "transport",
// "declared_transformation", "blocks", "connections", "notes" and
// "elapsed_seconds".
// "repro", when the run wrote reproductions, has their folder ("dir"),
// how many story files it holds ("files") and the shell command that
// replays the first failure ("replay").
// "stale_expectations" lists the expected failures that did not fail.
//
// Strings are kept as they are, control characters included (JSON escapes
// them: encoding/json the C0 controls, jsonEscapeControls the C1 controls
// and the bidirectional controls, so that the file is safe to print on a
// terminal), except that an octet which is not part of valid UTF-8, in an
// encoder's name or in what it wrote, reads \xNN (see jsonText).
func WriteJSON(w io.Writer, report *certify.Report) error {
	r := newRep(report)
	out := JSONReport{
		Version:   r.Version,
		Catalogue: r.Catalogue,
		Subject:   r.Subject,
		Elapsed:   r.Elapsed.Seconds(),
		Failed:    r.Failed(),
		Traffic:   jsonText(r.TrafficSource),
		Strict:    r.Strict,
		Encoders:  map[string]JSONTarget{},
	}
	if !r.Started.IsZero() {
		out.Started = r.Started.Format(time.RFC3339)
	}
	for _, e := range r.StaleExpectations {
		out.StaleExpectations = append(out.StaleExpectations, jsonText(e))
	}
	if rp := r.Repro; rp != nil {
		out.Repro = &JSONRepro{Dir: jsonText(rp.Dir), Files: rp.Files, Replay: jsonText(rp.Replay)}
	}
	for _, enc := range r.Encoders {
		info := r.Targets[enc]
		je := JSONTarget{
			Kind:            info.Kind,
			Reported:        jsonText(info.Reported),
			Binary:          info.Binary,
			Lacks:           jsonText(info.Lacks),
			Elapsed:         info.Elapsed.Seconds(),
			Breakdown:       jsonText(info.Breakdown),
			BreakdownRepro:  jsonText(info.BreakdownRepro),
			BreakdownStderr: jsonText(info.BreakdownStderr),
			Ungraded:        jsonUngradedList(r.Ungraded(enc)),
			NotExercised:    jsonUngradedList(r.NotExercised(enc)),
			NothingExpected: info.NothingJudgedExpected,
			Summary:         map[string]int{},
			Coverage:        r.Coverage[enc],
			Cases:           map[string]JSONResult{},
		}
		if r.NothingJudged(enc) {
			je.NothingJudged = jsonText(r.nothingJudgedWhy(enc))
		}
		if l := info.Live; l != nil {
			je.Live = &JSONLive{
				Version: jsonText(l.Version), Role: jsonText(l.Role), Encoder: jsonText(l.Encoder),
				Where: jsonText(l.Where), Transport: jsonText(l.Transport),
				Blocks: l.Blocks, Conns: l.Conns, Elapsed: l.Elapsed.Seconds(),
			}
			if l.Declared {
				je.Live.Transform = jsonText(l.Transform)
			}
			for _, n := range l.Notes {
				je.Live.Notes = append(je.Live.Notes, jsonText(n))
			}
		}
		for id, res := range r.Results[enc] {
			jr := JSONResult{
				Grade: res.Grade, Detail: jsonText(res.Detail), Duration: res.Duration.Seconds(), Repro: jsonText(res.Repro),
				At: jsonText(res.At), Expected: res.Expected, Stderr: jsonText(res.Stderr), Evidence: res.Evidence,
				Declared: jsonText(res.Declared), NotGraded: r.ungraded[enc][id], NotApplicable: res.NotApplicable,
			}
			jr.Evidence.Of = jsonText(jr.Evidence.Of)
			for _, id := range res.CausedBy {
				jr.CausedBy = append(jr.CausedBy, jsonText(id))
			}
			for _, c := range res.Consequences {
				jr.Consequences = append(jr.Consequences, JSONConsequence{c.Case, c.Blocks, c.Stories, jsonText(c.First), jsonText(c.Detail)})
			}
			je.Cases[id] = jr
		}
		for g := certify.Pass; g <= certify.Fail; g++ {
			je.Summary[g.String()] = 0
		}
		counts, inapplicable := r.counts(enc)
		for g, n := range counts {
			je.Summary[g.String()] = n
		}
		je.Summary["n/a"] = inapplicable
		out.Encoders[jsonText(enc)] = je
	}
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetIndent("", "  ")
	// The replay command is a shell line: "&&" stays as it is.
	e.SetEscapeHTML(false)
	if err := e.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(jsonEscapeControls(buf.Bytes()))
	return err
}

// ReadJSON reads a report WriteJSON wrote. Members it does not know are
// ignored, so that a report of a newer hpackcert still reads; a document
// that is not one JSON object with "encoders", or a case whose grade is
// missing or names none, is an error saying where (a missing grade would
// otherwise read as the zero Grade, a pass).
func ReadJSON(r io.Reader) (*JSONReport, error) {
	var raw json.RawMessage
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, fmt.Errorf("not a JSON report: %v at octet %d", err, syntax.Offset)
		}
		if errors.Is(err, io.EOF) {
			return nil, errors.New("not a JSON report: empty")
		}
		return nil, fmt.Errorf("not a JSON report: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not a JSON report: more after its object, at octet %d", dec.InputOffset())
	}
	var out JSONReport
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("not a JSON report: %w%s", err, caseAt(raw, badGrade))
	}
	if out.Encoders == nil {
		return nil, errors.New(`not a JSON report: no "encoders" object`)
	}
	if at := caseAt(raw, noGrade); at != "" {
		return nil, fmt.Errorf(`not a JSON report: no "grade"%s`, at)
	}
	return &out, nil
}

// badGrade tells a grade that names none.
func badGrade(grade json.RawMessage) bool {
	var g certify.Grade
	return grade != nil && json.Unmarshal(grade, &g) != nil
}

// noGrade tells a grade that is missing or null.
func noGrade(grade json.RawMessage) bool {
	return grade == nil || string(grade) == "null"
}

// caseAt says which target and case hold the first grade that is wrong as
// wrong says (", at target T, case C"), for the error of a report that
// does not read; "" when no grade is to blame.
func caseAt(raw json.RawMessage, wrong func(grade json.RawMessage) bool) string {
	var loose struct {
		Encoders map[string]struct {
			Cases map[string]struct {
				Grade json.RawMessage `json:"grade"`
			} `json:"cases"`
		} `json:"encoders"`
	}
	if json.Unmarshal(raw, &loose) != nil {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(loose.Encoders)) {
		cases := loose.Encoders[name].Cases
		for _, id := range slices.Sorted(maps.Keys(cases)) {
			if wrong(cases[id].Grade) {
				return fmt.Sprintf(", at target %q, case %q", name, id)
			}
		}
	}
	return ""
}
