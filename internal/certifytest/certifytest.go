// Package certifytest holds what the tests of the engine, the sources and
// the reports share: a run cut short, the targets of the broken encoders,
// and the checks of a report's grades. Only tests import it.
//
// Files: certifytest.go (Quick, BrokenTarget, and the checks of grades and
// of a Huffman octet caught), planted.go (PlantedBugs, every planted bug of
// the broken encoder with the cases it fails, and CheckPlanted) and
// planted_decoders.go (PlantedDecoderBugs, the same table for the broken
// decoder's bugs and the dec/ cases).
package certifytest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// Quick keeps test runs small enough for -race: a few traffic stories of
// a few dozen blocks, a few generated stories.
func Quick() certify.Options {
	return certify.Options{TrafficStories: 2, TrafficBlocks: 30, Adversarial: 3, AllocRuns: 10}
}

// BrokenTarget is the in-process target of the broken encoder with bug.
func BrokenTarget(bug broken.Bug) certify.Target {
	return certify.Func("broken "+bug.String(), func() certify.Encoder { return broken.New(bug) })
}

// GradesWithout lists the cases of an encoder graded neither pass, info
// nor unsupported, leaving out expected failures.
func GradesWithout(rep *certify.Report, enc string) []string {
	var bad []string
	for _, c := range rep.Cases {
		res := rep.Results[enc][c.ID]
		switch {
		case res.Grade == certify.Pass, res.Grade == certify.Info, res.Grade == certify.Unsupported, res.Expected:
		default:
			bad = append(bad, c.ID+" "+res.Grade.String()+": "+res.Detail)
		}
	}
	return bad
}

// WantGrades checks the grade of every case of the report's first
// encoder: those listed in want get theirs, every other one that ran
// neither fails nor breaks a SHOULD.
func WantGrades(t testing.TB, rep *certify.Report, want map[string]certify.Grade) {
	t.Helper()
	enc := rep.Encoders[0]
	for _, c := range rep.Cases {
		res := rep.Results[enc][c.ID]
		g, listed := want[c.ID]
		switch {
		case listed && res.Grade != g:
			t.Errorf("%s %s: %v (%s); want %v", enc, c.ID, res.Grade, res.Detail, g)
		case !listed && (res.Grade == certify.Fail || res.Grade == certify.NonStrict):
			t.Errorf("%s %s: %v (%s); want pass", enc, c.ID, res.Grade, res.Detail)
		}
	}
}

// HuffmanOctetsUnderTest are the octets whose wrong Huffman code must be
// caught: ASCII control, tab, DEL, the first non-ASCII octet, a UTF-8 lead
// octet, and the two octets UTF-8 never holds at the top.
var HuffmanOctetsUnderTest = []byte{0x00, 0x09, 0x7f, 0x80, 0xc3, 0xfe, 0xff}

// CheckHuffmanOctetCaught checks that enc/5.2/4 failed for enc and named
// octet x.
func CheckHuffmanOctetCaught(t testing.TB, rep *certify.Report, enc string, x byte) {
	t.Helper()
	res := rep.Results[enc]["enc/5.2/4"]
	want := fmt.Sprintf("octet 0x%02x ", x)
	if res.Grade != certify.Fail || !strings.Contains(res.Detail, want) {
		t.Errorf("%s: enc/5.2/4 %s %q; want fail naming %q", enc, res.Grade, res.Detail, want)
	}
}
