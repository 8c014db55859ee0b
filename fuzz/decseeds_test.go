package fuzz

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// decSeedPrefix starts the names of the seeds made from the stories of
// the dec/ catalogue.
const decSeedPrefix = "dec-"

// bombCase is the catalogue case whose story a session cannot hold: it
// tests a refusal under SETTINGS_MAX_HEADER_LIST_SIZE, which sessions do
// not carry, by a block of 100,000 octets that expands to 400 MB.
const bombCase = "dec/7.3/1"

// A decStorySeed is a seed of the decoder differential target made from
// a story of certify.DecoderStoryBlocks: its blocks first to end-1, in
// order, each after the SETTINGS_HEADER_TABLE_SIZE acknowledged for it
// when that changes (the story starts at 4096).
type decStorySeed struct {
	name       string
	story      certify.DecoderStoryBlocksOf
	first, end int
	session    *Session
}

// whole reports whether the seed holds every block of its story.
func (s decStorySeed) whole() bool { return s.first == 0 && s.end == len(s.story.Blocks) }

// decStorySeeds returns the seeds of the dec/ stories, story by story: a
// story that fits a session's bounds (MaxSessionInput, MaxSessionSteps)
// makes one seed, dec-<story>; a larger one makes a seed of each longest
// run of its blocks that fits, dec-<story>-from-<first block, from 1>,
// and a block too large for any session is in none (its story is whole
// in TestDecoderStoriesWhole). The bomb's story makes none.
func decStorySeeds(t *testing.T) []decStorySeed {
	t.Helper()
	var out []decStorySeed
	for _, story := range certify.DecoderStoryBlocks() {
		if story.Case == bombCase {
			continue
		}
		for first := 0; first < len(story.Blocks); {
			end := first
			for end < len(story.Blocks) && fitsSession(storySession(story, first, end+1)) {
				end++
			}
			if end == first {
				first++ // a block no session can hold
				continue
			}
			seed := decStorySeed{story: story, first: first, end: end, session: storySession(story, first, end)}
			seed.name = decSeedPrefix + seedName(story.Story)
			if !seed.whole() {
				seed.name += fmt.Sprintf("-from-%d", first+1)
			}
			out = append(out, seed)
			first = end
		}
	}
	if len(out) == 0 {
		t.Fatal("certify.DecoderStoryBlocks made no seed")
	}
	return out
}

// storySession returns the session of blocks first to end-1 of story.
func storySession(story certify.DecoderStoryBlocksOf, first, end int) *Session {
	s := &Session{}
	acked := uint32(spec.DefaultTableSize)
	for i := first; i < end; i++ {
		if size := story.TableSizes[i]; size != acked {
			s.Steps = append(s.Steps, Step{IsSetting: true, Size: size})
			acked = size
		}
		s.Steps = append(s.Steps, Step{Block: story.Blocks[i]})
	}
	return s
}

// fitsSession reports whether ParseSession reads all of s's encoding.
func fitsSession(s *Session) bool {
	b, err := s.Bytes()
	return err == nil && len(b) <= MaxSessionInput && len(s.Steps) <= MaxSessionSteps
}

// seedName makes a story's name a file name of lower-case letters,
// digits, dots and hyphens.
func seedName(story string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, strings.ToLower(story))
}

// strictRejects returns the number (from 1) of the first block of s the
// strict decoder rejects, or 0 when it decodes them all.
func strictRejects(s *Session) int {
	d := strict.New()
	block := 0
	for _, st := range s.Steps {
		if st.IsSetting {
			d.SetMaxDynamicTableSize(st.Size)
			continue
		}
		block++
		if _, err := d.DecodeBlock(st.Block); err != nil {
			return block
		}
	}
	return 0
}

// blocks returns the number of header blocks of s.
func blocks(s *Session) int {
	n := 0
	for _, st := range s.Steps {
		if !st.IsSetting {
			n++
		}
	}
	return n
}

