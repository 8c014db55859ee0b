package certify

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
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

func TestCheckMinimalIntegers(t *testing.T) {
	a127 := strings.Repeat("a", 127)
	testRule(t, minimalIntegers, []ruleCase{
		// 82: index 2, one octet.
		{"one-octet index", "an integer below its prefix's maximum takes one octet",
			[]block{{Headers: []Field{methodGET}, Wire: hexWire("82")}}, ""},
		// 3f 00: update to 31 = 2^5-1: the prefix is full, one zero
		// continuation octet.
		{"2^N-1 with one zero continuation", "a single zero continuation octet is how 2^N-1 is written",
			[]block{{Wire: hexWire("3f00")}}, ""},
		// 3f 80 00: 31 again, with a redundant zero continuation octet.
		{"2^N-1 with a redundant zero", "a second continuation octet adding zero wastes an octet",
			[]block{{Wire: hexWire("3f8000")}}, "offset 0: integer 31 ends in a redundant zero continuation octet"},
		// 3f e1 1f: update to 4096 in the fewest octets.
		{"two continuation octets", "4096 needs both continuation octets",
			[]block{{Wire: hexWire("3fe11f")}}, ""},
		// 3f e1 9f 00: 4096 with a redundant zero continuation octet.
		{"4096 with a redundant zero", "the last continuation octet of 4096 is 1f, not 00",
			[]block{{Wire: hexWire("3fe19f00")}}, "offset 0: integer 4096 ends in a redundant zero"},
		// 0f 00: literal without indexing, name index 15 (accept-charset)
		// with one zero continuation; 01 61: value "a".
		{"name index 2^4-1", "a name index of exactly 15 takes one zero continuation",
			[]block{{Headers: []Field{{Name: "accept-charset", Value: "a"}}, Wire: hexWire("0f00 0161")}}, ""},
		// 0f 80 00: name index 15 with a redundant zero; 01 61: "a".
		{"name index with a redundant zero", "name indices are integers too",
			[]block{{Headers: []Field{{Name: "accept-charset", Value: "a"}}, Wire: hexWire("0f8000 0161")}}, "offset 0: integer 15 ends in a redundant zero"},
		// 04: literal without indexing, name index 4 (:path); the value's
		// length 127 as 7f 00, then 127 octets "a".
		{"value length 2^7-1", "a string of exactly 127 octets has one zero continuation",
			[]block{{Headers: []Field{{Name: ":path", Value: a127}}, Wire: hexWire("04 7f00", hex.EncodeToString([]byte(a127)))}}, ""},
		// 04: :path; the value's length 127 as 7f 80 00, then 127 "a".
		{"value length with a redundant zero", "string lengths are integers too",
			[]block{{Headers: []Field{{Name: ":path", Value: a127}}, Wire: hexWire("04 7f8000", hex.EncodeToString([]byte(a127)))}}, "offset 1: integer 127 ends in a redundant zero"},
		// 00: literal without indexing, new name; the name's length 127 as
		// 7f 80 00, then 127 "a"; 01 61: value "a".
		{"name length with a redundant zero", "a name literal's length is checked as a value's is",
			[]block{{Headers: []Field{{Name: a127, Value: "a"}}, Wire: hexWire("00 7f8000", hex.EncodeToString([]byte(a127)), "0161")}}, "offset 1: integer 127 ends in a redundant zero"},
	})
}

