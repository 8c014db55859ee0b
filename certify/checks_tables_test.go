package certify

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

func TestCheckTableDiff(t *testing.T) {
	a1, b2 := oracle.Field{Name: "a", Value: "1"}, oracle.Field{Name: "b", Value: "2"}
	tests := []struct {
		label  string
		reason string
		a, b   []oracle.Field
		want   string // a substring of the difference; "" for none
	}{
		{"both empty", "two empty tables agree", nil, nil, ""},
		{"equal", "the same entries in the same order", []oracle.Field{a1, b2}, []oracle.Field{a1, b2}, ""},
		{"first entry differs", "the newest entry is index 62",
			[]oracle.Field{a1}, []oracle.Field{b2}, `entry 0 (index 62) is "b": "2", not "a": "1"`},
		{"second entry differs", "entry i is index 62+i",
			[]oracle.Field{a1, a1}, []oracle.Field{a1, b2}, `entry 1 (index 63) is "b": "2", not "a": "1"`},
		{"value differs", "the same name with another value is another entry",
			[]oracle.Field{a1}, []oracle.Field{{Name: "a", Value: "2"}}, `entry 0 (index 62) is "a": "2"`},
		{"name differs", "the same value under another name is another entry",
			[]oracle.Field{a1}, []oracle.Field{{Name: "b", Value: "1"}}, `entry 0 (index 62) is "b": "1"`},
		{"second table longer", "the same entries and one more: the length matters",
			[]oracle.Field{a1}, []oracle.Field{a1, b2}, "2 entries (size 68), not 1 (size 34)"},
		{"first table longer", "one entry evicted on one side only",
			[]oracle.Field{a1, b2}, []oracle.Field{a1}, "1 entries (size 34), not 2 (size 68)"},
		{"one table empty", "an empty table against one entry",
			nil, []oracle.Field{a1}, "1 entries (size 34), not 0 (size 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got := tableDiff(tt.a, tt.b)
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("tableDiff = %q; want %q: %s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckFieldsDiff(t *testing.T) {
	a1, b2 := Field{Name: "a", Value: "1"}, Field{Name: "b", Value: "2"}
	oa1, ob2 := oracle.Field{Name: "a", Value: "1"}, oracle.Field{Name: "b", Value: "2"}
	tests := []struct {
		label  string
		reason string
		sent   []Field
		got    []oracle.Field
		want   string // a substring of the difference; "" for none
	}{
		{"both empty", "an empty block decodes to no field", nil, nil, ""},
		{"equal", "the fields sent, in order", []Field{a1, b2}, []oracle.Field{oa1, ob2}, ""},
		{"sensitive never indexed", "the representation is enc/7.1.3/1's, not the field's",
			[]Field{{Name: "a", Value: "1", Sensitive: true}}, []oracle.Field{oa1}, ""},
		{"order differs", "the same fields in another order",
			[]Field{a1, b2}, []oracle.Field{ob2, oa1}, `field 0 is "b": "2", want "a": "1"`},
		{"value differs", "the second field's value",
			[]Field{a1, a1}, []oracle.Field{oa1, {Name: "a", Value: "2"}}, `field 1 is "a": "2", want "a": "1"`},
		{"name differs", "the second field's name",
			[]Field{a1, a1}, []oracle.Field{oa1, {Name: "b", Value: "1"}}, `field 1 is "b": "1"`},
		{"fewer decoded", "a field lost", []Field{a1, b2}, []oracle.Field{oa1}, "1 fields, want 2"},
		{"more decoded", "a field too many", []Field{a1}, []oracle.Field{oa1, ob2}, "2 fields, want 1"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got := fieldsDiff(tt.sent, tt.got)
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("fieldsDiff = %q; want %q: %s", got, tt.want, tt.reason)
			}
		})
	}
}

// tableOracle is an oracle that only shows a given table.
type tableOracle struct {
	name  string
	table []oracle.Field
}

func (d *tableOracle) Name() string                  { return d.name }
func (d *tableOracle) SetMaxDynamicTableSize(uint32) {}
func (d *tableOracle) Table() []oracle.Field         { return d.table }
func (d *tableOracle) DecodeBlock([]byte) ([]oracle.Field, error) {
	return nil, errors.New("tableOracle decodes nothing")
}

// tableEncoder is an encoder that only shows a given table.
type tableEncoder struct{ table []oracle.Field }

func (e *tableEncoder) SetMaxDynamicTableSize(uint32) error { return nil }
func (e *tableEncoder) Table() []oracle.Field               { return e.table }
func (e *tableEncoder) EncodeBlock(dst []byte, _ []Field) ([]byte, error) {
	return dst, nil
}

func TestCheckCompareTables(t *testing.T) {
	t1 := []oracle.Field{{Name: "a", Value: "1"}}
	t2 := []oracle.Field{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}
	tests := []struct {
		label  string
		reason string
		tables [][]oracle.Field // one oracle per table, named o0, o1, ...
		broken []bool
		enc    Encoder
		want   string
	}{
		{"oracles agree", "no encoder table to compare", [][]oracle.Field{t1, t1}, []bool{false, false}, nil, ""},
		{"oracles disagree", "the second oracle's table is longer",
			[][]oracle.Field{t1, t2}, []bool{false, false}, nil, "oracles o0 and o1 disagree: 2 entries (size 68), not 1 (size 34)"},
		{"broken oracle skipped", "a broken oracle's table is undefined",
			[][]oracle.Field{t1, t2}, []bool{false, true}, nil, ""},
		{"first oracle broken", "the first oracle in a defined state is the reference",
			[][]oracle.Field{t2, t1, t2}, []bool{true, false, false}, nil, "oracles o1 and o2 disagree"},
		{"encoder agrees", "the encoder shows the oracles' table", [][]oracle.Field{t1}, []bool{false}, &tableEncoder{t1}, ""},
		{"encoder disagrees", "the encoder shows one entry more",
			[][]oracle.Field{t1}, []bool{false}, &tableEncoder{t2}, "the encoder's table differs from oracle o0's: 2 entries"},
		{"every oracle broken", "nothing to compare the encoder with", [][]oracle.Field{t1}, []bool{true}, &tableEncoder{t2}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			var ds []oracle.Decoder
			for i, table := range tt.tables {
				ds = append(ds, &tableOracle{name: fmt.Sprintf("o%d", i), table: table})
			}
			got, compared := compareTables(ds, tt.broken, tt.enc)
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("compareTables = %q; want %q: %s", got, tt.want, tt.reason)
			}
			// Without a disagreement, every table left is compared: the
			// oracles not broken, and the encoder's when one is.
			wantCompared := 0
			for _, broken := range tt.broken {
				if !broken {
					wantCompared++
				}
			}
			if _, ok := tt.enc.(TableReader); ok && wantCompared > 0 {
				wantCompared++
			}
			if tt.want == "" && compared != wantCompared {
				t.Errorf("compareTables compared %d tables; want %d: %s", compared, wantCompared, tt.reason)
			}
		})
	}
}

