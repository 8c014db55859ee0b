package qbroken

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

var (
	roomy = qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100}
	small = qpack.Settings{MaxTableCapacity: 256, BlockedStreams: 100}
	// smallUnblocked makes the encoder insert entries it cannot reference
	// yet, which wait for their acknowledgment unreferenced.
	smallUnblocked = qpack.Settings{MaxTableCapacity: 256}
	noTable        = qpack.Settings{}
	esLate         = schedule{lag: 3}
)

// refusal is a bug the strict decoder refuses: with the bug's encoder on
// settings s, under sched, the first error is code under the RFC section
// (reason, when set, is part of its reason).
type refusal struct {
	s             qpack.Settings
	sched         schedule
	code, section string
	reason        string
}

var refusals = map[Bug][]refusal{
	CapacityAboveMax:       {{small, esLate, qstrict.EncoderStreamError, "§4.3.1", ""}},
	NoSetCapacity:          {{roomy, esLate, qstrict.EncoderStreamError, "§3.2.2", "capacity 0"}},
	BlockedOneTooMany:      {{qpack.Settings{MaxTableCapacity: 4096}, esLate, qstrict.DecompressionFailed, "§2.2.1", ""}},
	ReferenceAtRIC:         {{roomy, esLate, qstrict.DecompressionFailed, "§2.2.3", "not below the Required Insert Count"}},
	StaticIndexPastTable:   {{noTable, esLate, qstrict.DecompressionFailed, "§3.1", ""}, {roomy, schedule{lateSections: true, lag: 3}, qstrict.EncoderStreamError, "§3.1", ""}},
	IntegerTooLong:         {{noTable, esLate, qstrict.DecompressionFailed, "§4.5.4", "longer than 64 bits"}},
	HuffmanZeroPadding:     {{noTable, esLate, qstrict.DecompressionFailed, "§4.1.2", "not all ones"}},
	DuplicateNeverInserted: {{small, esLate, qstrict.EncoderStreamError, "§4.3.4", ""}},
	RICOneTooLarge:         {{roomy, esLate, qstrict.DecompressionFailed, "§4.5.1.1", "the largest absolute index referenced"}},
	RICNoModulo:            {{small, esLate, qstrict.DecompressionFailed, "§4.5.1.1", "above 2*MaxEntries"}},
	NegativeBase:           {{roomy, esLate, qstrict.DecompressionFailed, "§4.5.1.2", "negative Base"}},
}

// clean is a bug the strict decoder does not see: with the bug's encoder
// on settings s, every list decodes (the decoder's own settings dec,
// preface on its encoder stream, standing for a decoder that tolerated a
// violation it would refuse), and check finds the bug in what was written.
type clean struct {
	label   string
	s, dec  qpack.Settings
	preface []byte
	check   func(t *testing.T, label string, bug, none outcome)
}

var cleans = map[Bug][]clean{
	CapacityAboveMax: {{"tolerated by a decoder of capacity 257", small, qpack.Settings{MaxTableCapacity: 257, BlockedStreams: 100}, nil, nil}},
	NoSetCapacity:    {{"decoded as if the capacity had been set", roomy, roomy, appendSetCapacity(nil, 4096), nil}},
	BlockedOneTooMany: {{"tolerated by a decoder allowing one blocked stream", qpack.Settings{MaxTableCapacity: 4096},
		qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 1}, nil, nil}},
	InstructionWithZeroMax: {{"capacity 0", noTable, noTable, nil, func(t *testing.T, label string, bug, _ outcome) {
		if !bytes.Equal(bug.encoderStream, []byte{0x20}) {
			t.Errorf("%s: encoder stream %x; want a Set Dynamic Table Capacity of 0, 20", label, bug.encoderStream)
		}
	}}},
	EvictUnacknowledged: {{"small table, no blocking", smallUnblocked, smallUnblocked, nil, func(t *testing.T, label string, bug, _ outcome) {
		if bug.unackedEvictions == 0 {
			t.Errorf("%s: no write evicted an unacknowledged entry", label)
		}
	}}},
	FieldsOutOfOrder: {{"roomy table", roomy, roomy, nil, nil}},
	SensitiveInserted: {{"roomy table", roomy, roomy, nil, func(t *testing.T, label string, bug, _ outcome) {
		if bug.sensitiveInserted == 0 {
			t.Errorf("%s: no sensitive field in the table", label)
		}
	}}},
	NeverHuffman:       {{"roomy table", roomy, roomy, nil, wantCount(func(s stats) int { return s.huffman }, "Huffman strings")}},
	StaticMatchNotUsed: {{"roomy table", roomy, roomy, nil, wantCount(func(s stats) int { return s.staticIndexed }, "static Indexed Field Lines")}, {"no table", noTable, noTable, nil, wantCount(func(s stats) int { return s.staticIndexed }, "static Indexed Field Lines")}},
	NoDynamicTable: {{"roomy table", roomy, roomy, nil, wantCount(func(s stats) int {
		return len(s.instructions) + s.lines[qspec.Indexed] - s.staticIndexed + s.lines[qspec.IndexedPostBase]
	}, "instructions and dynamic references")}},
	// The decoder-stream bugs differ only on decoder-stream octets no
	// conforming decoder writes: TestDecoderStreamBugs shows them.
	BogusAckAccepted:      {{"roomy table", roomy, roomy, nil, same}},
	IncrementZeroAccepted: {{"roomy table", roomy, roomy, nil, same}},
	IncrementPastAccepted: {{"roomy table", roomy, roomy, nil, same}},
}

