package certify

import "testing"

// TestEvidenceString checks the evidence line's numbers and nouns: one
// instance reads in the singular, the phrase that names it included.
func TestEvidenceString(t *testing.T) {
	for _, tt := range []struct {
		ev   Evidence
		want string
	}{
		{Evidence{Of: "blocks missing a size update refused", Instances: 1, Blocks: 1, Representations: 5, Insertions: 1},
			"judged 1 block missing a size update refused in 1 block (5 representations, 1 insertion, 0 evictions, 0 size updates, 0 Huffman strings, 0 sensitive fields)"},
		{Evidence{Of: "oversized integers refused", Instances: 1, Blocks: 2},
			"judged 1 oversized integer refused in 2 blocks (0 representations, 0 insertions, 0 evictions, 0 size updates, 0 Huffman strings, 0 sensitive fields)"},
		{Evidence{Of: "blocks with static indices", Instances: 1, Blocks: 1},
			"judged 1 block with static indices in 1 block (0 representations, 0 insertions, 0 evictions, 0 size updates, 0 Huffman strings, 0 sensitive fields)"},
		{Evidence{Of: "size updates", Instances: 2, Blocks: 3, NotJudged: 1},
			"judged 2 size updates in 3 blocks (0 representations, 0 insertions, 0 evictions, 0 size updates, 0 Huffman strings, 0 sensitive fields); 1 block not judged"},
		{Evidence{Of: "timings", NotJudged: 2}, "judged no block; 2 blocks not judged"},
	} {
		if got := tt.ev.String(); got != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.ev, got, tt.want)
		}
	}
}
