package certifytest

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// TestVerdictRulesBothSides runs each verdict rule of issue 37's table on
// the encoder side and on the decoder side, with fakes of known grades,
// and checks the same behaviour on both: the rules are the engine's, not
// a side's.
func TestVerdictRulesBothSides(t *testing.T) {
	rows := []struct {
		rule string
		// targets are the roles of the run's targets, named "t0", "t1"...
		// unless names gives their names.
		targets []role
		names   []string
		rules   func(s side) runRules
		// wantErr, when set, is what the run's error must hold, "SIDE"
		// standing for the side's name.
		wantErr string
		check   func(t *testing.T, s side, rep *certify.Report, h *hang)
	}{
		{rule: "an expect-fail line naming a target not in the run is an error",
			targets: []role{failing},
			rules:   func(s side) runRules { return runRules{expect: []string{"nosuch " + s.failID}} },
			wantErr: `no SIDE "nosuch" in this run`},
		{rule: "an expect-fail line naming no case is an error",
			targets: []role{failing},
			rules:   func(s side) runRules { return runRules{expect: []string{"t0 " + s.failID[:4] + "99/1"}} },
			wantErr: `no case`},
		{rule: "a declaration naming a target not in the run is an error",
			targets: []role{lacking},
			rules: func(s side) runRules {
				return runRules{declared: []certify.Declaration{{Case: s.lackID, Encoder: "nosuch", Reason: "r"}}}
			},
			wantErr: `no SIDE "nosuch" in this run`},
		{rule: "an expected fail does not fail the run",
			targets: []role{failing},
			rules:   func(s side) runRules { return runRules{expect: []string{"t0 " + s.failID}} },
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if res := rep.Results["t0"][s.failID]; res.Grade != certify.Fail || !res.Expected {
					t.Errorf("%s: %s %v expected=%v; want an expected fail", s.failID, res.Detail, res.Grade, res.Expected)
				}
				if rep.Failed() || len(rep.StaleExpectations) > 0 {
					t.Errorf("failed %v, stale %q; want the run to pass, nothing stale", rep.Failed(), rep.StaleExpectations)
				}
			}},
		{rule: "only a fail may be expected: an entry naming a non-strict grade is stale",
			targets: []role{nonStrict},
			rules:   func(s side) runRules { return runRules{expect: []string{"t0 " + s.nonStrictID}} },
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if res := rep.Results["t0"][s.nonStrictID]; res.Grade != certify.NonStrict || res.Expected {
					t.Errorf("%s: %v expected=%v; want non-strict, not expected", s.nonStrictID, res.Grade, res.Expected)
				}
				if want := []string{"t0 " + s.nonStrictID}; !slices.Equal(rep.StaleExpectations, want) {
					t.Errorf("stale %q; want %q", rep.StaleExpectations, want)
				}
			}},
		{rule: "strict makes a non-strict grade a fail, marked so",
			targets: []role{nonStrict},
			rules:   func(side) runRules { return runRules{strict: true} },
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if res := rep.Results["t0"][s.nonStrictID]; res.Grade != certify.Fail || !strings.HasPrefix(res.Detail, "(strict) ") {
					t.Errorf("%s: %v %q; want a fail marked (strict)", s.nonStrictID, res.Grade, res.Detail)
				}
				if !rep.Failed() {
					t.Error("the run passed; want it failed")
				}
			}},
		{rule: "of several declarations covering a case, the first wins",
			targets: []role{lacking},
			rules: func(s side) runRules {
				return runRules{declared: []certify.Declaration{
					{Case: s.lackID[:4], Reason: "first"}, {Case: s.lackID, Encoder: "t0", Reason: "second"}}}
			},
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if res := rep.Results["t0"][s.lackID]; res.Grade != certify.Unsupported || res.Declared != "first" {
					t.Errorf("%s: %v declared %q; want unsupported, declared \"first\"", s.lackID, res.Grade, res.Declared)
				}
			}},
		{rule: "two targets with one name are both graded, the second renamed",
			targets: []role{plain, failing}, names: []string{"twin", "twin"},
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if want := []string{"twin", "twin #2"}; !slices.Equal(rep.Encoders, want) {
					t.Fatalf("targets %q; want %q", rep.Encoders, want)
				}
				if rep.Results["twin"][s.failID].Grade == certify.Fail || rep.Results["twin #2"][s.failID].Grade != certify.Fail {
					t.Errorf("%s: %v, %v; want the second alone failed", s.failID, rep.Results["twin"][s.failID].Grade, rep.Results["twin #2"][s.failID].Grade)
				}
			}},
		{rule: "a program that stops answering after 5 requests: one breakdown, never asked again, its stderr tail kept, the next target graded",
			targets: []role{hanging, plain},
			check: func(t *testing.T, s side, rep *certify.Report, h *hang) {
				info := rep.Targets["t0"]
				if info.Breakdown == "" || info.BreakdownExpected {
					t.Errorf("breakdown %q expected=%v; want an unexpected breakdown", info.Breakdown, info.BreakdownExpected)
				}
				if info.BreakdownStderr != hangStderr {
					t.Errorf("breakdown stderr %q; want %q", info.BreakdownStderr, hangStderr)
				}
				if h.afterBreakdown != 0 {
					t.Errorf("%d requests after the breakdown; want none", h.afterBreakdown)
				}
				for id, res := range rep.Results["t0"] {
					if res.Grade == certify.Fail || res.Grade == certify.NonStrict {
						t.Errorf("%s: %v %q; want no case failed: the breakdown is the target's one failure", id, res.Grade, res.Detail)
					}
				}
				if !rep.Failed() || rep.NothingJudged("t1") || rep.Targets["t1"].Breakdown != "" {
					t.Errorf("failed %v, t1 judged nothing %v; want the run failed and t1 graded", rep.Failed(), rep.NothingJudged("t1"))
				}
			}},
		{rule: "an expected breakdown does not fail the run",
			targets: []role{hanging},
			rules:   func(side) runRules { return runRules{expect: []string{"t0 breakdown"}} },
			check: func(t *testing.T, s side, rep *certify.Report, _ *hang) {
				if !rep.Targets["t0"].BreakdownExpected || rep.Failed() || len(rep.StaleExpectations) > 0 {
					t.Errorf("expected %v, failed %v, stale %q; want an expected breakdown, the run passed", rep.Targets["t0"].BreakdownExpected, rep.Failed(), rep.StaleExpectations)
				}
			}},
	}
	for _, row := range rows {
		for _, s := range []side{encoderSide, decoderSide} {
			t.Run(s.name+"/"+row.rule, func(t *testing.T) {
				h := &hang{}
				var targets []any
				for i, r := range row.targets {
					name := "t" + string(rune('0'+i))
					if row.names != nil {
						name = row.names[i]
					}
					targets = append(targets, s.make(r, name, h))
				}
				var rr runRules
				if row.rules != nil {
					rr = row.rules(s)
				}
				rep, err := s.run(targets, rr)
				if row.wantErr != "" {
					want := strings.ReplaceAll(row.wantErr, "SIDE", s.name)
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Fatalf("error %v; want one holding %q", err, want)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				row.check(t, s, rep, h)
			})
		}
	}
}
