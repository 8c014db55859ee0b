package report

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// TestEvidenceCell checks that the evidence table counts one instance of
// every noun certify.Evidence.Of holds in the singular, and any other
// number in the plural.
func TestEvidenceCell(t *testing.T) {
	for of, one := range map[string]string{
		"blocks":                       "block",
		"table comparisons":            "table comparison",
		"insertions":                   "insertion",
		"lowered settings":             "lowered setting",
		"setting intervals":            "setting interval",
		"blocks with size updates":     "block with size updates",
		"empty blocks after a setting": "empty block after a setting",
		"evictions by size update":     "eviction by size update",
		"evictions by insertion":       "eviction by insertion",
		"fields larger than the table": "field larger than the table",
		"integers":                     "integer",
		"Huffman strings":              "Huffman string",
		"size updates":                 "size update",
		"sensitive fields":             "sensitive field",
		"credential fields":            "credential field",
	} {
		if got := evidenceCell(certify.Evidence{Instances: 1, Of: of}); got != "1 "+one {
			t.Errorf("one of %q reads %q; want %q", of, got, "1 "+one)
		}
		for n, want := range map[int]string{0: "0 " + of, 2: "2 " + of, 3384: "3384 " + of} {
			if got := evidenceCell(certify.Evidence{Instances: n, Of: of}); got != want {
				t.Errorf("%d of %q reads %q; want %q", n, of, got, want)
			}
		}
	}
	if got := evidenceCell(certify.Evidence{}); got != "-" {
		t.Errorf("an empty evidence reads %q; want -", got)
	}
}

// TestCut checks that a verdict line keeps the first line of a reason, at
// most cutAt runes of it, and says when it cut.
func TestCut(t *testing.T) {
	long := strings.Repeat("é", cutAt+5)
	for _, tt := range []struct{ in, want string }{
		{"short", "short"},
		{"first\nsecond", "first"},
		{long, strings.Repeat("é", cutAt) + " ..."},
		{strings.Repeat("a", cutAt), strings.Repeat("a", cutAt)},
	} {
		if got := cut(tt.in); got != tt.want {
			t.Errorf("cut(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
