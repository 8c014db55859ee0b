package certify

import (
	"errors"
	"strings"
	"testing"
)

// TestOptionalUse checks which rules optionalUse makes not applicable,
// block counts by block counts: none for an encoder that used each
// representation once; the Huffman rules for one that Huffman-coded no
// string; the entry rules for one that inserted nothing; the eviction
// rules for one whose insertions all went into a table under 32 octets;
// the lowered-setting rule for one whose table was 0 whenever a setting
// came; and nothing for a target that wrote no block, or refused one.
func TestOptionalUse(t *testing.T) {
	block := func(ev blockEvidence) *playedBlock { return &playedBlock{ev: ev} }
	used := blockEvidence{strings: 4, huffman: 1, incremental: 1, roomy: 1, afterSetting: true, afterSettingRoom: true}
	tests := []struct {
		name   string
		blocks []blockEvidence
		na     map[instanceKind]string
	}{
		{"every use", []blockEvidence{used}, nil},
		{"no Huffman", []blockEvidence{{strings: 4, incremental: 1, roomy: 1}}, map[instanceKind]string{instHuffman: "Huffman-coded none of the 4 string literals in the 1 block"}},
		{"no insertion", []blockEvidence{{strings: 2, huffman: 2}, {strings: 2, huffman: 1}}, map[instanceKind]string{
			instInsertions: "added no entry", instInsertEvictions: "added no entry", instResizeEvictions: "added no entry", instOversized: "added no entry",
			instCredentials: "added no entry"}},
		{"a table of 0", []blockEvidence{{strings: 2, huffman: 2, incremental: 3, afterSetting: true}}, map[instanceKind]string{
			instInsertEvictions: "too small for any entry", instResizeEvictions: "too small for any entry", instLowered: "already 0 octets"}},
		{"a table of 0 after one setting with room", []blockEvidence{{strings: 1, huffman: 1, incremental: 1, roomy: 1, afterSetting: true, afterSettingRoom: true}, {strings: 1, huffman: 1, afterSetting: true}}, nil},
		{"no block", nil, nil},
	}
	for _, tt := range tests {
		tr := &transcript{}
		for _, ev := range tt.blocks {
			tr.blocks = append(tr.blocks, block(ev))
		}
		// A block the encoder failed on counts for nothing.
		tr.blocks = append(tr.blocks, &playedBlock{encErr: errors.New("the encoder failed"), ev: used})
		u := usageOf([]*transcript{tr})
		// Nor does anything apply less once the encoder has refused a
		// block: what it did not write might have used either.
		refusing := &transcript{blocks: tr.blocks, unsupportedBlocks: []string{"story s, block 1: no API"}}
		for kind := range instanceNames {
			if got := usageOf([]*transcript{refusing}).notApplicable(instanceKind(kind)); got != "" {
				t.Errorf("%s, a block refused: kind %s: %q; want no n/a", tt.name, instanceNames[kind].noun, got)
			}
		}
		for kind := range instanceNames {
			got := u.notApplicable(instanceKind(kind))
			want, ok := tt.na[instanceKind(kind)]
			if ok != (got != "") || !strings.Contains(got, want) || got != "" && !strings.HasPrefix(got, "not applicable: ") {
				t.Errorf("%s: kind %s: %q; want n/a %v (%q)", tt.name, instanceNames[kind].noun, got, ok, want)
			}
		}
	}
}