func TestCheckHuffmanPadding(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	testRule(t, huffmanPadding, []ruleCase{
		// 04: literal without indexing, name :path; 01 61: raw "a".
		{"raw string", "a raw string has no padding",
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, ""},
		// 04; 81 1f: Huffman "a", 00011 then 111.
		{"3 bits of ones", "padding with the high bits of EOS",
			[]block{{Headers: path("a"), Wire: hexWire("04 811f")}}, ""},
		// 04; 84 18c631ff: Huffman "aaaaa", 25 bits then 7 ones.
		{"7 bits of ones", "7 bits is the longest padding allowed",
			[]block{{Headers: path("aaaaa"), Wire: hexWire("04 8418c631ff")}}, ""},
		// 04; 81 f8: Huffman "&", 11111000, no padding.
		{"no padding", "a code ending on an octet boundary needs no padding",
			[]block{{Headers: path("&"), Wire: hexWire("04 81f8")}}, ""},
		// 04; 81 1e: "a" 00011, then 110: a zero bit in the padding.
		{"a zero bit", "padding that is not a prefix of EOS",
			[]block{{Headers: path("a"), Wire: hexWire("04 811e")}}, "offset 1: Huffman string of 1 octets: padding of 3 bits is not all ones"},
		// 04; 82 f8 ff: "&" then a whole octet of ones.
		{"8 bits of ones", "padding longer than 7 bits",
			[]block{{Headers: path("&"), Wire: hexWire("04 82f8ff")}}, "offset 1: Huffman string of 2 octets: 8 bits of padding (at most 7 allowed)"},
		// 04; 84 ffffffff: 32 ones hold the 30-bit EOS.
		{"EOS inside", "EOS may not be coded in the string",
			[]block{{Headers: path(""), Wire: hexWire("04 84ffffffff")}}, "EOS symbol inside the string"},
		// 00: literal without indexing, new name; 81 1e: the name "a" with a
		// zero bit in its padding; 01 61: raw value "a".
		{"a zero bit in a name", "name literals are padded as values are",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 811e 0161")}}, "offset 1: Huffman string of 1 octets: padding of 3 bits"},
		// 00; 01 61: raw name "a"; 81 1e: the value "a" at offset 3, a zero
		// bit in its padding.
		{"a zero bit in a value after a name", "the value's offset is reported",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 0161 811e")}}, "offset 3: Huffman string of 1 octets"},
	})
}

func TestCheckHuffmanShorter(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	testRule(t, huffmanShorter, []ruleCase{
		// 04: literal without indexing, name :path; 01 21: raw "!".
		{"raw string", "a raw string is as long as it is",
			[]block{{Headers: path("!"), Wire: hexWire("04 0121")}}, ""},
		// 04; 84 18c631ff: "aaaaa" in 4 octets.
		{"shorter", "5 octets in 4 saves one",
			[]block{{Headers: path("aaaaa"), Wire: hexWire("04 8418c631ff")}}, ""},
		// 04; 81 f8: "&" in 1 octet.
		{"equal length", "1 octet in 1 octet wastes nothing",
			[]block{{Headers: path("&"), Wire: hexWire("04 81f8")}}, ""},
		// 04; 82 fe 3f: "!" in 2 octets, 1111111000 then 6 ones.
		{"one octet longer", "1 octet in 2 octets: raw was shorter",
			[]block{{Headers: path("!"), Wire: hexWire("04 82fe3f")}}, `offset 1: "!" Huffman-coded in 2 octets, longer than its 1 octets`},
		// 04; 82 fe 3e: "!" in 2 octets, a zero bit in the padding.
		{"longer with broken padding", "a string with a padding problem is enc/5.2/1's",
			[]block{{Headers: path("!"), Wire: hexWire("04 82fe3e")}}, ""},
		// 00: new name; 82 fe 3f: the name "!" in 2 octets; 01 61: "a".
		{"name one octet longer", "name literals count as values do",
			[]block{{Headers: []Field{{Name: "!", Value: "a"}}, Wire: hexWire("00 82fe3f 0161")}}, `offset 1: "!" Huffman-coded in 2 octets`},
	})
}

func TestCheckSensitiveNeverIndexed(t *testing.T) {
	sensitive := []Field{authSensitive}
	testRule(t, sensitiveNeverIndexed, []ruleCase{
		// 1f 08: never indexed, name authorization; 06 "secret".
		{"never indexed", "the representation §7.1.3 asks for",
			[]block{{Headers: sensitive, Wire: hexWire("1f08 06736563726574")}}, ""},
		// 0f 08: without indexing, name authorization; 06 "secret".
		{"without indexing", "an intermediary may re-encode it with indexing",
			[]block{{Headers: sensitive, Wire: hexWire("0f08 06736563726574")}}, `offset 0: sensitive field "authorization": "secret" sent as literal without indexing (§6.2.2)`},
		// 57: incremental indexing, name authorization; 06 "secret".
		{"incremental indexing", "the secret goes into the dynamic table",
			[]block{{Headers: sensitive, Wire: hexWire("57 06736563726574")}}, "sent as literal with incremental indexing (§6.2.1)"},
		// 82: ":method: GET", marked sensitive, sent indexed.
		{"indexed", "an indexed field is not a never-indexed literal",
			[]block{{Headers: []Field{{Name: ":method", Value: "GET", Sensitive: true}}, Wire: hexWire("82")}}, "sent as indexed (§6.1)"},
		// 57 06 "secret": the same field, not marked sensitive.
		{"not sensitive", "the rule is about fields marked sensitive only",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("57 06736563726574")}}, ""},
		// 3fe11f: update; 82; 57 06 "secret" at offset 4.
		{"second field after an update", "the update is skipped when fields are matched to representations",
			[]block{{Headers: []Field{methodGET, authSensitive}, Wire: hexWire("3fe11f 82 57 06736563726574")}}, `offset 4: sensitive field "authorization"`},
		// 3fe11f: update; 82; 1f08 06 "secret".
		{"second field never indexed after an update", "the sensitive field is the never-indexed one",
			[]block{{Headers: []Field{methodGET, authSensitive}, Wire: hexWire("3fe11f 82 1f08 06736563726574")}}, ""},
	})
}

