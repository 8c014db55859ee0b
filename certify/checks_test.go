package certify

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

// The rules are tested on hand-built header blocks. Each block is written
// in hex, a space between representations, with a comment that reads it.
// The octets that recur:
//
//	82             indexed field 2, ":method: GET" (§6.1)
//	3f 45          size update to 100: 31 in the 5-bit prefix, then 69 (§6.3)
//	3f 46          size update to 101
//	3f e1 1f       size update to 4096: 31, then 4065 = 0x61 + 0x1f<<7
//	3f e2 1f       size update to 4097
//	06 73..74      the raw string "secret" (§5.2, H bit clear)
//	0f 08 / 1f 08  literal without indexing / never indexed, name index 23
//	               (authorization): 15 in the 4-bit prefix, then 8 (§6.2.2, §6.2.3)
//	57             literal with incremental indexing, name index 23 (§6.2.1)
//
// Huffman codes (Appendix B) used: 'a' 00011, 'b' 100011, '&' 11111000,
// '!' 1111111000; padding is the high bits of EOS, all ones.

var (
	methodGET = Field{Name: ":method", Value: "GET"}
	// authSecret is an authorization field the application did not mark
	// sensitive; authSensitive is the same field marked sensitive.
	authSecret    = Field{Name: "authorization", Value: "secret"}
	authSensitive = Field{Name: "authorization", Value: "secret", Sensitive: true}
)

// oraclesBroken is a first block that every oracle rejects and the wire
// walker reads: 80 is an indexed field of index 0, which §6.1 forbids.
// Blocks after it are judged on the wire alone, as after a real break of
// the oracles' context.
var oraclesBroken = block{Wire: hexWire("80")}

// hexWire decodes a hand-built block written as hex, spaces allowed. A
// malformed literal is a bug of a test table, so it panics.
func hexWire(parts ...string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(strings.Join(parts, ""), " ", ""))
	if err != nil {
		panic(fmt.Sprintf("hexWire(%q): %v", parts, err))
	}
	return b
}

// rawLiteral returns, in hex, s as a string literal with the H bit clear
// (§5.2): its length as a 7-bit prefix integer, then its octets.
func rawLiteral(s string) string {
	return hex.EncodeToString(append(encoder.AppendInteger(nil, 0x00, 7, uint64(len(s))), s...))
}

// playBlocks decodes the blocks as one recorded story, with every oracle,
// as a recorded target is graded.
func playBlocks(blocks []block) []*playedBlock {
	return playRecorded("checks_test", []story{{Path: "hand-built", Cases: blocks}}, nil, false).blocks
}

// ruleCase is a hand-built story for a block rule, which is applied to the
// story's last block.
type ruleCase struct {
	label  string
	reason string
	blocks []block
	// want is a substring of the problem the rule must report, or "" when
	// the rule must accept the block.
	want string
}

