package decoders

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle/strict"
)

// strictDecoder serves the strict decoder as a Decoder under test, with
// no header-list limit until told one.
type strictDecoder struct{ d *strict.Decoder }

func newStrictDecoder() Decoder {
	d := strict.New()
	d.SetMaxHeaderListSize(0)
	return &strictDecoder{d}
}

func (s *strictDecoder) SetMaxDynamicTableSize(n uint32) error {
	s.d.SetMaxDynamicTableSize(n)
	return nil
}
func (s *strictDecoder) SetMaxHeaderListSize(n uint32) error {
	s.d.SetMaxHeaderListSize(int(n))
	return nil
}
func (s *strictDecoder) DecodeBlock(b []byte) ([]Field, error) {
	f, err := s.d.DecodeBlock(b)
	return f, Reject(err)
}
func (s *strictDecoder) DecoderTable() ([]Field, error) { return s.d.Table(), nil }

func quickDecoderOptions() DecoderOptions {
	return DecoderOptions{TrafficStories: 4, TrafficBlocks: 40, Generated: 2}
}

// TestDecoderStoriesPrepare checks the catalogue against the strict
// decoder: every valid block decodes, every invalid one is refused, and
// every case has stories (or a measurement).
func TestDecoderStoriesPrepare(t *testing.T) {
	in, err := decoderInputs(quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range decChain {
		if c.kind == decTime {
			continue
		}
		list := c.stories(in)
		if len(list) == 0 {
			t.Errorf("%s has no story", c.ID)
		}
		for i := range list {
			if err := list[i].prepare(); err != nil {
				t.Errorf("%s: %v", c.ID, err)
			}
			last := list[i].steps[len(list[i].steps)-1]
			if (c.kind == decRejects || c.kind == decBomb) && !last.invalid {
				t.Errorf("%s: story %s ends with invalid=%v", c.ID, list[i].name, last.invalid)
			}
		}
	}
}

// TestStrictDecoderPassesEveryCase: the strict decoder, the catalogue's
// own yardstick, passes every dec/ case.
func TestStrictDecoderPassesEveryCase(t *testing.T) {
	rep, err := runDecoders([]DecoderTarget{DecoderFunc("strict", newStrictDecoder)}, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) != len(decChain) {
		t.Fatalf("%d cases, want %d", len(rep.Cases), len(decChain))
	}
	for _, c := range rep.Cases {
		res := rep.Results["strict"][c.ID]
		if res.Grade != Pass {
			t.Errorf("%s: %s: %s\n%s", c.ID, res.Grade, res.Detail, res.Repro)
		}
	}
	if b := rep.Targets["strict"].Breakdown; b != "" {
		t.Errorf("breakdown: %s", b)
	}
	if rep.Failed() {
		t.Error("the run failed")
	}
}

// TestAsRequests: the live form of the targeted stories decodes, block
// for block, to the fields of the library form after a GET request's
// three pseudo-header fields, and is a well-formed request wherever the
// library form holds no pseudo-header field.
func TestAsRequests(t *testing.T) {
	for _, c := range decChain {
		if c.kind != decDecodes || c.ID == decodesRight {
			continue
		}
		for _, s := range c.stories(&decInputs{}) {
			if err := s.prepare(); err != nil {
				t.Fatal(err)
			}
			l := asRequests(s)
			if err := l.prepare(); err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			for i, st := range l.steps {
				want := s.steps[i].expect
				if want.refused != "" {
					continue
				}
				got := st.expect.fields
				if len(got) < 4 || got[0].Name != ":method" || got[1].Name != ":scheme" || got[2].Name != ":path" || got[3] != (Field{Name: ":authority", Value: "localhost"}) {
					if httpInvalid(want.fields) == "" && !slices.ContainsFunc(want.fields, func(f Field) bool { return strings.HasPrefix(f.Name, ":") }) {
						t.Errorf("%s story %s block %d: no request fields in front: %v", c.ID, s.name, i, got)
					}
					continue
				}
				if what := compareFields(want.fields, got[4:], true); what != "" {
					t.Errorf("%s story %s block %d: %s", c.ID, s.name, i, what)
				}
				// The request's fields count for no case but the static
				// table's: the :authority literal is no evidence of
				// literals without indexing or raw strings.
				if st.expect.feats&^fStatic != s.steps[i].expect.feats&^fStatic {
					t.Errorf("%s story %s block %d: features %b as a request, %b as sent", c.ID, s.name, i, st.expect.feats, s.steps[i].expect.feats)
				}
				if httpInvalid(want.fields) == "" && st.expect.httpInvalid != "" {
					t.Errorf("%s story %s block %d: not a request: %s", c.ID, s.name, i, st.expect.httpInvalid)
				}
			}
		}
	}
}

// acceptingDecoder decodes as the strict decoder does but takes every
// block: a decoder that refuses nothing.
type acceptingDecoder struct{ strictDecoder }

func (a *acceptingDecoder) DecodeBlock(b []byte) ([]Field, error) {
	f, _ := a.d.DecodeBlock(b)
	return f, nil
}

// TestDecoderFaultJudged: a case that finds fault with a block judged it,
// and its evidence counts the block; "judged no block" is left to a case
// that judged none.
func TestDecoderFaultJudged(t *testing.T) {
	accepting := func() Decoder { return &acceptingDecoder{*newStrictDecoder().(*strictDecoder)} }
	opts := quickDecoderOptions()
	opts.Cases = []string{"dec/5.1/3", "dec/6.1/1"}
	rep, err := runDecoders([]DecoderTarget{DecoderFunc("accepting", accepting)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range opts.Cases {
		res := rep.Results["accepting"][id]
		if res.Grade != Fail {
			t.Errorf("%s: %s, want fail: %s", id, res.Grade, res.Detail)
		}
		if res.Evidence.Blocks == 0 || strings.Contains(res.Evidence.String(), "judged no block") {
			t.Errorf("%s: failed on a block, but its evidence reads %q", id, res.Evidence.String())
		}
	}
}