// TestDecoderStorySeeds replays every committed seed made from a dec/
// story through the differential check with every registered oracle and
// the broken decoder without bugs, and fails on any disagreement that
// oracle.KnownLeniencies does not explain. It also fails when a seed is
// missing, stale or left over from a story that is gone, and when a seed
// of a whole story ends before its last block: the catalogue refuses
// only a story's last block, so every earlier block must reach the
// decoders.
func TestDecoderStorySeeds(t *testing.T) {
	dir := filepath.Join("..", "corpus", targetDecoderDifferential)
	want := map[string]bool{}
	for _, seed := range decStorySeeds(t) {
		want[seed.name] = true
		data, err := os.ReadFile(filepath.Join(dir, seed.name))
		if err != nil {
			t.Errorf("seed %s: %v (run go test ./fuzz -run TestSeeds -update, then go run ./corpus/cmd/corpussync)", seed.name, err)
			continue
		}
		if err := CheckDecoderDifferential(data, oracle.Available()); err != nil {
			t.Errorf("seed %s (%s, story %s, blocks %d-%d): %v", seed.name, seed.story.Case, seed.story.Story, seed.first+1, seed.end, err)
		}
		if n := blocks(seed.session); seed.whole() {
			if at := strictRejects(ParseSession(data)); at != 0 && at != n {
				t.Errorf("seed %s: strict rejects block %d of %d; the story refuses only its last", seed.name, at, n)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), decSeedPrefix) && !want[e.Name()] {
			t.Errorf("seed %s comes from no dec/ story; remove it and run go run ./corpus/cmd/corpussync", filepath.Join(dir, e.Name()))
		}
	}
}

// TestDecoderStoriesWhole decodes every dec/ story whole, blocks longer
// than a session holds included, with every registered oracle and the
// broken decoder without bugs: they must agree with strict on every
// block, except where oracle.KnownLeniencies says why not, and strict
// must decode every block before the last. The bomb's story is left out
// (bombCase).
func TestDecoderStoriesWhole(t *testing.T) {
	c := newChecker(oracle.Available())
	for _, story := range certify.DecoderStoryBlocks() {
		if story.Case == bombCase {
			continue
		}
		s := storySession(story, 0, len(story.Blocks))
		if err := c.runDifferential(s); err != nil {
			t.Errorf("%s, story %s: %v", story.Case, story.Story, err)
		}
		if at, n := strictRejects(s), len(story.Blocks); at != 0 && at != n {
			t.Errorf("%s, story %s: strict rejects block %d of %d; the story refuses only its last", story.Case, story.Story, at, n)
		}
	}
}

// TestDecoderStoryBugsCaught plants each bug of the broken decoder in the
// differential's second decoder and checks that the dec/ seeds catch it,
// that is, that the differential tells the broken decoder from strict on
// what the catalogue tests. IgnoreListLimit is left out: sessions carry
// no SETTINGS_MAX_HEADER_LIST_SIZE. The bugs whose stories are too large
// for a seed are caught by the whole stories.
func TestDecoderStoryBugsCaught(t *testing.T) {
	seeds := decStorySeeds(t)
	for _, bug := range broken.EachDecoderBug() {
		if bug == broken.IgnoreListLimit {
			continue
		}
		c := newChecker(nil)
		c.independentBugs = bug
		by := ""
		for _, seed := range seeds {
			if err := c.runDifferential(seed.session); err != nil && strings.Contains(err.Error(), independentName) {
				by = "seed " + seed.name
				break
			}
		}
		for _, story := range certify.DecoderStoryBlocks() {
			if by != "" {
				break
			}
			if story.Case == bombCase {
				continue
			}
			if err := c.runDifferential(storySession(story, 0, len(story.Blocks))); err != nil && strings.Contains(err.Error(), independentName) {
				by = "whole story " + story.Story
			}
		}
		if by == "" {
			t.Errorf("bug %s: no dec/ seed or story tells the broken decoder from strict", bug)
			continue
		}
		t.Logf("bug %s: caught by %s", bug, by)
	}
}
