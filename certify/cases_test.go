package certify

import (
	"regexp"
	"strings"
	"testing"
)

// TestCaseRule checks the citation of every case of both catalogues: RFC
// 7541 cited once, at the start, and a text that adds a citation ("And
// RFC 9113 §4.3.1: ...") joined to it rather than glued after a colon.
func TestCaseRule(t *testing.T) {
	glued := regexp.MustCompile(`^RFC 7541 §[0-9.]+: (And|With) `)
	all := append(Cases(), DecoderCases()...)
	for _, c := range all {
		r := c.Rule()
		if !strings.HasPrefix(r, "RFC 7541 §") && !strings.HasPrefix(r, "RFC 7541 Appendix ") {
			t.Errorf("%s: rule %q does not start with its RFC 7541 citation", c.ID, r)
		}
		if glued.MatchString(r) || strings.Count(r, "RFC 7541 ") > strings.Count(c.RFC, "RFC 7541 ")+1 {
			t.Errorf("%s: rule %q glues a citation after another, or cites RFC 7541 twice", c.ID, r)
		}
	}
	for _, tt := range []struct{ section, rfc, want string }{
		{"4.2", "And RFC 9113 §4.3.1: \"An endpoint MUST ...\"", "RFC 7541 §4.2 and RFC 9113 §4.3.1: \"An endpoint MUST ...\""},
		{"5.2", "With Appendix B: a string literal ...", "RFC 7541 §5.2 with Appendix B: a string literal ..."},
		{"5.2", "§5.2: \"padding ...\"", "RFC 7541 §5.2: \"padding ...\""},
		{"5.2", "a string literal is ...", "RFC 7541 §5.2: a string literal is ..."},
	} {
		if got := (Case{Section: tt.section, RFC: tt.rfc}).Rule(); got != tt.want {
			t.Errorf("Rule of §%s %q = %q; want %q", tt.section, tt.rfc, got, tt.want)
		}
	}
}
