package decoders

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// compareFields says how got differs from want, "" when it does not;
// sensitive compares the never-indexed flags too.
func compareFields(want, got []Field, sensitive bool) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%s, where %s were expected: field %d, %s, is missing", plural(len(got), "field", "fields"), plural(len(want), "field", "fields"), i, quoteField(want[i]))
		case i >= len(want):
			return fmt.Sprintf("%s, where %s were expected: field %d, %s, is extra", plural(len(got), "field", "fields"), plural(len(want), "field", "fields"), i, quoteField(got[i]))
		case got[i].Name != want[i].Name || got[i].Value != want[i].Value:
			return fmt.Sprintf("field %d is %s, where %s was expected", i, quoteField(got[i]), quoteField(want[i]))
		case sensitive && got[i].Sensitive != want[i].Sensitive:
			if want[i].Sensitive {
				return fmt.Sprintf("field %d, %s, came never-indexed and is not marked so", i, quoteField(want[i]))
			}
			return fmt.Sprintf("field %d, %s, is marked never-indexed but was not", i, quoteField(want[i]))
		}
	}
	return ""
}

// quoteField quotes a field for a report, cut to a readable length.
func quoteField(f Field) string {
	return cutQuote(f.Name) + ": " + cutQuote(f.Value)
}

func cutQuote(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("%q... (%d octets)", s[:64], len(s))
	}
	return fmt.Sprintf("%q", s)
}

func describeFields(fields []Field, err error) string {
	if err != nil {
		return err.Error()
	}
	size := 0
	for _, f := range fields {
		size += len(f.Name) + len(f.Value) + spec.EntryOverhead
	}
	if len(fields) == 0 {
		return "no field"
	}
	return fmt.Sprintf("%s (%d octets of header list), the first %s", plural(len(fields), "field", "fields"), size, quoteField(fields[0]))
}

// reproText reproduces a divergence: the story's blocks up to the one at
// fault, in hex, with their settings.
func reproText(s *decStory, step int, what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "decoder story %s, a fresh context (SETTINGS_HEADER_TABLE_SIZE 4096), block by block:\n", s.name)
	for i := 0; i <= step && i < len(s.steps); i++ {
		st := s.steps[i]
		h := hex.EncodeToString(st.block)
		if len(h) > 512 {
			h = h[:512] + fmt.Sprintf("... (%d octets)", len(st.block))
		}
		fmt.Fprintf(&b, "  block %d: table_size %d, max_header_list %d: %s\n    wire %s\n", i, st.tableSize, st.maxList, st.note, h)
		if i == step {
			if st.expect.refused != "" {
				fmt.Fprintf(&b, "    expected: refused (%s)\n", st.expect.refused)
			} else {
				fmt.Fprintf(&b, "    expected: %s\n", describeFields(st.expect.fields, nil))
			}
		}
	}
	fmt.Fprintf(&b, "  found: %s\n", what)
	return b.String()
}
