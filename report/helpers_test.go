package report_test

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// quick is a run cut short: a few traffic stories and scenarios, enough
// for every grade to show up in the reports.
func quick() certify.Options {
	return certify.Options{TrafficStories: 2, TrafficBlocks: 30, Adversarial: 3, AllocRuns: 10}
}

func brokenTarget(bug broken.Bug) certify.Target {
	return certify.Func("broken "+bug.String(), func() certify.Encoder { return broken.New(bug) })
}