func TestCheckIsCredential(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		f      Field
		want   bool
	}{
		{"authorization", "RFC 9110 §11.6.2 credentials", Field{Name: "authorization", Value: "a long enough value to be no cookie"}, true},
		{"proxy-authorization", "RFC 9110 §11.7.2 credentials", Field{Name: "proxy-authorization", Value: "x"}, true},
		{"empty cookie", "an empty cookie is shorter than 20 octets", Field{Name: "cookie"}, true},
		{"cookie of 19 octets", "one octet under the threshold", Field{Name: "cookie", Value: strings.Repeat("c", 19)}, true},
		{"cookie of 20 octets", "at the threshold a cookie is long enough", Field{Name: "cookie", Value: strings.Repeat("c", 20)}, false},
		{"set-cookie", "a response's set-cookie is not the request's credential", Field{Name: "set-cookie", Value: "c"}, false},
		{"other name", "a name merely containing authorization is not one", Field{Name: "x-authorization", Value: "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := isCredential(tt.f); got != tt.want {
				t.Errorf("isCredential(%q: %q) = %t; want %t: %s", tt.f.Name, tt.f.Value, got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckCredentialsNotIndexed(t *testing.T) {
	cookie19, cookie20 := strings.Repeat("c", 19), strings.Repeat("c", 20)
	testRule(t, credentialsNotIndexed, []ruleCase{
		// 57: incremental indexing, name authorization; 06 "secret".
		{"authorization indexed", "authorization is a credential",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("57 06736563726574")}}, `offset 0: "authorization": "secret" added to the dynamic table (literal with incremental indexing (§6.2.1))`},
		// 0f 08: without indexing, name authorization; 06 "secret".
		{"authorization without indexing", "kept out of the table",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("0f08 06736563726574")}}, ""},
		// 1f 08: never indexed, name authorization; 06 "secret".
		{"authorization never indexed", "kept out of the table",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("1f08 06736563726574")}}, ""},
		// 71: incremental indexing, name index 49 (proxy-authorization).
		{"proxy-authorization indexed", "proxy-authorization is a credential",
			[]block{{Headers: []Field{{Name: "proxy-authorization", Value: "secret"}}, Wire: hexWire("71 06736563726574")}}, `"proxy-authorization": "secret" added to the dynamic table`},
		// 0f 22: without indexing, name index 15+34 = 49.
		{"proxy-authorization without indexing", "kept out of the table",
			[]block{{Headers: []Field{{Name: "proxy-authorization", Value: "secret"}}, Wire: hexWire("0f22 06736563726574")}}, ""},
		// 60: incremental indexing, name index 32 (cookie); 13 and 19 "c".
		{"cookie of 19 octets indexed", "a cookie under 20 octets is easily guessed",
			[]block{{Headers: []Field{{Name: "cookie", Value: cookie19}}, Wire: hexWire("60", rawLiteral(cookie19))}}, `"cookie": "ccccccccccccccccccc" added`},
		// 60; 14 and 20 "c".
		{"cookie of 20 octets indexed", "a cookie of 20 octets may be indexed",
			[]block{{Headers: []Field{{Name: "cookie", Value: cookie20}}, Wire: hexWire("60", rawLiteral(cookie20))}}, ""},
		// a0: indexed field 32, "cookie" with an empty value.
		{"empty cookie from the static table", "a field equal to a static entry adds nothing to the table",
			[]block{{Headers: []Field{{Name: "cookie"}}, Wire: hexWire("a0")}}, ""},
		// 77: incremental indexing, name index 55 (set-cookie); 01 "c".
		{"short set-cookie indexed", "set-cookie is no credential of the request",
			[]block{{Headers: []Field{{Name: "set-cookie", Value: "c"}}, Wire: hexWire("77 0163")}}, ""},
		// 3fe11f: update; 57 06 "secret" at offset 3.
		{"authorization after an update", "the update is skipped when fields are matched to representations",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("3fe11f 57 06736563726574")}}, `offset 3: "authorization"`},
	})
}