// testRule applies rule to the last block of each case's story and checks
// both its verdict and its problem.
func testRule(t *testing.T, rule blockRule, tests []ruleCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, tt := range tests {
		if seen[tt.label] {
			t.Fatalf("two cases are labelled %q", tt.label)
		}
		seen[tt.label] = true
		t.Run(tt.label, func(t *testing.T) {
			played := playBlocks(tt.blocks)
			for _, b := range played {
				if b.walkErr != nil {
					t.Fatalf("block %d (%x) does not walk: %v", b.index, b.wire, b.walkErr)
				}
			}
			problem, bad := rule(played[len(played)-1])
			if wantBad := tt.want != ""; bad != wantBad {
				t.Fatalf("got bad %t (%q); want %t: %s", bad, problem, wantBad, tt.reason)
			}
			if tt.want == "" && problem != "" || !strings.Contains(problem, tt.want) {
				t.Errorf("got problem %q; want one containing %q: %s", problem, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckSettingAt(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		acked  [][]uint32 // per block of the story
		want   uint32     // for its last block
	}{
		{"no setting", "a story starts at the initial SETTINGS_HEADER_TABLE_SIZE", [][]uint32{nil}, 4096},
		{"setting on the block", "a setting acknowledged before the block is in force for it", [][]uint32{{100}}, 100},
		{"last of several", "of settings acknowledged together the last is in force", [][]uint32{{100, 200}}, 200},
		{"setting of the first block", "a setting stays in force for the blocks after it", [][]uint32{{100}, nil, nil}, 100},
		{"later setting wins", "a later setting replaces an earlier one", [][]uint32{{100}, {300}, nil}, 300},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			st := &story{Path: tt.label}
			for _, acked := range tt.acked {
				st.Cases = append(st.Cases, block{TableSizes: acked})
			}
			b := &playedBlock{story: st, index: len(st.Cases) - 1}
			if got := settingAt(b); got != tt.want {
				t.Errorf("settingAt = %d; want %d: %s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckReducedSignalled(t *testing.T) {
	get := []Field{methodGET}
	testRule(t, reducedSignalled, []ruleCase{
		// 82: ":method: GET".
		{"no setting", "without a setting there is nothing to signal",
			[]block{{Headers: get, Wire: hexWire("82")}}, ""},
		{"setting equal to the maximum", "4096 leaves the table's maximum where it is: no update is needed",
			[]block{{TableSizes: []uint32{4096}, Headers: get, Wire: hexWire("82")}}, ""},
		{"setting one below the maximum", "4095 is below the maximum 4096: the block must start with an update",
			[]block{{TableSizes: []uint32{4095}, Headers: get, Wire: hexWire("82")}}, "went down from 4096 to 4095 but the block starts with no dynamic table size update"},
		{"setting raised", "a setting above the maximum forces no change",
			[]block{{TableSizes: []uint32{8192}, Headers: get, Wire: hexWire("82")}}, ""},
		// 3f45: update to 100; 82.
		{"update to the setting", "an update to exactly the new setting signals it",
			[]block{{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 82")}}, ""},
		// 3f46: update to 101; 82.
		{"update one above the setting", "an update to 101 leaves the table above the setting of 100",
			[]block{{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f46 82")}}, "went down from 4096 to 100 but the block's updates [101] end above it"},
		// 3f13: update to 50; 3f45: update to 100; 82.
		{"updates ending at the setting", "the last update counts: 50 then 100 ends at the setting",
			[]block{{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f13 3f45 82")}}, ""},
		// 3f45: 100; 3f46: 101; 82.
		{"updates ending above the setting", "the last update counts: 100 then 101 ends above the setting",
			[]block{{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 3f46 82")}}, "updates [100 101] end above it"},
		// Block 0 brings the maximum down to 100 (3f45 82); block 1 is 82.
		{"setting at the reduced maximum", "after an update to 100, a setting of 100 is not below the table's maximum",
			[]block{
				{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 82")},
				{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("82")},
			}, ""},
		{"setting below the reduced maximum", "after an update to 100, a setting of 99 is below the table's maximum",
			[]block{
				{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 82")},
				{TableSizes: []uint32{99}, Headers: get, Wire: hexWire("82")},
			}, "went down from 100 to 99"},
		// An empty block.
		{"block without fields", "a block without fields is enc/4.2/4's (emptyBlockSignalled)",
			[]block{{TableSizes: []uint32{100}, Wire: hexWire()}}, ""},
		{"two settings", "several settings in one interval are enc/4.2/2's (smallestSignalled)",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("82")}}, ""},
	})
}

func TestCheckSmallestSignalled(t *testing.T) {
	get := []Field{methodGET}
	testRule(t, smallestSignalled, []ruleCase{
		// 82: ":method: GET".
		{"one setting", "a single setting is enc/4.2/1's (reducedSignalled)",
			[]block{{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("82")}}, ""},
		// 3f45: update to 100; 3fe11f: update to 4096; 82.
		{"smallest then final", "100 then 4096 signals the smallest and the final size",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("3f45 3fe11f 82")}}, ""},
		// 3f13: update to 50; 3fe11f: 4096; 82.
		{"update below the smallest", "an update to 50 is at most the smallest setting, 100",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("3f13 3fe11f 82")}}, ""},
		// 3fe11f: 4096; 82.
		{"only the final", "the table may have held more than 100 octets in between: 100 must be signalled",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("3fe11f 82")}}, "the block's updates [4096] do not signal the smallest, 100"},
		// 3f46: update to 101; 3fe11f: 4096; 82.
		{"update one above the smallest", "101 is above the smallest setting, 100",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("3f46 3fe11f 82")}}, "do not signal the smallest, 100"},
		{"no update", "settings 100 then 4096 with no update at all",
			[]block{{TableSizes: []uint32{100, 4096}, Headers: get, Wire: hexWire("82")}}, "the smallest 100 below the table's maximum size 4096, but the block starts with no dynamic table size update"},
		{"smallest equal to the maximum", "4096 then 8192 never went below the maximum 4096",
			[]block{{TableSizes: []uint32{4096, 8192}, Headers: get, Wire: hexWire("82")}}, ""},
		{"smallest one below the maximum", "4095 then 8192 went below the maximum 4096",
			[]block{{TableSizes: []uint32{4095, 8192}, Headers: get, Wire: hexWire("82")}}, "the smallest 4095 below the table's maximum size 4096"},
		// 3fe11f: 4096; 82.
		{"smallest in the middle", "the smallest of 4096, 50, 4096 is the second, 50",
			[]block{{TableSizes: []uint32{4096, 50, 4096}, Headers: get, Wire: hexWire("3fe11f 82")}}, "do not signal the smallest, 50"},
		// An empty block.
		{"block without fields", "a block without fields is enc/4.2/4's (emptyBlockSignalled)",
			[]block{{TableSizes: []uint32{100, 4096}, Wire: hexWire()}}, ""},
	})
}

func TestCheckEmptyBlockSignalled(t *testing.T) {
	testRule(t, emptyBlockSignalled, []ruleCase{
		// Empty blocks, but for the last case.
		{"no setting", "an empty block with no setting before it needs nothing",
			[]block{{Wire: hexWire()}}, ""},
		{"setting reduced without update", "a reduced setting must be signalled even without fields",
			[]block{{TableSizes: []uint32{100}, Wire: hexWire()}}, "a block without fields: settings [100] were acknowledged, the smallest 100 below the table's maximum size 4096, but the block starts with no dynamic table size update"},
		// 3f45: update to 100.
		{"setting reduced with update", "an update to 100 alone signals the setting",
			[]block{{TableSizes: []uint32{100}, Wire: hexWire("3f45")}}, ""},
		{"setting equal to the maximum", "4096 does not reduce the maximum 4096",
			[]block{{TableSizes: []uint32{4096}, Wire: hexWire()}}, ""},
		// 3fe11f: update to 4096.
		{"two settings, only the final", "after 100 then 4096, the update to 4096 misses the smallest",
			[]block{{TableSizes: []uint32{100, 4096}, Wire: hexWire("3fe11f")}}, "a block without fields: settings [100 4096] were acknowledged, but the block's updates [4096] do not signal the smallest, 100"},
		// 82: ":method: GET".
		{"block with fields", "a block with fields is enc/4.2/1's and enc/4.2/2's",
			[]block{{TableSizes: []uint32{100}, Headers: []Field{methodGET}, Wire: hexWire("82")}}, ""},
	})
}

func TestCheckFewUpdates(t *testing.T) {
	get := []Field{methodGET}
	testRule(t, fewUpdates, []ruleCase{
		// 82: ":method: GET".
		{"no update", "a block without updates has at most two",
			[]block{{Headers: get, Wire: hexWire("82")}}, ""},
		// 3f45: update to 100; 82.
		{"one update", "one update is allowed",
			[]block{{Headers: get, Wire: hexWire("3f45 82")}}, ""},
		// 3f45: 100; 3fe11f: 4096; 82.
		{"two, smallest first", "100 then 4096 is the smallest, then the final",
			[]block{{Headers: get, Wire: hexWire("3f45 3fe11f 82")}}, ""},
		// 3f45: 100; 3f45: 100; 82.
		{"two equal", "of two equal updates the first is the smallest too",
			[]block{{Headers: get, Wire: hexWire("3f45 3f45 82")}}, ""},
		// 3fe11f: 4096; 3f45: 100; 82.
		{"two, largest first", "4096 then 100 signals the smallest second; strict warns",
			[]block{{Headers: get, Wire: hexWire("3fe11f 3f45 82")}}, "oracle strict: offset 0: RFC 7541 §4.2: the first dynamic table size update (4096) is not the smallest (100)"},
		// 3f45: 100; 3f45: 100; 3fe11f: 4096; 82.
		{"three", "three updates are one more than §4.2 needs; strict warns",
			[]block{{Headers: get, Wire: hexWire("3f45 3f45 3fe11f 82")}}, "oracle strict: offset 4: RFC 7541 §4.2: more than two dynamic table size updates"},
		// After oraclesBroken, the same blocks are read off the wire.
		{"two, smallest first, on the wire", "100 then 4096, counted by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3f45 3fe11f 82")}}, ""},
		{"two equal, on the wire", "100 then 100, counted by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3f45 3f45 82")}}, ""},
		{"two, largest first, on the wire", "4096 then 100, read by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3fe11f 3f45 82")}}, "updates [4096 100]: the smallest is signalled second"},
		{"three, on the wire", "100, 100, 4096, counted by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3f45 3f45 3fe11f 82")}}, "3 dynamic table size updates [100 100 4096]"},
		// 3f45: 100; 04 01 61: ":path: a", a literal without indexing;
		// 3fe11f: 4096; 3f45: 100.
		{"updates after a field, on the wire", "only the updates before the first field of any kind are leading ones (the others are enc/6.3/2's)",
			[]block{oraclesBroken, {Headers: []Field{{Name: ":path", Value: "a"}}, Wire: hexWire("3f45 040161 3fe11f 3f45")}}, ""},
	})
}