func TestCheckFieldFor(t *testing.T) {
	// 3fe11f: update to 4096; 82: ":method: GET"; 04 01 61: ":path: a".
	b := playBlocks([]block{{Headers: []Field{methodGET}, Wire: hexWire("3fe11f 82 04 0161")}})[0]
	tests := []struct {
		label  string
		reason string
		rep    int
		want   Field
		ok     bool
	}{
		{"first field after an update", "the update is not a field", 1, methodGET, true},
		{"more representations than fields", "the second field was not sent", 2, Field{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got, ok := b.fieldFor(tt.rep)
			if got != tt.want || ok != tt.ok {
				t.Errorf("fieldFor(%d) = %v, %t; want %v, %t: %s", tt.rep, got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
}

func TestCheckBlockRules(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	inner := func(*playedBlock) (string, bool) { return "inner rule ran", true }
	tests := []struct {
		label     string
		reason    string
		rule      blockRule
		blocks    []block
		tableDiff string // set on the last block after it is played
		want      string // a substring of the problem; "" for none
	}{
		// 04: literal without indexing, name :path; 01 61: raw "a".
		{"round trip", "every oracle decodes the field sent", roundTrip,
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, "", ""},
		// 04; 81 8f: Huffman "b", sent for "a".
		{"round trip, other field", "strict decodes another value", roundTrip,
			[]block{{Headers: path("a"), Wire: hexWire("04 818f")}}, "", `oracle strict decoded other fields: field 0 is ":path": "b", want ":path": "a"`},
		// 80: index 0.
		{"round trip, oracle error", "strict rejects index 0", roundTrip,
			[]block{{Wire: hexWire("80")}}, "", "oracle strict: hpack: offset 0: RFC 7541 §6.1: index 0 is not used"},
		// After oraclesBroken, 04 818f would decode wrong, but no oracle runs.
		{"round trip, every context broken", "an oracle whose context broke is not asked", roundTrip,
			[]block{oraclesBroken, {Headers: path("a"), Wire: hexWire("04 818f")}}, "", ""},
		{"tables agree", "no difference recorded", tablesAgree,
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, "", ""},
		{"tables disagree", "the difference recorded after the block is reported", tablesAgree,
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, "1 entries", "after the block, 1 entries"},
		// 04; 05 61: a string of 5 octets with 1 left.
		{"walked, cut short", "a block the walker cannot split is left to the owner of its divergence", walked(inner),
			[]block{{Headers: path("a"), Wire: hexWire("04 0561")}}, "", ""},
		{"walked, whole", "a block that walks is given to the rule", walked(inner),
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, "", "inner rule ran"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			played := playBlocks(tt.blocks)
			b := played[len(played)-1]
			if tt.tableDiff != "" {
				b.tableDiff = tt.tableDiff
			}
			problem, bad := tt.rule(b)
			if wantBad := tt.want != ""; bad != wantBad {
				t.Fatalf("got bad %t (%q); want %t: %s", bad, problem, wantBad, tt.reason)
			}
			if tt.want == "" && problem != "" || !strings.Contains(problem, tt.want) {
				t.Errorf("got problem %q; want one containing %q: %s", problem, tt.want, tt.reason)
			}
		})
	}
}
