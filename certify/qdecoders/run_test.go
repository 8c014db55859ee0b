package qdecoders

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// testLists keeps the traffic stories short: the rules are met in the
// first sections of each file.
const testLists = 12

func grade(t *testing.T, target qpack.DecoderTarget) Graded {
	t.Helper()
	_, graded, err := Run([]qpack.DecoderTarget{target}, Options{TrafficLists: testLists})
	if err != nil {
		t.Fatal(err)
	}
	return graded[0]
}

// TestStrictPasses: the strict decoder, the judge, passes every case on
// evidence.
func TestStrictPasses(t *testing.T) {
	g := grade(t, &fakeTarget{name: "strict"})
	if g.Breakdown != "" {
		t.Fatalf("breakdown: %s", g.Breakdown)
	}
	for _, c := range Cases() {
		res := g.Results[c.ID]
		if res == nil || res.Grade != Pass || res.Evidence.Instances == 0 {
			t.Errorf("%s: %+v", c.ID, res)
		}
	}
	if len(g.Results) != len(chain) {
		t.Errorf("%d results for %d cases", len(g.Results), len(chain))
	}
}

// breakers are decoders that each break the rule of one case.
var breakers = map[string]hooks{
	"qdec/2.2/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		// The first and last fields of sections of three or more swap.
		for i := range got {
			f := got[i].Fields
			if len(f) >= 3 {
				f[0], f[len(f)-1] = f[len(f)-1], f[0]
			}
		}
		return got, ds
	}},
	"qdec/3.2/1": {refuse: func(f *fakeDecoder, k stepKind, _ uint64, data []byte) error {
		if k == encoderStep && slices.Contains(f.instructions(data), qspec.Duplicate) {
			return refusal(qpack.EncoderStreamError, "duplicate entry")
		}
		return nil
	}},
	"qdec/2.2.1/1": {refuse: func(f *fakeDecoder, k stepKind, _ uint64, data []byte) error {
		if _, ric, ok := f.ric(data); k == sectionStep && ok && ric > f.d.InsertCount() {
			return refusal(qpack.DecompressionFailed, "cannot block")
		}
		return nil
	}},
	"qdec/4.5.1.1/2": {refuse: func(f *fakeDecoder, k stepKind, _ uint64, data []byte) error {
		if pf, ric, ok := f.ric(data); k == sectionStep && ok && ric > 0 && pf.EncodedInsertCount != ric+1 {
			return refusal(qpack.DecompressionFailed, "wrapped count")
		}
		return nil
	}},
	"qdec/4.5.1.2/2": {refuse: func(f *fakeDecoder, k stepKind, _ uint64, data []byte) error {
		if pf, ric, ok := f.ric(data); k == sectionStep && ok && ric == 0 && pf.DeltaBase != 0 {
			return refusal(qpack.DecompressionFailed, "expected Base to be zero")
		}
		return nil
	}},
	"qdec/4.5.4/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		for i := range got {
			for j := range got[i].Fields {
				got[i].Fields[j].Sensitive = false
			}
		}
		return got, ds
	}},
	"qdec/2.2.2.1/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		// Acknowledges sections whose Required Insert Count is 0 too.
		if k == sectionStep && !got[0].Blocked && !hasInstruction(ds, qspec.SectionAck) {
			ds = append(ds, 0x80|byte(got[0].Stream))
		}
		return got, ds
	}},
	"qdec/2.2.2.2/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		return got, filterStream(ds, qspec.StreamCancel)
	}},
	"qdec/2.2.2.3/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		return got, filterStream(ds, qspec.InsertCountIncrement)
	}},
	"qdec/4.4.3/1": {after: func(k stepKind, got []qpack.Decoded, ds []byte) ([]qpack.Decoded, []byte) {
		if k == encoderStep {
			ds = append(ds, 0x01) // one insert more than received
		}
		return got, ds
	}},
	"qdec/2.1.2/1": {recode: recodeAt("", qpack.EncoderStreamError, "§2.2.1")},
	"qdec/2.2.3/1": {recode: recodeAt("field section", "", "§2.2.3")},
	"qdec/2.2.3/2": {recode: recodeAt("encoder stream", qpack.DecompressionFailed, "§2.2.3", "§4.3.2", "§4.3.4")},
	"qdec/3.1/1":   {recode: recodeAt("field section", qpack.EncoderStreamError, "§3.1")},
	"qdec/3.1/2":   {recode: recodeAt("encoder stream", qpack.DecompressionFailed, "§3.1")},
	"qdec/3.2.2/1": {recode: recodeAt("", "", "§3.2.2")},
	"qdec/4.1.1/1": {recode: recodeIf("H3_FRAME_ERROR", func(e *qstrict.Error) bool {
		return strings.Contains(e.Reason, "2^62-1") || strings.Contains(e.Reason, "64 bits")
	})},
	"qdec/4.1.2/1": {recode: recodeAt("", qpack.EncoderStreamError, "§4.1.2")},
	"qdec/4.3.1/1": {recode: recodeIf(qpack.DecompressionFailed, func(e *qstrict.Error) bool {
		return strings.Contains(e.Reason, "is above SETTINGS_QPACK_MAX_TABLE_CAPACITY")
	})},
	"qdec/4.5.1.1/1": {recode: recodeAt("", qpack.EncoderStreamError, "§4.5.1.1")},
	"qdec/4.5.1.2/1": {recode: recodeAt("", "", "§4.5.1.2")},
	"qdec/7.3/1": {settings: func(s qpack.Settings) qpack.Settings {
		s.MaxFieldSectionSize = 0
		return s
	}},
}

// TestBreakers: each case fails for a decoder that breaks just its rule,
// and no other case fails.
func TestBreakers(t *testing.T) {
	for _, c := range chain {
		h, ok := breakers[c.ID]
		if !ok {
			t.Errorf("%s: no decoder breaks it", c.ID)
			continue
		}
		t.Run(strings.ReplaceAll(c.ID, "/", "_"), func(t *testing.T) {
			g := grade(t, &fakeTarget{name: "breaks " + c.ID, h: h})
			if g.Breakdown != "" {
				t.Fatalf("breakdown: %s", g.Breakdown)
			}
			if res := g.Results[c.ID]; res.Grade != c.Violation {
				t.Errorf("%s graded %s, want %s: %s", c.ID, res.Grade, c.Violation, res.Detail)
			} else {
				t.Logf("%s: %s at %s", c.ID, res.Detail, res.At)
			}
			for id, res := range g.Results {
				if id != c.ID && (res.Grade == Fail || res.Grade == NonStrict) {
					t.Errorf("%s also graded %s: %s", id, res.Grade, res.Detail)
				}
			}
		})
	}
}

// hasInstruction reports whether decoder-stream octets hold an
// instruction of kind k.
func hasInstruction(data []byte, k qspec.Kind) bool {
	for p := 0; p < len(data); {
		in, next, err := qspec.ReadDecoderInstruction(data, p)
		if err != nil {
			return false
		}
		if in.Kind == k {
			return true
		}
		p = next
	}
	return false
}
