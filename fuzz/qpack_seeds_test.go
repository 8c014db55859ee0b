package fuzz

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// qifPrefix starts the names of the seeds made from the QIF traffic
// (vectors/qif), which follow the traffic and the reference encoder's
// output: TestQPACKSeeds only writes them, as TestSeeds does the stories.
const qifPrefix = "qif-"

// qifSeedsPerFile is how many seeds of each target a QIF file makes: its
// first header lists, as many as fit a seed each time. The seven files
// hold 1,571 lists, which would make some 1,500 seeds of lists alike.
const qifSeedsPerFile = 6

// RFC 9204 Appendix B, as hex: the encoder-stream octets and field
// sections of its five examples, with a dynamic table capacity of 220.
const (
	rfcB1Section = "0000510b2f696e6465782e68746d6c"
	rfcB2Stream  = "3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468"
	rfcB2Section = "03811011"
	rfcB3Stream  = "4a637573746f6d2d6b65790c637573746f6d2d76616c7565"
	rfcB4Stream  = "02"
	rfcB4Section = "050080c181"
	rfcB5Stream  = "810d637573746f6d2d76616c756532"
)

var rfcBSettings = qpack.Settings{MaxTableCapacity: 220, BlockedStreams: 1}

func unhexQ(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// rfcBSession is the decoder side of Appendix B in order: B.1 on stream
// 0, B.2's inserts and section on stream 4, B.3's insert, B.4's
// duplicate and section on stream 8, which is then reset, and B.5's
// insert that evicts.
func rfcBSession() *QSession {
	return &QSession{Settings: rfcBSettings, Steps: []QStep{
		{Kind: QStepSection, Data: unhexQ(rfcB1Section)},
		{Kind: QStepEncoderStream, Data: unhexQ(rfcB2Stream)},
		{Kind: QStepSection, Data: unhexQ(rfcB2Section)},
		{Kind: QStepEncoderStream, Data: unhexQ(rfcB3Stream)},
		{Kind: QStepEncoderStream, Data: unhexQ(rfcB4Stream)},
		{Kind: QStepSection, Data: unhexQ(rfcB4Section)},
		{Kind: QStepReset, N: 2},
		{Kind: QStepEncoderStream, Data: unhexQ(rfcB5Stream)},
	}}
}

// rfcBLists are the header lists of Appendix B's sections.
var rfcBLists = [][]qpack.Field{
	{{Name: ":path", Value: "/index.html"}},
	{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}},
	{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/"}, {Name: "custom-key", Value: "custom-value"}},
}

// qpackSeeds returns the generated seeds of the QPACK targets, target to
// file name to contents: Appendix B of RFC 9204, sections every decoder
// must refuse, the examples of qpackDifferences, and the first header lists of each
// QIF file, encoded by the reference encoder for the decoders target.
func qpackSeeds(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	out := map[string]map[string][]byte{targetQPACKEncodeRoundTrip: {}, targetQPACKDecoders: {}}
	add := func(target, name string, seed interface{ Bytes() ([]byte, error) }) {
		b, err := seed.Bytes()
		if err != nil {
			t.Fatalf("seed %s/%s: %v", target, name, err)
		}
		if _, dup := out[target][name]; dup {
			t.Fatalf("seed %s/%s made twice", target, name)
		}
		out[target][name] = b
	}

	add(targetQPACKDecoders, "rfc9204-B", rfcBSession())
	// B.2's section before its inserts: blocked, then unblocked.
	add(targetQPACKDecoders, "rfc9204-B.2-blocked", &QSession{Settings: rfcBSettings, Steps: []QStep{
		{Kind: QStepSection, Data: unhexQ(rfcB2Section)},
		{Kind: QStepEncoderStream, Data: unhexQ(rfcB2Stream)},
	}})
	for name, section := range map[string]string{
		"bad-static-index-99":       "0000ff24",
		"bad-dynamic-ref-ric-0":     "000080",
		"bad-post-base-ric-0":       "000010",
		"bad-ric-past-full-range":   "0d00d1",
		"bad-integer-cut":           "0000d1ff",
		"bad-huffman-padding-zeros": "0000518100",
	} {
		add(targetQPACKDecoders, name, &QSession{Settings: rfcBSettings, Steps: []QStep{{Kind: QStepSection, Data: unhexQ(section)}}})
	}
	for _, k := range qpackDifferences {
		add(targetQPACKDecoders, "known-"+k.name, &QSession{Settings: rfcBSettings, Steps: []QStep{{Kind: QStepSection, Data: unhexQ(k.example)}}})
	}
	for name, stream := range map[string]string{
		"bad-capacity-above-setting": "3fbe01",
		"bad-insert-before-capacity": rfcB3Stream,
		"bad-duplicate-empty-table":  "3fbd0100",
		"bad-static-insert-index-99": "3fbd01ff2400",
	} {
		add(targetQPACKDecoders, name, &QSession{Settings: rfcBSettings, Steps: []QStep{{Kind: QStepEncoderStream, Data: unhexQ(stream)}}})
	}

	rfcScript := func(schedule ...QOp) *QScript {
		s := &QScript{Settings: rfcBSettings}
		for _, list := range rfcBLists {
			for _, f := range list {
				s.Ops = append(s.Ops, QOp{Kind: QOpField, Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
			}
			s.Ops = append(append(s.Ops, QOp{Kind: QOpEndSection}), schedule...)
		}
		return s
	}
	add(targetQPACKEncodeRoundTrip, "rfc9204-B-prompt", rfcScript(QOp{Kind: QOpEncoderStream}, QOp{Kind: QOpSection}, QOp{Kind: QOpFeedback}))
	add(targetQPACKEncodeRoundTrip, "rfc9204-B-late", rfcScript(QOp{Kind: QOpSection}, QOp{Kind: QOpEncoderStream, N: 5}, QOp{Kind: QOpFeedback, N: 1}))
	add(targetQPACKEncodeRoundTrip, "rfc9204-B-reset", rfcScript(QOp{Kind: QOpEncoderStream}, QOp{Kind: QOpReset}, QOp{Kind: QOpFeedback}))

	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(f.Name, filepath.Ext(f.Name))
		lists := f.HeaderLists
		for n := 0; n < qifSeedsPerFile && len(lists) > 0; n++ {
			s := &QScript{Settings: qifSettings[n%len(qifSettings)]}
			schedule := qifSchedules[n%len(qifSchedules)]
			lists = fitQScript(s, lists, schedule)
			name := fmt.Sprintf("%s%s-%02d", qifPrefix, base, n)
			add(targetQPACKEncodeRoundTrip, name, s)
			add(targetQPACKDecoders, name, fitQSession(t, encodeQScript(t, s)))
		}
	}
	return out
}

// The settings and schedules the QIF seeds take in turn.
var (
	qifSettings  = []qpack.Settings{{MaxTableCapacity: 4096, BlockedStreams: 100}, {MaxTableCapacity: 220, BlockedStreams: 1}, {MaxTableCapacity: 0}, {MaxTableCapacity: 1024, BlockedStreams: 16}}
	qifSchedules = [][]QOp{
		{{Kind: QOpEncoderStream}, {Kind: QOpSection}, {Kind: QOpFeedback}},
		{{Kind: QOpSection}, {Kind: QOpEncoderStream, N: 7}, {Kind: QOpFeedback, N: 3}},
		nil, // everything at the end
	}
)

// fitQScript adds to s the header lists, each followed by schedule, while
// the script fits MaxScriptInput, and returns the lists left. A list that
// does not fit a script of its own is cut to the fields that do.
func fitQScript(s *QScript, lists [][]qpack.Field, schedule []QOp) [][]qpack.Field {
	for len(lists) > 0 {
		before := len(s.Ops)
		fields := 0
		for _, f := range lists[0] {
			s.Ops = append(s.Ops, QOp{Kind: QOpField, Name: f.Name, Value: f.Value[:min(len(f.Value), MaxString)], Sensitive: f.Sensitive})
			if !qscriptFits(s, schedule) && before > 0 {
				s.Ops = s.Ops[:len(s.Ops)-1]
				break
			}
			// A list alone in its seed keeps what fits of the field that
			// does not: its value cut.
			last := &s.Ops[len(s.Ops)-1]
			for len(last.Value) > 0 && !qscriptFits(s, schedule) {
				last.Value = last.Value[:len(last.Value)*3/4]
			}
			if !qscriptFits(s, schedule) {
				s.Ops = s.Ops[:len(s.Ops)-1]
				break
			}
			fields++
		}
		whole := fields == len(lists[0])
		if !whole && before > 0 {
			s.Ops = s.Ops[:before] // the list makes the next seed
			return lists
		}
		s.Ops = append(append(s.Ops, QOp{Kind: QOpEndSection}), schedule...)
		lists = lists[1:]
		if !whole {
			return lists
		}
	}
	return lists
}

// qscriptFits reports whether s, with an end of section and schedule
// after it, is read whole by ParseQScript.
func qscriptFits(s *QScript, schedule []QOp) bool {
	t := &QScript{Settings: s.Settings, Ops: append(append(append([]QOp(nil), s.Ops...), QOp{Kind: QOpEndSection}), schedule...)}
	b, err := t.Bytes()
	return err == nil && new(QScript).parse(b) == len(b)
}

// encodeQScript encodes the header lists of s with the reference encoder,
// each section delivered after its inserts and acknowledged at once, and
// returns what the decoder side receives.
func encodeQScript(t *testing.T, s *QScript) *QSession {
	t.Helper()
	enc, err := newQPACKEncoder(s.Settings)
	if err != nil {
		t.Fatal(err)
	}
	dec := qstrict.New(qstrictSettings(s.Settings))
	out := &QSession{Settings: s.Settings}
	var list []qpack.Field
	var stream uint64
	for _, op := range s.Ops {
		switch op.Kind {
		case QOpField:
			list = append(list, qpack.Field{Name: op.Name, Value: op.Value, Sensitive: op.Sensitive})
		case QOpEndSection:
			section, inserts, err := enc.EncodeSection(stream, list)
			if err != nil {
				t.Fatal(err)
			}
			list = nil
			if len(inserts) > 0 {
				out.Steps = append(out.Steps, QStep{Kind: QStepEncoderStream, Data: inserts})
			}
			out.Steps = append(out.Steps, QStep{Kind: QStepSection, Data: section})
			if err := dec.EncoderStream(inserts); err != nil {
				t.Fatal(err)
			}
			if _, _, err := dec.DecodeSection(stream, section); err != nil {
				t.Fatal(err)
			}
			if _, err := enc.DecoderStream(dec.DecoderStreamOut()); err != nil {
				t.Fatal(err)
			}
			stream += 4
		}
	}
	return out
}

// fitQSession drops steps from the end of s until ParseQSession reads
// all of it.
func fitQSession(t *testing.T, s *QSession) *QSession {
	t.Helper()
	for {
		b, err := s.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if new(QSession).parse(b) == len(b) {
			return s
		}
		s.Steps = s.Steps[:len(s.Steps)-1]
	}
}

// TestQPACKSeeds checks that corpus/<Target>/ holds every generated QPACK
// seed that does not follow the traffic or the encoder; with -update it
// writes them all. Run go run ./corpus/cmd/corpussync afterwards.
func TestQPACKSeeds(t *testing.T) {
	checkSeeds(t, qpackSeeds(t), qifPrefix, "TestQPACKSeeds")
}
