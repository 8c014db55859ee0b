package decoders

import (
	"errors"
	"strings"
	"testing"
)

// fakeLive is a live target as the engine sees one: it shows no fields,
// and refuses what the strict decoder refuses, or more (refuse), with
// an error that says whether it was for a decoding error.
type fakeLive struct {
	strictDecoder
	refuse      func(block []byte) error
	answer      string
	bombRefusal string // the answer to an over-limit block it takes: "" accepts it
	// accepts is a text of the strict decoder's errors the target takes
	// the block with nonetheless.
	accepts string
}

type goAway struct{ compression bool }

func (g goAway) Error() string {
	if g.compression {
		return "GOAWAY COMPRESSION_ERROR"
	}
	return "GOAWAY PROTOCOL_ERROR"
}
func (g goAway) DecodingError() bool { return g.compression }

func (f *fakeLive) FieldsHidden() bool { return true }
func (f *fakeLive) LastAnswer() string { return f.answer }
func (f *fakeLive) DecodeBlock(b []byte) ([]Field, error) {
	f.answer = "answered 200"
	if f.refuse != nil {
		if err := f.refuse(b); err != nil {
			return nil, Reject(err)
		}
	}
	fields, err := f.strictDecoder.DecodeBlock(b)
	var rej *Rejection
	if errors.As(err, &rej) && f.bombRefusal != "" && len(b) > 50000 {
		f.answer = f.bombRefusal
		return nil, nil
	}
	if err != nil && f.accepts != "" && strings.Contains(err.Error(), f.accepts) {
		return nil, nil
	}
	if err != nil {
		return nil, Reject(goAway{compression: true})
	}
	return fields, nil
}

func runFakeLive(t *testing.T, f func() *fakeLive, cases ...string) map[string]*Result {
	t.Helper()
	rep, err := runDecoders([]DecoderTarget{asKind(DecoderFunc("live", func() Decoder {
		d := f()
		d.strictDecoder = *newStrictDecoder().(*strictDecoder)
		return d
	}), "live")}, DecoderOptions{Cases: cases, TrafficStories: 1, TrafficBlocks: 5, Generated: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results["live"]
}

// TestLiveDecoderGrading: a live target is graded on refusals; a refusal
// of a valid request for another reason than a decoding error judges
// nothing; one for a decoding error fails the case; a stream reset of
// the bomb is a refusal; the missing update after a lowered setting is a
// MUST live.
func TestLiveDecoderGrading(t *testing.T) {
	res := runFakeLive(t, func() *fakeLive { return &fakeLive{} }, "dec/6.1/1", "dec/2.3.3/1", "dec/6.2.1/1")
	if g := res["dec/6.1/1"].Grade; g != Pass {
		t.Errorf("dec/6.1/1: %s: %s", g, res["dec/6.1/1"].Detail)
	}
	if g := res["dec/6.2.1/1"].Grade; g != Unsupported {
		t.Errorf("dec/6.2.1/1 with hidden fields: %s, want unsupported: %s", g, res["dec/6.2.1/1"].Detail)
	}

	// Every block with a dynamic index refused: as PROTOCOL_ERROR it
	// judges nothing, as COMPRESSION_ERROR it fails dec/6.2.1/1.
	dyn := func(compression bool) func() *fakeLive {
		return func() *fakeLive {
			return &fakeLive{refuse: func(b []byte) error {
				for _, o := range b {
					if o == 0xbe {
						return goAway{compression: compression}
					}
				}
				return nil
			}}
		}
	}
	if r := runFakeLive(t, dyn(false), "dec/6.2.1/1")["dec/6.2.1/1"]; r.Grade != Unsupported {
		t.Errorf("PROTOCOL_ERROR refusal: %s, want unsupported: %s", r.Grade, r.Detail)
	}
	if r := runFakeLive(t, dyn(true), "dec/6.2.1/1")["dec/6.2.1/1"]; r.Grade != Fail {
		t.Errorf("COMPRESSION_ERROR refusal of a valid request: %s, want fail: %s", r.Grade, r.Detail)
	}

	// The bomb: a stream reset is a refusal, an answer is not.
	bomb := func(answer string) *Result {
		return runFakeLive(t, func() *fakeLive { return &fakeLive{bombRefusal: answer} }, "dec/7.3/1")["dec/7.3/1"]
	}
	if r := bomb("reset the stream (RST_STREAM REFUSED_STREAM)"); r.Grade != Pass {
		t.Errorf("bomb reset: %s, want pass: %s", r.Grade, r.Detail)
	}
	if r := bomb("answered 200"); r.Grade != Fail {
		t.Errorf("bomb answered: %s, want fail: %s", r.Grade, r.Detail)
	}

	// A block without the size update a lowered setting needs: a
	// library that takes it is non-strict, a live target fails (RFC 9113
	// §4.3.1). The fake can be told the lower setting: it is a library
	// here, graded as live.
	r := runFakeLive(t, func() *fakeLive { return &fakeLive{accepts: "must begin with a dynamic table size update"} }, "dec/4.2/2")["dec/4.2/2"]
	if r.Grade != Fail {
		t.Errorf("live dec/4.2/2: %s, want fail: %s", r.Grade, r.Detail)
	}
}