func TestCheckHuffmanMismatch(t *testing.T) {
	tests := []struct {
		label   string
		reason  string
		decoded wire.String // Text and PadErr as the walker decoded them
		sent    string
		want    string // a substring of the problem; "" when none
	}{
		{"equal", "the string decodes to what was sent",
			wire.String{Text: "abc"}, "abc", ""},
		{"empty", "nothing sent, nothing decoded",
			wire.String{}, "", ""},
		{"wrong code", "the second octet comes back as another",
			wire.String{Text: "axc"}, "abc", "octet 0x62 at position 1 decodes as 0x78: its code is wrong"},
		{"wrong first code", "the first octet comes back as another",
			wire.String{Text: "xbc"}, "abc", "octet 0x61 at position 0 decodes as 0x78"},
		{"early end", "decoding stopped after two octets with no problem",
			wire.String{Text: "ab"}, "abc", "octet 0x63 at position 2 does not decode (the string ends early)"},
		{"early end at a problem", "decoding stopped at an invalid code, which is named",
			wire.String{Text: "a", PadErr: "invalid code at octet 1"}, "abc", "octet 0x62 at position 1 does not decode (invalid code at octet 1)"},
		{"extra octets", "a code of the last octets decoded as more",
			wire.String{Text: "abcd"}, "abc", "decodes to 1 octets more than the 3 sent"},
		{"eight extra octets", "codes of the last octets may decode as a few more",
			wire.String{Text: "abc12345678"}, "abc", "decodes to 8 octets more than the 3 sent"},
		{"another value", "a value that goes on past what wrong final codes explain is another value (enc/3.2/1), not a wrong code",
			wire.String{Text: "abc, and a second value joined to it"}, "abc", ""},
		{"padding problem", "every octet came back but the padding is wrong",
			wire.String{Text: "abc", PadErr: "padding of 3 bits is not all ones (not a prefix of EOS)"}, "abc", "padding of 3 bits is not all ones"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			problem, bad := huffmanMismatch(&tt.decoded, tt.sent)
			if wantBad := tt.want != ""; bad != wantBad {
				t.Fatalf("got bad %t (%q); want %t: %s", bad, problem, wantBad, tt.reason)
			}
			if tt.want == "" && problem != "" || !strings.Contains(problem, tt.want) {
				t.Errorf("got problem %q; want one containing %q: %s", problem, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckHuffmanCodes(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	tests := []struct {
		label  string
		reason string
		blocks []block
		grade  Grade
		want   string // a substring of the detail
	}{
		// 04: literal without indexing, name :path; 01 61: raw "a".
		{"no Huffman string", "an encoder that never codes Huffman tests no code",
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, Unsupported, "Huffman-coded no string"},
		// 04; 81 1f: Huffman "a".
		{"right code", "'a' decodes to what was sent",
			[]block{{Headers: path("a"), Wire: hexWire("04 811f")}}, Pass, "1 octet values were Huffman-coded (1 strings) and decode to what was sent"},
		// 04; 81 8f: Huffman "b", 100011 then 11, sent for "a".
		{"wrong code", "the code sent for 'a' is the code of 'b'",
			[]block{{Headers: path("a"), Wire: hexWire("04 818f")}}, Fail, `offset 1: the Huffman-coded value of field ":path": octet 0x61 at position 0 decodes as 0x62`},
		// 00: new name; 81 8f: Huffman "b" for the name "a"; 01 61: "a".
		{"wrong code in a name", "names are checked as values are",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 818f 0161")}}, Fail, `the Huffman-coded name of field "a": octet 0x61 at position 0`},
		// 04; 81 1e: Huffman "a" with a zero bit in its padding.
		{"padding problem", "every octet decoded, then the padding is wrong",
			[]block{{Headers: path("a"), Wire: hexWire("04 811e")}}, Fail, "padding of 3 bits is not all ones"},
		// 04; 05 61: a string of 5 octets with 1 left.
		{"block that does not walk", "a block the walker cannot split holds no string to judge: its divergence is filed under its owner",
			[]block{{Headers: path("a"), Wire: hexWire("04 0561")}}, Unsupported, "not exercised"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			tr := playRecorded("checks_test", []story{{Path: "hand-built", Cases: tt.blocks}}, nil, false)
			c := &caseRun{c: &Case{ID: "enc/5.2/4", Violation: Fail, rule: walked(huffmanCodeRule), instance: instHuffman}, ruleIndex: -1, recorded: true, transcripts: []*transcript{tr}}
			v := huffmanCodes(c)
			if v.grade != tt.grade || !strings.Contains(v.detail, tt.want) {
				t.Errorf("got %s (%q); want %s with %q: %s", v.grade, v.detail, tt.grade, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckOctetList(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		octets []byte
		want   string
	}{
		{"none", "an empty list", nil, ""},
		{"one", "a single octet", []byte{0x00}, "0x00"},
		{"pair", "two consecutive octets are a range", []byte{0x00, 0x01}, "0x00-0x01"},
		{"gap", "octets one apart are not a range", []byte{0x00, 0x02}, "0x00, 0x02"},
		{"runs and singles", "ranges and single octets mixed, up to 0xff",
			[]byte{0x09, 0x0a, 0x0b, 0x7f, 0xfe, 0xff}, "0x09-0x0b, 0x7f, 0xfe-0xff"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := octetList(tt.octets); got != tt.want {
				t.Errorf("octetList(% x) = %q; want %q: %s", tt.octets, got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckUntested(t *testing.T) {
	tests := []struct {
		label   string
		reason  string
		v       verdict
		dropped []byte
		grade   Grade
		want    string
	}{
		{"pass, all sent", "nothing was left out", verdict{grade: Pass, detail: "ok"}, nil, Pass, "ok"},
		{"pass, octets dropped", "a pass on part of the octets is not a pass",
			verdict{grade: Pass, detail: "ok"}, []byte{0x00, 0x01, 0x0a}, Unsupported, "ok; 3 octet values not tested, which hpack-stdio/1 without its binary form cannot carry (the encoder's hello did not offer \"binary\": true): 0x00-0x01, 0x0a"},
		{"fail, octets dropped", "a failure stands whatever was not sent",
			verdict{grade: Fail, detail: "bad"}, []byte{0x00}, Fail, "bad"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got := untested(tt.v, tt.dropped)
			if got.grade != tt.grade || got.detail != tt.want {
				t.Errorf("got %s %q; want %s %q: %s", got.grade, got.detail, tt.grade, tt.want, tt.reason)
			}
		})
	}
}

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

func TestCheckCoverage(t *testing.T) {
	// raw returns a literal without indexing named by :path (static
	// index 4) whose raw value is n octets "a", with the length's
	// continuation octets given.
	raw := func(n int, length string) []byte {
		return hexWire("04", length, hex.EncodeToString([]byte(strings.Repeat("a", n))))
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	uses := map[intUse]string{
		useIndex:           "index",
		useIncrementalName: "incremental name",
		useLiteralName:     "literal name",
		useSizeUpdate:      "size update",
		useStringLength:    "length",
	}
	tests := []struct {
		label   string
		reason  string
		wire    []byte
		ints    []string // the boundaries covered, as "<use> <value>"
		reach   int      // the boundaries within reach
		entries int      // static entries covered
		names   int      // static names covered
		huffman int      // octet values Huffman-coded
	}{
		// fe: index 126; ff 00: 127; ff 01: 128; ff 7f: 254; ff 80 01:
		// 255.
		{"indices 127, 254, 255", "2^7-1 fills the prefix, 2^7-1+127 is the last with one continuation octet, 2^7-1+128 the first with two; 126 and 128 change nothing",
			hexWire("fe ff00 ff01 ff7f ff8001"), []string{"index 127", "index 254", "index 255"}, 15, 0, 0, 0},
		// ff fe 7f: index 16509; ff ff 7f: 16510; ff 80 80 01: 16511;
		// ff 80 80 80 01: 2097279.
		{"indices 16510, 16511, 2097279", "2^7-1+2^14-1 is the last with two continuation octets, 2^7-1+2^14 the first with three, 2^7-1+2^21 the first with four",
			hexWire("fffe7f ffff7f ff808001 ff80808001"), []string{"index 16510", "index 16511", "index 2097279"}, 16, 0, 0, 0},
		// 82: index 2, static entry 2.
		{"static entry", "an indexed static entry", hexWire("82"), nil, 13, 1, 0, 0},
		// Lengths 126 (7e), 127 (7f 00), 254 (7f 7f) and 255 (7f 80 01).
		{"strings of 127, 254, 255", "the 7-bit length's transitions past one and two continuation octets",
			cat(raw(126, "7e"), raw(127, "7f00"), raw(254, "7f7f"), raw(255, "7f8001")),
			[]string{"length 127", "length 254", "length 255"}, 13, 0, 1, 0},
		// Lengths 16510 (7f ff 7f) and 16511 (7f 80 80 01).
		{"strings of 16510, 16511", "2^7-1+2^14-1 octets, the longest with two continuation octets, and one more",
			cat(raw(16510, "7fff7f"), raw(16511, "7f808001")),
			[]string{"length 16510", "length 16511"}, 13, 0, 1, 0},
		// Updates to 30 (3e), 31 (3f 00), 32 (3f 01), 158 (3f 7f), 159
		// (3f 80 01), 16414 (3f ff 7f), 16415 (3f 80 80 01) and 2097183
		// (3f 80 80 80 01): a table of 2097183 puts every index but
		// those past 2^21 within reach.
		{"updates 31 to 2097183", "the §6.3 5-bit prefix transitions; the largest size signalled is the table the indices can reach",
			hexWire("3e 3f00 3f01 3f7f 3f8001 3fff7f 3f808001 3f80808001"),
			[]string{"size update 31", "size update 158", "size update 159", "size update 16414", "size update 16415", "size update 2097183"}, 26, 0, 0, 0},
		// Literals with incremental indexing, each with the raw value "a"
		// (01 61): 7e: name index 62; 7f 00: 63; 7f 7f: 190; 7f 80 01:
		// 191; 7f ff 7f: 16446; 7f 80 80 01: 16447; 7f 80 80 80 01:
		// 2097215.
		{"incremental name indices 63 to 2097215", "the 6-bit prefix transitions (dynamic names, so no static name)",
			hexWire("7e0161 7f000161 7f7f0161 7f80010161 7fff7f0161 7f8080010161 7f808080010161"),
			[]string{"incremental name 63", "incremental name 190", "incremental name 191", "incremental name 16446", "incremental name 16447", "incremental name 2097215"}, 18, 0, 0, 0},
		// Literals without indexing (0) and never indexed (1), each with
		// the raw value "a" (01 61): 0e: name index 14 (:status); 0f 00:
		// 15 (accept-charset); 1f 7f: 142; 0f 80 01: 143; 1f ff 7f:
		// 16398; 0f 80 80 01: 16399; 0f 80 80 80 01: 2097167.
		{"literal name indices 15 to 2097167", "the 4-bit prefix transitions, both representations; two static names",
			hexWire("0e0161 0f000161 1f7f0161 0f80010161 1fff7f0161 0f8080010161 0f808080010161"),
			[]string{"literal name 15", "literal name 142", "literal name 143", "literal name 16398", "literal name 16399", "literal name 2097167"}, 16, 0, 2, 0},
		// 04; 81 1f: Huffman "a".
		{"Huffman octet", "'a' Huffman-coded and well padded", hexWire("04 811f"), nil, 13, 0, 1, 1},
		// 04; 81 1e: Huffman "a" with a zero bit in its padding.
		{"Huffman octet badly padded", "a string with a padding problem tests no code", hexWire("04 811e"), nil, 13, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			// What the wire exercises, counted directly: a run counts only
			// blocks every oracle decoded to the fields sent (below).
			tr := &transcript{}
			for _, pb := range playBlocks([]block{{Wire: tt.wire}}) {
				tr.coverage.add(pb)
				tr.addHuffman(pb)
			}
			cov := measureCoverage([]*transcript{tr})
			var ints []string
			reach := 0
			for _, b := range cov.Integers {
				if b.Covered {
					ints = append(ints, uses[b.kind]+" "+b.Value)
				}
				if b.Unreachable == "" {
					reach++
				}
			}
			if got, want := strings.Join(ints, ", "), strings.Join(tt.ints, ", "); got != want {
				t.Errorf("integer boundaries covered: got %q; want %q: %s", got, want, tt.reason)
			}
			if want := fmt.Sprintf("integer boundaries %d/%d", len(tt.ints), tt.reach); len(cov.Integers) != 30 || reach != tt.reach || !strings.Contains(cov.String(), want) {
				t.Errorf("%d boundaries, %d within reach, %q; want 30, %d, %q: %s", len(cov.Integers), reach, cov, tt.reach, want, tt.reason)
			}
			if cov.StaticEntries.Covered != tt.entries || cov.StaticNames.Covered != tt.names || cov.HuffmanOctets.Covered != tt.huffman {
				t.Errorf("got %d static entries, %d static names, %d Huffman octets; want %d, %d, %d: %s",
					cov.StaticEntries.Covered, cov.StaticNames.Covered, cov.HuffmanOctets.Covered, tt.entries, tt.names, tt.huffman, tt.reason)
			}
		})
	}
}

// TestCheckCoverageDecodedOnly checks that a run's coverage counts only
// the blocks every oracle decoded to the fields sent: the same wire adds
// to it when the fields sent are what it decodes to, and adds nothing
// when they are not, or after an earlier block diverged.
func TestCheckCoverageDecodedOnly(t *testing.T) {
	// 04 811f: ":path: a", Huffman-coded; 82: ":method: GET".
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	good := block{Wire: hexWire("04 811f"), Headers: path("a")}
	wrong := block{Wire: hexWire("04 811f"), Headers: path("b")}
	after := block{Wire: hexWire("82"), Headers: []Field{{Name: ":method", Value: "GET"}}}
	tests := []struct {
		label   string
		blocks  []block
		huffman int
		entries int
	}{
		{"decoded right", []block{good, after}, 1, 1},
		{"decoded wrong", []block{wrong}, 0, 0},
		{"after a divergence", []block{wrong, after}, 0, 0},
	}
	for _, tt := range tests {
		cov := measureCoverage([]*transcript{playRecorded("coverage", []story{{Path: tt.label, Cases: tt.blocks}}, nil, false)})
		if cov.HuffmanOctets.Covered != tt.huffman || cov.StaticEntries.Covered != tt.entries {
			t.Errorf("%s: %d Huffman octets, %d static entries covered; want %d, %d", tt.label, cov.HuffmanOctets.Covered, cov.StaticEntries.Covered, tt.huffman, tt.entries)
		}
	}
}

// TestCheckTablesClaimNothing checks that enc/2.3.2's check does not pass
// on an empty comparison: blocks after which fewer than two tables were
// left to compare count for nothing.
func TestCheckTablesClaimNothing(t *testing.T) {
	blocks := func(compared ...int) []*playedBlock {
		st := &story{Path: "s", Cases: make([]block, len(compared))}
		var out []*playedBlock
		for i, n := range compared {
			out = append(out, &playedBlock{story: st, index: i, tablesCompared: n, problems: []string{""}})
		}
		return out
	}
	tests := []struct {
		label, reason string
		compared      []int
		grade         Grade
		want          string
	}{
		{"all compared", "two tables or more after every block", []int{2, 3}, Pass, "every table equal after every block: 2 table comparisons judged in 2 blocks"},
		{"none compared", "one table left after every block: nothing was compared", []int{1, 1, 0}, Unsupported, "not exercised: no block left two tables to compare"},
		{"some compared", "the blocks compared pass, the others are counted", []int{2, 1}, Pass, "1 block compared nothing"},
	}
	for _, tt := range tests {
		c := &caseRun{c: &Case{ID: "enc/2.3.2/1", Violation: Fail, rule: tablesAgree, instance: instTables}, ruleIndex: 0, transcripts: []*transcript{{blocks: blocks(tt.compared...)}}}
		v := tablesCheck(c)
		if v.grade != tt.grade || !strings.Contains(v.detail, tt.want) {
			t.Errorf("%s: %s %q; want %s with %q: %s", tt.label, v.grade, v.detail, tt.grade, tt.want, tt.reason)
		}
	}
}