func TestCheckUpdatesWithinSetting(t *testing.T) {
	get := []Field{methodGET}
	testRule(t, updatesWithinSetting, []ruleCase{
		// 3fe11f: update to 4096; 82: ":method: GET".
		{"update equal to the setting", "4096 is the initial setting: allowed",
			[]block{{Headers: get, Wire: hexWire("3fe11f 82")}}, ""},
		// 3fe21f: update to 4097; 82.
		{"update above the setting", "4097 exceeds the initial setting; strict rejects it",
			[]block{{Headers: get, Wire: hexWire("3fe21f 82")}}, "oracle strict: hpack: offset 0: RFC 7541 §6.3: dynamic table size update to 4097 exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE 4096"},
		{"update equal to the setting, on the wire", "4096, read by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3fe11f 82")}}, ""},
		{"update above the setting, on the wire", "4097, read by the walker",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("3fe21f 82")}}, "offset 0: dynamic table size update to 4097 exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE 4096"},
		// Block 0 (3f45 82) acknowledges 100 and updates to it; block 1
		// updates to 100 (3f45) or 101 (3f46), then 82.
		{"earlier setting, update equal", "the setting of 100 from block 0 is in force: 100 is allowed",
			[]block{
				{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 82")},
				{Headers: get, Wire: hexWire("3f45 82")},
			}, ""},
		{"earlier setting, update above", "the setting of 100 from block 0 is in force: 101 exceeds it",
			[]block{
				{TableSizes: []uint32{100}, Headers: get, Wire: hexWire("3f45 82")},
				{Headers: get, Wire: hexWire("3f46 82")},
			}, "oracle strict: hpack: offset 0: RFC 7541 §6.3: dynamic table size update to 101 exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE 100"},
		// oraclesBroken acknowledges 100; block 1 is 3f46 82.
		{"earlier setting, update above, on the wire", "the walker takes the setting from block 0 (settingAt)",
			[]block{
				{TableSizes: []uint32{100}, Wire: oraclesBroken.Wire},
				{Headers: get, Wire: hexWire("3f46 82")},
			}, "dynamic table size update to 101 exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE 100"},
		// 82; 3fe21f: update to 4097 after the field.
		{"update above the setting after a field, on the wire", "every update is checked, not only the leading ones",
			[]block{oraclesBroken, {Headers: get, Wire: hexWire("82 3fe21f")}}, "offset 1: dynamic table size update to 4097 exceeds"},
	})
}

