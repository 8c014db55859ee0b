package qencoders_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/recorded"
)

// TestRecordedQPACK05 grades the six encoders of qifs' qpack-05 folder as
// ../shared/qifs/README.md says they behave (measured apart, with
// libnghttp3 as the decoder): every file decodes to its header lists;
// proxygen, and f5 at table size 256, send Set Dynamic Table Capacity
// before inserting, the others never do, which is their one failure
// (qenc/3.2.2/1), reported once per encoder; the cases only a driven
// encoder shows are n/a.
func TestRecordedQPACK05(t *testing.T) {
	dir := filepath.Join(testenv.QIFsDir(t), "encoded", "qpack-05")
	targets, err := recorded.QPACKDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 6 {
		t.Fatalf("%d recorded encoders in %s, want 6", len(targets), dir)
	}
	cases, graded, err := qencoders.Run(targets, qencoders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noCapacity := map[string]string{"f5": "and 11 more", "ls-qpack": "and 23 more", "nghttp3": "and 23 more", "qthingey": "and 23 more", "quinn": "and 23 more"}
	for _, g := range graded {
		if g.Breakdown != "" || g.Kind != "recorded" || g.Connections != 24 {
			t.Errorf("%s: breakdown %q, kind %q, %d connections; want none, recorded, 24", g.Name, g.Breakdown, g.Kind, g.Connections)
		}
		for _, c := range cases {
			r := g.Results[c.ID]
			switch {
			case c.ID == "qenc/3.2.2/1" && noCapacity[g.Name] != "":
				if r.Grade != qencoders.Fail || !strings.Contains(r.Detail, "never sent Set Dynamic Table Capacity") || !strings.Contains(r.Detail, noCapacity[g.Name]) {
					t.Errorf("%s: %s %v: %s; want the missing capacity, once, counting its files", g.Name, c.ID, r.Grade, r.Detail)
				}
			case c.ID == "qenc/4.4.1/1" || c.ID == "qenc/4.4.3/1":
				if r.Grade != qencoders.Unsupported || !r.NotApplicable {
					t.Errorf("%s: %s %v, want n/a", g.Name, c.ID, r.Grade)
				}
			case c.ID == "qenc/3.2.3/2" || c.ID == "qenc/7.1.3/1":
				if r.Grade != qencoders.Unsupported { // no file has capacity 0 or a sensitive field
					t.Errorf("%s: %s %v: %s, want not exercised", g.Name, c.ID, r.Grade, r.Detail)
				}
			case r.Grade != qencoders.Pass:
				t.Errorf("%s: %s %v: %s (at %s)", g.Name, c.ID, r.Grade, r.Detail, r.At)
			}
		}
		if r := g.Results["qenc/2.1/1"]; r.Evidence.Instances != 6272 {
			t.Errorf("%s: %d sections compared, want all 6272", g.Name, r.Evidence.Instances)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub)))
}
