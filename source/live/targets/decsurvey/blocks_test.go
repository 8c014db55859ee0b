package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle/strict"
)

// TestStoriesAgainstStrict holds every crafted story to the strict
// decoder: each block valid but an invalid story's last, which it must
// refuse.
func TestStoriesAgainstStrict(t *testing.T) {
	for _, tlsOn := range []bool{false, true} {
		checkStories(t, stories(tlsOn))
	}
}

// checkStories holds the stories to the strict decoder.
func checkStories(t *testing.T, stories []story) {
	seen := map[string]bool{}
	for _, s := range stories {
		if seen[s.id] {
			t.Errorf("story id %s twice", s.id)
		}
		seen[s.id] = true
		d := strict.New()
		d.SetMaxDynamicTableSize(4096)
		for i, b := range s.blocks {
			_, err := d.DecodeBlock(b)
			last := i == len(s.blocks)-1
			switch {
			case last && s.invalid && err == nil:
				t.Errorf("%s (%s): the strict decoder accepts block %d; want it refused", s.id, s.what, i+1)
			case last && s.invalid:
				var se *strict.Error
				if !errors.As(err, &se) {
					t.Errorf("%s: %v; want a *strict.Error", s.id, err)
				} else if !strings.HasPrefix(s.id, se.Section+"/") {
					t.Errorf("%s (%s): the strict decoder refuses it under §%s (%s); want the story's section", s.id, s.what, se.Section, se.Reason)
				}
			case (!last || !s.invalid) && err != nil:
				t.Errorf("%s (%s): block %d: %v; want it accepted", s.id, s.what, i+1, err)
			}
		}
	}
}
