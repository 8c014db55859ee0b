package property

import (
	"path/filepath"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
)

// TestRegressionStories replays every story in testdata/regressions: shrunk
// failing sequences the state machine wrote, and hand-made ones.
func TestRegressionStories(t *testing.T) {
	stories, err := vectors.ReadStoryDir(filepath.Join("testdata", "regressions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stories {
		t.Run(filepath.Base(s.Path), func(t *testing.T) {
			failure, err := replayStory(s)
			if err != nil {
				t.Fatal(err)
			}
			if failure != "" {
				t.Errorf("%s: %s", s.Path, failure)
			}
		})
	}
}
