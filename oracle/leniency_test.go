package oracle_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

func TestMatchLeniency(t *testing.T) {
	tests := []struct {
		name     string
		d        oracle.Disagreement
		wantCase string // "" when no entry explains d
	}{
		{"x/net accepts a §4.2 violation", oracle.Disagreement{Oracle: "x/net", Accepted: true, Section: "4.2"}, "size-update-after-field-empty-table"},
		{"x/net accepts an overlong integer", oracle.Disagreement{Oracle: "x/net", Accepted: true, Section: "5.1"}, "integer-overlong"},
		{"x/net has a header-list limit now", oracle.Disagreement{Oracle: "x/net", Accepted: true, Section: "7.3"}, ""},
		{"x/net accepts index 0", oracle.Disagreement{Oracle: "x/net", Accepted: true, Section: "6.1"}, ""},
		{"x/net accepts, strict's error has no section", oracle.Disagreement{Oracle: "x/net", Accepted: true}, ""},
		{"nghttp2 accepts a §4.2 violation", oracle.Disagreement{Oracle: "nghttp2", Accepted: true, Section: "4.2"}, ""},
		{"x/net rejects a smallest-then-final pair", oracle.Disagreement{Oracle: "x/net", Updates: 2}, "min-then-final-entries-survive"},
		{"x/net rejects three updates", oracle.Disagreement{Oracle: "x/net", Updates: 3}, "min-then-final-entries-survive"},
		{"x/net rejects one update", oracle.Disagreement{Oracle: "x/net", Updates: 1}, ""},
		{"x/net rejects a giant value", oracle.Disagreement{Oracle: "x/net", LongestString: 70000}, ""},
		{"nghttp2 rejects a value of 65,537 octets", oracle.Disagreement{Oracle: "nghttp2", LongestString: 65537}, "giant-value"},
		{"nghttp2 rejects a value of 65,536 octets", oracle.Disagreement{Oracle: "nghttp2", LongestString: 65536}, ""},
		{"nghttp2 rejects two updates", oracle.Disagreement{Oracle: "nghttp2", Updates: 2}, ""},
		{"nghttp2 accepts, strict rejected a giant value", oracle.Disagreement{Oracle: "nghttp2", Accepted: true, Section: "5.2", LongestString: 70000}, ""},
		{"ref rejects an update to 16 MiB + 1", oracle.Disagreement{Oracle: "ref", Updates: 1}, ""},
		{"ref rejects a giant value", oracle.Disagreement{Oracle: "ref", LongestString: 1 << 20}, ""},
		{"ref accepts a §6.3 violation", oracle.Disagreement{Oracle: "ref", Accepted: true, Section: "6.3"}, ""},
		{"strict", oracle.Disagreement{Oracle: "strict", Accepted: true, Section: "4.2"}, ""},
		{"unknown oracle", oracle.Disagreement{Oracle: "other", Updates: 2, LongestString: 1 << 20}, ""},
	}
	for _, tt := range tests {
		l, ok := oracle.MatchLeniency(tt.d)
		switch {
		case tt.wantCase == "" && ok:
			t.Errorf("%s: MatchLeniency(%+v) = %q; want no entry", tt.name, tt.d, l.Case)
		case tt.wantCase != "" && (!ok || l.Case != tt.wantCase):
			t.Errorf("%s: MatchLeniency(%+v) = %q, %v; want %q", tt.name, tt.d, l.Case, ok, tt.wantCase)
		case ok && (l.Oracle != tt.d.Oracle || (l.Kind == oracle.RejectsAllowed) == tt.d.Accepted):
			t.Errorf("%s: MatchLeniency(%+v) = %+v, an entry of another oracle or kind", tt.name, tt.d, l)
		}
	}
}

// TestKnownLenienciesMatch checks that MatchLeniency explains what each
// entry describes, and that no RejectsAllowed entry explains every
// rejection by its oracle.
func TestKnownLenienciesMatch(t *testing.T) {
	for _, l := range oracle.KnownLeniencies {
		d := oracle.Disagreement{Oracle: l.Oracle}
		if l.Kind == oracle.RejectsAllowed {
			if l.MinUpdates == 0 && l.StringOver == 0 {
				t.Errorf("%s/%s rejects allowed blocks but sets neither MinUpdates nor StringOver", l.Oracle, l.Case)
				continue
			}
			d.Updates, d.LongestString = l.MinUpdates, l.StringOver+1
		} else {
			d.Accepted, d.Section = true, l.Section
		}
		got, ok := oracle.MatchLeniency(d)
		if !ok || got.Oracle != l.Oracle || got.Kind != l.Kind || got.Section != l.Section {
			t.Errorf("%s/%s: MatchLeniency(%+v) = %+v, %v; want an entry like it", l.Oracle, l.Case, d, got, ok)
		}
		if l.Kind == oracle.RejectsAllowed {
			if got, ok := oracle.MatchLeniency(oracle.Disagreement{Oracle: l.Oracle}); ok {
				t.Errorf("MatchLeniency explains any rejection by %s (entry %s)", l.Oracle, got.Case)
			}
		}
	}
}
