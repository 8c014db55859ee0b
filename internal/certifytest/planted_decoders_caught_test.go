package certifytest

import (
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// quickDecoderRun cuts the traffic of dec/3.2/1 so that the table runs in
// seconds; the targeted stories all run.
var quickDecoderRun = certify.DecoderOptions{TrafficStories: 6, TrafficBlocks: 60, Generated: 4}

// TestBrokenDecodersCaught runs every planted bug of the broken decoder
// through the dec/ catalogue: each must fail exactly the cases its row
// names, with the grade it names, and no other case may fail or be
// non-strict; the decoder without a bug passes every case.
func TestBrokenDecodersCaught(t *testing.T) {
	targets := []certify.DecoderTarget{broken.NewDecoderTarget(0)}
	planted := PlantedDecoderBugs()
	for _, p := range planted {
		targets = append(targets, broken.NewDecoderTarget(p.Bugs))
	}
	rep, err := certify.RunDecoders(targets, quickDecoderRun)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range rep.Encoders {
		want := map[string]certify.Grade{}
		label := "no bug"
		if i > 0 {
			want, label = planted[i-1].Fails, planted[i-1].Name
		}
		if b := rep.Targets[name].Breakdown; b != "" {
			t.Errorf("%s: breakdown: %s", label, b)
		}
		var got []string
		for _, c := range rep.Cases {
			res := rep.Results[name][c.ID]
			w, listed := want[c.ID]
			switch {
			case listed && res.Grade != w:
				t.Errorf("%s: %s is %s, want %s: %s", label, c.ID, res.Grade, w, res.Detail)
			case !listed && (res.Grade == certify.Fail || res.Grade == certify.NonStrict):
				t.Errorf("%s: %s is %s, and no other case may be: %s\n%s", label, c.ID, res.Grade, res.Detail, res.Repro)
			case !listed && i == 0 && res.Grade != certify.Pass:
				t.Errorf("no bug: %s is %s, want pass: %s", c.ID, res.Grade, res.Detail)
			}
			if res.Grade == certify.Fail || res.Grade == certify.NonStrict {
				got = append(got, c.ID)
			}
		}
		if i > 0 && len(got) == 0 {
			t.Errorf("%s: no case caught it", label)
		}
		slices.Sort(got)
		t.Logf("%s: %v", label, got)
	}
}
