package certify_test

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/vectors"
)

// list builds a header list from names and values; a name that ends in
// "!" is a sensitive field.
func list(nv ...string) []vectors.Field {
	var out []vectors.Field
	for i := 0; i+1 < len(nv); i += 2 {
		name, sensitive := strings.CutSuffix(nv[i], "!")
		out = append(out, vectors.Field{Name: name, Value: nv[i+1], Sensitive: sensitive})
	}
	return out
}

// wrongCode is the bug of an encoder whose Huffman code for 'a' has its
// last bit flipped: every oracle decodes it, as another octet, without
// error.
var wrongCode = broken.WrongHuffmanCode('a')

// wrongCodeStory returns a story of two blocks carrying content-type
// application/javascript, encoded with wrongCode: the first codes the
// value wrong, the second refers to the entry the first inserted.
func wrongCodeStory(t *testing.T) *vectors.Story {
	t.Helper()
	in := list(":status", "200", "content-type", "application/javascript")
	st, err := certify.EncodeStory(certifytest.BrokenTarget(wrongCode), &vectors.Story{Path: "wrong-code", Cases: []vectors.Case{{Headers: in}, {Headers: in}}})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// gradeRecorded grades stories as recorded wire, their lists inferred or
// known.
func gradeRecorded(t *testing.T, inferred bool, stories ...*vectors.Story) map[string]*certify.Result {
	t.Helper()
	rec, err := transcript.FromStories("recorded", "test", stories)
	if err != nil {
		t.Fatal(err)
	}
	rec.InferredLists = inferred
	target, err := certify.Recorded(rec)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := certify.Run([]certify.Target{target}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results[rep.Encoders[0]]
}

// TestHuffmanDefectOfAKnownList checks that where the fields an encoder
// was given are known (in process, recorded with its input), a wrong
// Huffman code that every oracle decodes cleanly, as another octet, is
// still the encoder's defect, enc/5.2/4, and no transformation.
func TestHuffmanDefectOfAKnownList(t *testing.T) {
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/4"}
	rep, err := certify.Run([]certify.Target{certifytest.BrokenTarget(wrongCode)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	certifytest.CheckHuffmanOctetCaught(t, rep, rep.Encoders[0], 'a')

	res := gradeRecorded(t, false, wrongCodeStory(t))
	if r := res["enc/5.2/4"]; r.Grade != certify.Fail || !strings.Contains(r.Detail, "octet 0x61 at position 0 decodes as") {
		t.Errorf("recorded with its input: enc/5.2/4 %v (%s); want fail naming octet 0x61", r.Grade, r.Detail)
	}
	if r := res["enc/3.2/1"]; strings.Contains(r.Detail, "transformation") {
		t.Errorf("recorded with its input: enc/3.2/1 %v (%s); want no transformation", r.Grade, r.Detail)
	}
}

// TestInferredListsDecodedOtherwise checks Recording.InferredLists: a block
// every oracle decodes alike and without error, to other fields than the
// list inferred, is judged as it decodes by every rule of the wire, and
// the difference is listed under enc/3.2/1, field by field; a block an
// oracle rejects is a divergence as before.
func TestInferredListsDecodedOtherwise(t *testing.T) {
	ref := certify.Func("ref", func() certify.Encoder { return certify.NewReference(encoder.Config{}) })
	// encoded returns a story whose wire encodes wrote and whose lists
	// say inferred.
	encoded := func(path string, wrote, inferred [][]vectors.Field) *vectors.Story {
		st := &vectors.Story{Path: path}
		for _, l := range wrote {
			st.Cases = append(st.Cases, vectors.Case{Headers: l})
		}
		st, err := certify.EncodeStory(ref, st)
		if err != nil {
			t.Fatal(err)
		}
		for i := range st.Cases {
			st.Cases[i].Headers = inferred[i]
		}
		return st
	}
	changed := encoded("changed",
		[][]vectors.Field{
			list(":status", "200", "set-cookie!", "t", "x-same", "1", "x-added", "z"),
			list(":status", "200", "x-same", "1", "x-added", "z"),
		},
		[][]vectors.Field{
			list(":status", "200", "x-sent", "a", "set-cookie!", "s", "x-same", "1"),
			list(":status", "200", "x-same", "1"),
		})

	for _, tc := range []struct {
		label   string
		stories []*vectors.Story
		want    map[string]certify.Grade
		detail  []string
	}{{
		label:   "a wrong Huffman code, inferred",
		stories: []*vectors.Story{wrongCodeStory(t)},
		want:    map[string]certify.Grade{"enc/3.2/1": certify.Fail},
		detail:  []string{`undeclared transformation: the target wrote 2 fields otherwise`, `in 2 blocks`, `"content-type": sent "application/javascript", relayed "`, `(2 times, first at story wrong-code, block 0)`},
	}, {
		label:   "values changed, fields added and left out; the sensitive mark kept",
		stories: []*vectors.Story{changed},
		want:    map[string]certify.Grade{"enc/3.2/1": certify.Fail},
		detail:  []string{`"x-sent": sent "a", not relayed (1 time, first at story changed, block 0)`, `"set-cookie": sent "s", relayed "t" (1 time`, `"x-added": not sent, relayed "z" (2 times, first at story changed, block 0)`},
	}, {
		label: "an oracle rejects the block: a divergence, no transformation",
		stories: func() []*vectors.Story {
			st := wrongCodeStory(t)
			st.Cases[0].Wire = st.Cases[0].Wire[:len(st.Cases[0].Wire)-1]
			return []*vectors.Story{st}
		}(),
		want:   map[string]certify.Grade{"enc/3.2/1": certify.Fail},
		detail: []string{"oracle strict: "},
	}} {
		t.Run(tc.label, func(t *testing.T) {
			res := gradeRecorded(t, true, tc.stories...)
			for id, r := range res {
				want, listed := tc.want[id]
				switch {
				case listed && r.Grade != want:
					t.Errorf("%s %v (%s); want %v", id, r.Grade, r.Detail, want)
				case !listed && (r.Grade == certify.Fail || r.Grade == certify.NonStrict):
					t.Errorf("%s %v (%s); want no failure", id, r.Grade, r.Detail)
				}
			}
			for _, want := range tc.detail {
				if !strings.Contains(res["enc/3.2/1"].Detail, want) {
					t.Errorf("enc/3.2/1 detail lacks %q: %s", want, res["enc/3.2/1"].Detail)
				}
			}
		})
	}
	if r := gradeRecorded(t, true, changed)["enc/7.1.3/1"]; r.Grade != certify.Pass {
		t.Errorf("enc/7.1.3/1 %v (%s); want pass: the relayed set-cookie keeps the mark of the one sent, and goes never-indexed", r.Grade, r.Detail)
	}
}
