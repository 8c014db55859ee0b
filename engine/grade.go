package engine

import "fmt"

// Grade is the verdict of one case for one target.
type Grade int

// The grades, from best to worst; Unsupported and Info are neither.
const (
	Pass        Grade = iota // the target does what the RFC text says
	Info                     // a measurement, never a verdict
	Unsupported              // the case cannot run against this target
	NonStrict                // a SHOULD, or an efficiency rule, is broken
	Fail                     // a MUST is broken, or the target broke down
)

var gradeNames = [...]string{
	Pass:        "pass",
	Info:        "info",
	Unsupported: "unsupported",
	NonStrict:   "non-strict",
	Fail:        "fail",
}

// String returns the grade as the reports spell it: "pass", "non-strict",
// "fail", "info" or "unsupported".
func (g Grade) String() string {
	if g < 0 || int(g) >= len(gradeNames) {
		return fmt.Sprintf("Grade(%d)", int(g))
	}
	return gradeNames[g]
}

// MarshalText implements encoding.TextMarshaler.
func (g Grade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (g *Grade) UnmarshalText(text []byte) error {
	for i, name := range gradeNames {
		if string(text) == name {
			*g = Grade(i)
			return nil
		}
	}
	return fmt.Errorf("certify: unknown grade %q", text)
}
