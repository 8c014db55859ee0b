package certify

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

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