func TestCheckUpdatesFirst(t *testing.T) {
	get := []Field{methodGET}
	testRule(t, updatesFirst, []ruleCase{
		// 3fe11f: update to 4096; 82: ":method: GET".
		{"update before the field", "an update at the start of the block is where §4.2 puts it",
			[]block{{Headers: get, Wire: hexWire("3fe11f 82")}}, ""},
		// 3fe11f alone.
		{"updates only", "a block of one update has no field for it to follow",
			[]block{{Wire: hexWire("3fe11f")}}, ""},
		// 3f45: 100; 3fe11f: 4096; 82; 82.
		{"two updates then fields", "both updates come before the first field",
			[]block{{Headers: []Field{methodGET, methodGET}, Wire: hexWire("3f45 3fe11f 82 82")}}, ""},
		// 82; 3fe11f: update to 4096 at offset 1.
		{"update after the field", "an update after a field breaks §4.2",
			[]block{{Headers: get, Wire: hexWire("82 3fe11f")}}, "offset 1: dynamic table size update to 4096 after a header field representation"},
		// 82; 3f45: update to 100 at offset 1; 82.
		{"update between fields", "an update between two fields breaks §4.2",
			[]block{{Headers: []Field{methodGET, methodGET}, Wire: hexWire("82 3f45 82")}}, "offset 1: dynamic table size update to 100 after"},
	})
}
