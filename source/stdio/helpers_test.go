package stdio_test

// The helpers of certify's own tests that the stdio tests share; tests
// of two packages cannot share a file.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// quick keeps test runs small enough for -race: a few traffic stories of
// a few dozen blocks, a few generated stories.
func quick() certify.Options {
	return certify.Options{TrafficStories: 2, TrafficBlocks: 30, Adversarial: 3, AllocRuns: 10}
}

// huffmanOctetsUnderTest are the octets whose wrong Huffman code must be
// caught: ASCII control, tab, DEL, the first non-ASCII octet, a UTF-8 lead
// octet, and the two octets UTF-8 never holds at the top.
var huffmanOctetsUnderTest = []byte{0x00, 0x09, 0x7f, 0x80, 0xc3, 0xfe, 0xff}

// checkHuffmanOctetCaught checks that enc/5.2/4 failed for enc and named
// octet x.
func checkHuffmanOctetCaught(t *testing.T, rep *certify.Report, enc string, x byte) {
	t.Helper()
	res := rep.Results[enc]["enc/5.2/4"]
	want := fmt.Sprintf("octet 0x%02x ", x)
	if res.Grade != certify.Fail || !strings.Contains(res.Detail, want) {
		t.Errorf("%s: enc/5.2/4 %s %q; want fail naming %q", enc, res.Grade, res.Detail, want)
	}
}

// gradesWithout lists the cases of an encoder graded neither pass, info
// nor unsupported, leaving out expected failures.
func gradesWithout(rep *certify.Report, enc string) []string {
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
