package qdecoders

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// compareDecoded compares what the decoder gave for a step with what the
// strict decoder gave: for a section, blocked or its fields; for an
// encoder-stream step, the sections it unblocked, by stream. sensitive
// compares the N bit of each field too. It says what differs, "" for
// nothing.
func compareDecoded(st *step, got []qpack.Decoded, sensitive bool) string {
	x := &st.expect
	if st.kind == sectionStep {
		g := got[0]
		switch {
		case x.blocked && !g.Blocked:
			return fmt.Sprintf("decoded the field section of stream %d, whose Required Insert Count %d is above the %d inserts received, to %s: it must block", st.stream, x.ric, x.inserts, describeFields(g.Fields))
		case !x.blocked && g.Blocked:
			return fmt.Sprintf("held the field section of stream %d blocked, though its Required Insert Count %d is within the %d inserts received", st.stream, x.ric, x.inserts)
		case x.blocked:
			return ""
		}
		if what := compareFields(x.fields, g.Fields, sensitive); what != "" {
			return fmt.Sprintf("the field section of stream %d: %s", st.stream, what)
		}
		return ""
	}
	if st.kind != encoderStep {
		return ""
	}
	left := slices.Clone(got)
	for _, w := range x.unblocked {
		i := slices.IndexFunc(left, func(d qpack.Decoded) bool { return d.Stream == w.Stream })
		if i < 0 {
			return fmt.Sprintf("did not decode the blocked section of stream %d once %s brought its inserts", w.Stream, describeStep(st))
		}
		if what := compareFields(w.Fields, left[i].Fields, sensitive); what != "" {
			return fmt.Sprintf("the section of stream %d unblocked by %s: %s", w.Stream, describeStep(st), what)
		}
		left = slices.Delete(left, i, i+1)
	}
	if len(left) > 0 {
		return fmt.Sprintf("returned a section of stream %d after %s, which unblocked none there", left[0].Stream, describeStep(st))
	}
	return ""
}

// compareFields says how got differs from want, "" when it does not.
func compareFields(want, got []Field, sensitive bool) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%d fields, expected %d: field %d (%s) missing", len(got), len(want), i, describeField(want[i]))
		case i >= len(want):
			return fmt.Sprintf("%d fields, expected %d: field %d (%s) extra", len(got), len(want), i, describeField(got[i]))
		case want[i].Name != got[i].Name || want[i].Value != got[i].Value:
			return fmt.Sprintf("field %d is %s, expected %s", i, describeField(got[i]), describeField(want[i]))
		case sensitive && want[i].Sensitive != got[i].Sensitive:
			if want[i].Sensitive {
				return fmt.Sprintf("field %d (%s) came with the N bit, reported without it", i, describeField(want[i]))
			}
			return fmt.Sprintf("field %d (%s) came without the N bit, reported with it", i, describeField(want[i]))
		}
	}
	return ""
}

func describeField(f Field) string {
	v := f.Value
	if len(v) > 40 {
		v = v[:40] + fmt.Sprintf("... (%d octets)", len(f.Value))
	}
	return fmt.Sprintf("%q: %q", f.Name, v)
}

func describeFields(fs []Field) string {
	if len(fs) == 0 {
		return "no field"
	}
	parts := make([]string, 0, min(len(fs), 4))
	for _, f := range fs[:min(len(fs), 4)] {
		parts = append(parts, describeField(f))
	}
	s := strings.Join(parts, ", ")
	if len(fs) > 4 {
		s += fmt.Sprintf(" and %d more", len(fs)-4)
	}
	return s
}

// uniq returns the streams of s, each once, sorted.
func uniq(s []uint64) []uint64 {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
