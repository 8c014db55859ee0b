//go:build nghttp2

package inprocess_test

// The helpers of certify's own tests that these tests share; tests of
// two packages cannot share a file.

import "github.com/hpackcert/hpackcert/certify"

// quick keeps test runs small enough for -race: a few traffic stories of
// a few dozen blocks, a few generated stories.
func quick() certify.Options {
	return certify.Options{TrafficStories: 2, TrafficBlocks: 30, Adversarial: 3, AllocRuns: 10}
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
