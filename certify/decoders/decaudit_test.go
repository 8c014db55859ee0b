package decoders

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/wire"
)

// auditDecoder is the strict decoder with one perturbation of its input
// or output: buggy decoders written apart from internal/broken, to find
// what the planted bugs miss.
type auditDecoder struct {
	*strictDecoder
	bug func(a *auditDecoder, block []byte) ([]Field, error)
}

func (a *auditDecoder) DecodeBlock(b []byte) ([]Field, error) { return a.bug(a, b) }

func auditTarget(name string, bug func(a *auditDecoder, block []byte) ([]Field, error)) DecoderTarget {
	return DecoderFunc(name, func() Decoder {
		return &auditDecoder{strictDecoder: newStrictDecoder().(*strictDecoder), bug: bug}
	})
}

// fieldReps returns the field representations of a block (size updates
// left out), nil when it does not walk.
func fieldReps(block []byte) []wire.Representation {
	reps, err := wire.Walk(block)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(reps, func(r wire.Representation) bool { return r.Kind == wire.SizeUpdate })
}

var auditBugs = []struct {
	name string
	bug  func(a *auditDecoder, block []byte) ([]Field, error)
	// fails is the one case the bug must fail; "" means a breakdown.
	fails string
}{
	{"never-indexed-lost-for-indexed-names", func(a *auditDecoder, b []byte) ([]Field, error) {
		f, err := a.strictDecoder.DecodeBlock(b)
		if err == nil {
			for i, r := range fieldReps(b) {
				if r.Kind == wire.NeverIndexed && r.Index.Value != 0 && i < len(f) {
					f[i].Sensitive = false
				}
			}
		}
		return f, err
	}, "dec/7.1.3/1"},
	{"refuses-index-127", func(a *auditDecoder, b []byte) ([]Field, error) {
		for _, r := range fieldReps(b) {
			if r.Kind == wire.Indexed && r.Index.Value == 127 {
				return nil, Reject(errors.New("audit: index 127"))
			}
		}
		return a.strictDecoder.DecodeBlock(b)
	}, "dec/5.1/1"},
	{"late-zero-update-accepted", func(a *auditDecoder, b []byte) ([]Field, error) {
		// A size update to 0 after a field is applied as if it began a
		// block of its own.
		reps, err := wire.Walk(b)
		if err == nil {
			seenField := false
			for _, r := range reps {
				if r.Kind != wire.SizeUpdate {
					seenField = true
					continue
				}
				if seenField && r.Index.Value == 0 {
					first, err := a.strictDecoder.DecodeBlock(b[:r.Offset])
					if err != nil {
						return nil, err
					}
					rest, err := a.strictDecoder.DecodeBlock(b[r.Offset:])
					return append(first, rest...), err
				}
			}
		}
		return a.strictDecoder.DecodeBlock(b)
	}, "dec/4.2/1"},
	{"panics-on-eos", func(a *auditDecoder, b []byte) ([]Field, error) {
		if bytes.Contains(b, []byte{0xff, 0xff, 0xff, 0xfc}) {
			panic("audit: EOS")
		}
		return a.strictDecoder.DecodeBlock(b)
	}, ""},
	{"strips-trailing-whitespace-of-names", func(a *auditDecoder, b []byte) ([]Field, error) {
		f, err := a.strictDecoder.DecodeBlock(b)
		for i := range f {
			f[i].Name = strings.TrimRight(f[i].Name, " \t")
		}
		return f, err
	}, "dec/5.2/1"},
	{"lowercases-names", func(a *auditDecoder, b []byte) ([]Field, error) {
		f, err := a.strictDecoder.DecodeBlock(b)
		for i := range f {
			f[i].Name = strings.ToLower(f[i].Name)
		}
		return f, err
	}, "dec/5.2/1"},
	{"refuses-blocks-over-8KiB", func(a *auditDecoder, b []byte) ([]Field, error) {
		if len(b) > 8<<10 {
			return nil, Reject(errors.New("audit: block over 8 KiB"))
		}
		return a.strictDecoder.DecodeBlock(b)
	}, "dec/3.2/1"},
}

// TestDecoderAudit runs decoders with bugs none of internal/broken's
// planted bugs has: each must fail exactly the case of the rule it
// breaks (or break down, for a panic), and nothing else.
func TestDecoderAudit(t *testing.T) {
	targets := []DecoderTarget{DecoderFunc("strict", newStrictDecoder)}
	for _, b := range auditBugs {
		targets = append(targets, auditTarget(b.name, b.bug))
	}
	rep, err := runDecoders(targets, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range rep.Encoders {
		want := ""
		if i > 0 {
			want = auditBugs[i-1].fails
		}
		breakdown := rep.Targets[name].Breakdown
		var failed []string
		for _, c := range rep.Cases {
			if g := rep.Results[name][c.ID].Grade; g == Fail || g == NonStrict {
				failed = append(failed, c.ID)
			}
		}
		t.Logf("%s: failed %v, breakdown %q", name, failed, breakdown)
		switch {
		case i == 0 && (len(failed) > 0 || breakdown != ""):
			t.Errorf("strict: failed %v, breakdown %q; want a pass", failed, breakdown)
		case i > 0 && want == "" && (breakdown == "" || len(failed) > 0):
			t.Errorf("%s: failed %v, breakdown %q; want a breakdown and nothing else", name, failed, breakdown)
		case i > 0 && want != "" && (breakdown != "" || !slices.Equal(failed, []string{want})):
			t.Errorf("%s: failed %v, breakdown %q; want only %s", name, failed, breakdown, want)
		}
	}
}
