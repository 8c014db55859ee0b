package engine

// Rules are the rules of a run that apply to every result alike, on
// every side: strict, the user's declarations and the expected failures.
type Rules struct {
	// Strict turns non-strict grades into failures.
	Strict bool
	// Declared are the user's declarations, checked (CheckDeclared).
	Declared []Declaration
	// Expect are the run's expected failures, checked (NewExpectations).
	Expect *Expectations
}

// Settle applies the rules to the result of case id for target, once the
// side has graded it:
//
//   - an unsupported case that applies to the target (not n/a) gets the
//     reason of the first declaration covering it (DeclaredReason);
//   - under Strict, a non-strict grade becomes a fail, its detail marked
//     "(strict)";
//   - a fail, and only a fail, may be expected: a non-strict grade fails
//     no run, so an entry naming one has nothing to excuse and is
//     reported stale, the same on both sides.
func (r *Rules) Settle(target, id string, res *Result) {
	if res.Grade == Unsupported && !res.NotApplicable {
		res.Declared = DeclaredReason(r.Declared, target, id)
	}
	if r.Strict && res.Grade == NonStrict {
		res.Grade = Fail
		res.Detail = "(strict) " + res.Detail
	}
	if res.Grade == Fail && r.Expect.Failure(target, id) {
		res.Expected = true
	}
}
