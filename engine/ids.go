package engine

import (
	"fmt"
	"strings"
)

// CompareIDs orders case ids, section by section, numerically where numeric.
func CompareIDs(a, b string) int {
	as, bs := strings.FieldsFunc(a, splitID), strings.FieldsFunc(b, splitID)
	for i := 0; i < len(as) && i < len(bs); i++ {
		var x, y int
		_, errX := fmt.Sscanf(as[i], "%d", &x)
		_, errY := fmt.Sscanf(bs[i], "%d", &y)
		switch {
		case errX == nil && errY == nil && x != y:
			return x - y
		case (errX != nil || errY != nil) && as[i] != bs[i]:
			return strings.Compare(as[i], bs[i])
		}
	}
	return len(as) - len(bs)
}

func splitID(r rune) bool { return r == '/' || r == '.' }
