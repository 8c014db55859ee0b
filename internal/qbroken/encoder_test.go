package qbroken

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// trafficLimit is how many lists of each QIF file the tests take.
func trafficLimit() int {
	if testing.Short() {
		return 60
	}
	return 150
}

var roundTripFiles = []string{"fb-req-hq.qif", "fb-resp-hq.qif", "netbsd-hq.qif"}

// TestNoneRoundTrips checks that the encoder without a bug is a correct
// one: every list of the QIF traffic decodes, by the strict decoder, to
// what was sent, over every schedule and setting, and the features
// the settings allow are used — the dynamic table, blocking references
// with post-base indices, Duplicates, more inserts than 2*MaxEntries (a
// Required Insert Count that wraps) — and one Set Dynamic Table Capacity,
// first, of min(1024, the setting).
func TestNoneRoundTrips(t *testing.T) {
	lists := traffic(t, trafficLimit(), roundTripFiles...)
	used := map[string]int{}
	for _, capacity := range []uint64{0, 256, 4096} {
		for _, blocked := range []uint64{0, 100} {
			for _, sched := range []schedule{{}, {lag: 3}, {lateSections: true, lag: 3}} {
				s := qpack.Settings{MaxTableCapacity: capacity, BlockedStreams: blocked}
				label := fmt.Sprintf("capacity %d, blocked %d, %+v", capacity, blocked, sched)
				o := play(New(None, s), s, sched, lists, nil)
				wantClean(t, label, o)
				st, err := count(o)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				dynamic := st.lines[qspec.IndexedPostBase] + st.lines[qspec.Indexed] - st.staticIndexed
				switch {
				case capacity == 0 && len(o.encoderStream) > 0:
					t.Errorf("%s: encoder stream %x; want nothing", label, o.encoderStream)
				case capacity > 0 && dynamic == 0:
					t.Errorf("%s: no dynamic reference", label)
				case blocked == 0 && o.blocked > 0:
					t.Errorf("%s: %d sections blocked; want none", label, o.blocked)
				}
				if capacity > 0 && st.instructions[qspec.SetCapacity] != 1 {
					t.Errorf("%s: %d Set Dynamic Table Capacity instructions; want 1", label, st.instructions[qspec.SetCapacity])
				}
				if capacity > 0 && !bytes.HasPrefix(o.encoderStream, appendSetCapacity(nil, min(capacity, ownCapacity))) {
					t.Errorf("%s: encoder stream starts %x; want the capacity %d first", label, o.encoderStream[:min(4, len(o.encoderStream))], min(capacity, ownCapacity))
				}
				if capacity > 0 && st.largestEncoded > 2*(capacity/32) {
					t.Errorf("%s: EncodedInsertCount %d above 2*MaxEntries", label, st.largestEncoded)
				}
				used["blocked sections"] += o.blocked
				used["post-base references"] += st.lines[qspec.IndexedPostBase] + st.lines[qspec.LiteralPostBaseRef]
				used["duplicates"] += st.instructions[qspec.Duplicate]
				used["inserts with a name reference"] += st.instructions[qspec.InsertNameRef]
				used["inserts with a literal name"] += st.instructions[qspec.InsertLiteralName]
				used["Huffman strings"] += st.huffman
				used["N bits"] += countNeverIndexed(o)
				if capacity == 256 && st.instructions[qspec.InsertNameRef]+st.instructions[qspec.InsertLiteralName]+st.instructions[qspec.Duplicate] > 2*8 {
					used["more inserts than 2*MaxEntries"]++
				}
			}
		}
	}
	for _, what := range []string{"blocked sections", "post-base references", "duplicates", "inserts with a name reference", "inserts with a literal name", "Huffman strings", "N bits", "more inserts than 2*MaxEntries"} {
		if used[what] == 0 {
			t.Errorf("no %s over all the runs", what)
		}
	}
	t.Logf("over all runs: %v", used)
}

func countNeverIndexed(o outcome) int {
	n := 0
	for _, section := range o.sections {
		_, lines, _ := qspec.WalkSection(section, len(section))
		for _, l := range lines {
			if l.NeverIndexed {
				n++
			}
		}
	}
	return n
}

// TestDecoderStreamRefusals checks the three refusals of §4.4 and that an
// instruction may arrive in pieces.
func TestDecoderStreamRefusals(t *testing.T) {
	s := qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100}
	fields := []qpack.Field{{Name: "x-one", Value: "1"}, {Name: "x-two", Value: "2"}}
	tests := []struct {
		label   string
		told    []byte
		refused bool
	}{
		{"acknowledgment of the section of stream 4", []byte{0x84}, false},
		{"the same acknowledgment twice", []byte{0x84, 0x84}, true},
		{"acknowledgment of stream 8, which sent nothing", []byte{0x88}, true},
		{"acknowledgment of stream 0, whose section referenced nothing", []byte{0x80}, true},
		{"increment of the two inserts", []byte{0x02}, false},
		{"increment of 0", []byte{0x00}, true},
		{"increment of 3 with two inserts", []byte{0x03}, true},
		{"acknowledgment then an increment past it", []byte{0x84, 0x01}, true},
		{"cancellation of a stream with nothing outstanding", []byte{0x48}, false},
		{"cancellation, then the cancelled section acknowledged", []byte{0x44, 0x84}, true},
		{"stream 132 in a two-octet integer, in pieces", []byte{0xff, 0x05}, false},
	}
	for _, tt := range tests {
		e := New(None, s)
		// Seen once, the fields are literals on stream 0; seen again,
		// they are inserted and referenced by the sections of 4 and 132.
		if _, _, err := e.EncodeSection(0, fields); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.EncodeSection(4, fields); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.EncodeSection(132, fields); err != nil {
			t.Fatal(err)
		}
		var err error
		for i := range tt.told {
			if _, err = e.DecoderStream(tt.told[i : i+1]); err != nil {
				break
			}
		}
		ce := qpack.AsConnectionError(err)
		switch {
		case tt.refused && (ce == nil || ce.Code != qpack.DecoderStreamError):
			t.Errorf("%s: error %v; want a %s", tt.label, err, qpack.DecoderStreamError)
		case !tt.refused && err != nil:
			t.Errorf("%s: %v; want none", tt.label, err)
		}
	}
}
