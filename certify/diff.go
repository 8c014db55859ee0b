package certify

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
)

// roundTripError describes the first oracle that did not decode the
// block to the fields sent, or returns "".
func (b *playedBlock) roundTripError() string {
	for _, d := range b.decoded {
		if d.skipped || d.known != "" {
			continue
		}
		if d.err != nil {
			return fmt.Sprintf("oracle %s: %v", d.oracle, d.err)
		}
		if diff := fieldsDiff(b.in().Headers, d.fields); diff != "" {
			return fmt.Sprintf("oracle %s decoded other fields: %s", d.oracle, diff)
		}
	}
	return ""
}

func fieldsDiff(sent []Field, got []oracle.Field) string {
	for i := 0; i < len(sent) && i < len(got); i++ {
		if sent[i].Name != got[i].Name || sent[i].Value != got[i].Value {
			return fmt.Sprintf("field %d is %s, want %s", i, fieldString(got[i].Name, got[i].Value), fieldString(sent[i].Name, sent[i].Value))
		}
	}
	if len(sent) != len(got) {
		return fmt.Sprintf("%d fields, want %d", len(got), len(sent))
	}
	return ""
}

// fieldString quotes a field for a report, shortening long values.
func fieldString(name, value string) string {
	return fmt.Sprintf("%s: %s", quoteShort(name), quoteShort(value))
}

func quoteShort(s string) string {
	const max = 48
	if len(s) > max {
		return fmt.Sprintf("%q... (%d octets)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// fieldFor returns the field a non-update representation encodes: the
// n-th field of the block for the n-th such representation. The first
// call numbers every representation, so that a loop over a block's
// representations stays linear.
func (b *playedBlock) fieldFor(repIndex int) (Field, bool) {
	if len(b.fieldOf) != len(b.reps) {
		b.fieldOf = make([]int, len(b.reps))
		n := 0
		for i, r := range b.reps {
			b.fieldOf[i] = n
			if r.Kind != wire.SizeUpdate {
				n++
			}
		}
	}
	fields := b.in().Headers
	if repIndex >= len(b.fieldOf) || b.fieldOf[repIndex] >= len(fields) {
		return Field{}, false
	}
	return fields[b.fieldOf[repIndex]], true
}
