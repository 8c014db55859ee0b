package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Declaration says that a case, or every case under an id prefix, cannot
// be graded for a target, and why: the line "unsupported PREFIX: REASON"
// (every target) or "unsupported PREFIX for TARGET: REASON" of an expect
// file, or hpackcert's --declare-unsupported flag.
type Declaration struct {
	// Case is a case id or an id prefix ("enc/7.1.3/").
	Case string
	// Encoder names one target of the run, an encoder or a decoder; ""
	// is every target. (The name predates the decoder side.)
	Encoder string
	// Reason says why the case cannot be graded; never empty.
	Reason string
}

// Covers reports whether d declares case id for the target named target.
func (d Declaration) Covers(target, id string) bool {
	return strings.HasPrefix(id, d.Case) && (d.Encoder == "" || d.Encoder == target)
}

// DeclaredReason returns the reason of the first declaration that covers
// case id for target, "" when none does: several may match (a prefix for
// every target, then one case for one), and the first, in the order the
// user wrote them, wins on every side.
func DeclaredReason(decls []Declaration, target, id string) string {
	for _, d := range decls {
		if d.Covers(target, id) {
			return d.Reason
		}
	}
	return ""
}

// CheckDeclared checks declarations against the run: each names cases
// of the side's catalogue (checkPrefix returns why a prefix names none),
// gives a reason and, when it names a target, names one of the run's
// (names; side, "encoder" or "decoder", words the error). A declaration
// for a target that is not there (renamed, or a new version) would
// otherwise declare nothing, and the run would fail on the lack it meant
// to declare without saying why.
func CheckDeclared(decls []Declaration, side string, names []string, checkPrefix func(string) error) error {
	for _, d := range decls {
		what := fmt.Sprintf("declared unsupported %q", d.Case)
		if d.Encoder != "" {
			what += fmt.Sprintf(" for %q", d.Encoder)
		}
		if err := checkPrefix(d.Case); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if strings.TrimSpace(d.Reason) == "" {
			return fmt.Errorf("%s: no reason given (a declaration says why the case cannot be graded)", what)
		}
		if d.Encoder != "" && !slices.Contains(names, d.Encoder) {
			return fmt.Errorf("%s: no %s %q in this run (have %q)", what, side, d.Encoder, names)
		}
	}
	return nil
}
