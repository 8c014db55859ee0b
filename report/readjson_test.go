package report_test

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestReadJSON checks that ReadJSON reads a report's grades, ignores
// members it does not know, and refuses, saying what was wrong, a
// document that is not one report or a case without a grade (which would
// read as a pass).
func TestReadJSON(t *testing.T) {
	doc, err := report.ReadJSON(strings.NewReader(`{"version": "v", "newer": [1],
		"encoders": {"e": {"kind": "stdio", "cases": {"enc/4.2/1": {"grade": "non-strict", "detail": "d"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Encoders["e"].Cases["enc/4.2/1"]; doc.Version != "v" || got.Grade != certify.NonStrict || got.Detail != "d" {
		t.Errorf("read version %q, result %+v; want v, non-strict, d", doc.Version, got)
	}
	for _, c := range []struct{ in, want string }{
		{"", "not a JSON report: empty"},
		{`{"encoders": {`, "not a JSON report: unexpected EOF"},
		{`{"encoders": }`, "at octet 14"},
		{`[]`, "not a JSON report: json: cannot unmarshal array"},
		{`{"version": "v"}`, `not a JSON report: no "encoders" object`},
		{`{"encoders": null}`, `no "encoders" object`},
		{`{"encoders": {"e": {"cases": {"c": {"grade": "excellent"}}}}}`, `unknown grade "excellent", at target "e", case "c"`},
		{`{"encoders": {"e": {"cases": {"c": {"grade": 3}}}}}`, `Grade, at target "e", case "c"`},
		{`{"encoders": {"e": {"cases": []}}}`, "cannot unmarshal array"},
		{`{"encoders": {"e": {"cases": {"b": {"grade": "pass"}, "c": {"detail": "d"}}}}}`, `no "grade", at target "e", case "c"`},
		{`{"encoders": {"e": {"cases": {"c": {"grade": null}}}}}`, `no "grade", at target "e", case "c"`},
		{`{"encoders": {}} {}`, "more after its object, at octet 17"},
	} {
		_, err := report.ReadJSON(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadJSON(%q) = %v; want an error with %q", c.in, err, c.want)
		}
	}
}