// wantCount returns a check that what of the bug's output is 0 and of the
// correct encoder's is not.
func wantCount(what func(stats) int, name string) func(*testing.T, string, outcome, outcome) {
	return func(t *testing.T, label string, bug, none outcome) {
		b, errB := count(bug)
		n, errN := count(none)
		if errB != nil || errN != nil {
			t.Fatalf("%s: %v, %v", label, errB, errN)
		}
		if what(b) != 0 || what(n) == 0 {
			t.Errorf("%s: %d %s with the bug, %d without; want 0 and some", label, what(b), name, what(n))
		}
	}
}

// same checks that the bug's output is the correct encoder's.
func same(t *testing.T, label string, bug, none outcome) {
	if !bytes.Equal(bug.encoderStream, none.encoderStream) || !reflect.DeepEqual(bug.sections, none.sections) {
		t.Errorf("%s: output differs from the correct encoder's", label)
	}
}

// TestBugsShow checks each bug of Bugs on the QIF traffic: refused by the
// strict decoder with the code and RFC section of its rule, or decoded to
// every list sent (except for FieldsOutOfOrder, whose lists are the ones
// sent with two fields swapped) while its output shows the bug; the
// encoder with no bug passing the same runs clean.
func TestBugsShow(t *testing.T) {
	lists := traffic(t, trafficLimit(), roundTripFiles...)
	for _, p := range Bugs() {
		rs, cs := refusals[p.Bug], cleans[p.Bug]
		if len(rs)+len(cs) == 0 {
			t.Errorf("%s: no check", p.Bug)
		}
		for _, r := range rs {
			label := string(p.Bug) + ", " + r.section
			wantClean(t, label+", no bug", play(New(None, r.s), r.s, r.sched, lists, nil))
			o := play(New(p.Bug, r.s), r.s, r.sched, lists, nil)
			wantRefusal(t, label, o, r.code, r.section)
			if o.err != nil && !strings.Contains(o.err.Error(), r.reason) {
				t.Errorf("%s: %v; want a reason with %q", label, o.err, r.reason)
			}
		}
		for _, c := range cs {
			label := string(p.Bug) + ", " + c.label
			none := play(New(None, c.s), c.s, esLate, lists, nil)
			wantClean(t, label+", no bug", none)
			o := play(New(p.Bug, c.s), c.dec, esLate, lists, c.preface)
			checkClean(t, label, p.Bug, o, lists)
			if c.check != nil {
				c.check(t, label, o, none)
			}
		}
	}
}

// checkClean checks that the one fault of a bug the strict decoder does
// not see is its own: FieldsOutOfOrder decodes lists swapped,
// EvictUnacknowledged evicts, SensitiveInserted inserts, and nothing else.
func checkClean(t *testing.T, label string, bug Bug, o outcome, lists [][]qpack.Field) {
	t.Helper()
	if bug == FieldsOutOfOrder {
		if len(o.mismatched) == 0 {
			t.Errorf("%s: every list decoded in order", label)
		}
		for _, i := range o.mismatched {
			swapped := append([]qpack.Field{lists[i][1], lists[i][0]}, lists[i][2:]...)
			if !reflect.DeepEqual(o.decoded[i], swapped) {
				t.Errorf("%s: list %d decoded to %v; want it with its first two fields swapped", label, i, o.decoded[i])
			}
		}
		o.mismatched = nil
	}
	if bug == EvictUnacknowledged {
		o.unackedEvictions = 0
	}
	if bug == SensitiveInserted {
		o.sensitiveInserted = 0
	}
	wantClean(t, label, o)
}

// TestDecoderStreamBugs checks the decoder-stream bugs: each accepts the
// octets the correct encoder refuses, and nothing else changes.
func TestDecoderStreamBugs(t *testing.T) {
	tests := []struct {
		bug  Bug
		told []byte
	}{
		{BogusAckAccepted, []byte{0x88}},
		{IncrementZeroAccepted, []byte{0x00}},
		{IncrementPastAccepted, []byte{0x03}},
	}
	for _, tt := range tests {
		for _, bug := range []Bug{None, tt.bug} {
			e := New(bug, roomy)
			for _, stream := range []uint64{0, 4} { // inserted when seen again
				if _, _, err := e.EncodeSection(stream, []qpack.Field{{Name: "x-one", Value: "1"}, {Name: "x-two", Value: "2"}}); err != nil {
					t.Fatal(err)
				}
			}
			_, err := e.DecoderStream(tt.told)
			if refused := qpack.AsConnectionError(err) != nil; refused != (bug == None) {
				t.Errorf("%s: told %x: error %v; want a refusal only without the bug", tt.bug, tt.told, err)
			}
			if bug == IncrementPastAccepted {
				if known := e.(*conn).knownReceived; known != 2 {
					t.Errorf("%s: Known Received Count %d after the increment; want the 2 inserts", bug, known)
				}
			}
		}
	}
}

// TestBugsTable checks that Bugs lists every bug once and pairs each with
// a qenc/ case id.
func TestBugsTable(t *testing.T) {
	seen := map[Bug]bool{}
	for _, p := range Bugs() {
		if seen[p.Bug] || p.Bug == None || !strings.HasPrefix(p.Case, "qenc/") {
			t.Errorf("%q under %q: listed twice, None, or not a qenc/ case", p.Bug, p.Case)
		}
		seen[p.Bug] = true
		if name := Target(p.Bug).Name(); name != "qbroken "+string(p.Bug) {
			t.Errorf("target name %q", name)
		}
	}
	if len(seen) < 14 {
		t.Errorf("%d bugs; want at least 14", len(seen))
	}
}
