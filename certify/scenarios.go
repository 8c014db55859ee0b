package certify

import (
	"fmt"
	"github.com/hpackcert/hpackcert/certify/lacks"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	ts "github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/vectors"
)

// A scenario is a named list of stories that several cases examine; each
// target plays it once per run. The traffic comes from the run's options;
// the generated and targeted ones from vectors.Scenario.
const scTraffic = ts.ScenarioTraffic // real traffic: hpack-test-case raw-data, embedded

// targetedScenarios are every scenario but the traffic; allScenarios adds
// the traffic. The rules of the wire (integers, Huffman, size updates,
// never-indexed fields) are checked on all of them. A block without fields
// that lacks its size update (the empty-block scenario) diverges for the
// strict oracle, and that divergence is enc/4.2/4's (diagnose.go), not a
// failure of the round trip.
var (
	targetedScenarios = []string{vectors.ScenarioEmptyBlock, vectors.ScenarioAdversarial, vectors.ScenarioEntrySize, vectors.ScenarioSizes, vectors.ScenarioEvictResize, vectors.ScenarioEvictInsert, vectors.ScenarioGiant, vectors.ScenarioOctets, vectors.ScenarioHuffmanOctets, vectors.ScenarioSpec, vectors.ScenarioSensitive, vectors.ScenarioCredentials}
	allScenarios      = append([]string{scTraffic}, targetedScenarios...)
)

// scenarioStories builds the stories of a scenario for a target: from
// what its library can express (lack, lacks.Expressed), and with utf8Only, the
// octets that hpack-stdio/1 cannot carry in JSON strings left out of every
// field; dropped lists the octet values that no longer occur.
func (r *runner) scenarioStories(name string, utf8Only bool, lack Lacks) (stories []story, dropped []byte, err error) {
	switch {
	case r.opts.Replay != nil:
		stories = fromVectors(r.opts.Replay)
	case name == scTraffic:
		if stories, err = r.traffic(); err != nil {
			return nil, nil, err
		}
	default:
		stories = r.generated(name, utf8Only)
		if stories == nil {
			return nil, nil, fmt.Errorf("certify: unknown scenario %q", name)
		}
	}
	if r.opts.Replay == nil {
		// A replay is sent as it was written: its blocks were built for
		// the encoder already.
		stories = lacks.Expressed(stories, lack)
	}
	if !utf8Only && len(lack.Refuses) == 0 {
		return stories, nil, nil
	}
	var before, after octetSet
	for si := range stories {
		for bi := range stories[si].Cases {
			fields := stories[si].Cases[bi].Headers
			for fi, f := range fields {
				before.addString(f.Name)
				before.addString(f.Value)
				fields[fi].Name, fields[fi].Value = lack.Strip(f.Name), lack.Strip(f.Value)
				if utf8Only {
					fields[fi].Name = strings.ToValidUTF8(fields[fi].Name, "")
					fields[fi].Value = strings.ToValidUTF8(fields[fi].Value, "")
				}
				after.addString(fields[fi].Name)
				after.addString(fields[fi].Value)
			}
		}
	}
	return stories, before.minus(&after), nil
}

// generated returns the stories of a scenario other than the traffic, or
// nil for an unknown name.
func (r *runner) generated(name string, utf8Only bool) []story {
	stories, _ := vectors.Scenario(name, r.opts.Seed, r.opts.adversarial(), utf8Only)
	return stories
}

// octetSet is a set of octet values.
type octetSet [256]bool

func (s *octetSet) addString(v string) {
	for i := 0; i < len(v); i++ {
		s[v[i]] = true
	}
}

// minus returns the octets of s that are not in t, in order.
func (s *octetSet) minus(t *octetSet) []byte {
	var out []byte
	for x := range s {
		if s[x] && !t[x] {
			out = append(out, byte(x))
		}
	}
	return out
}

// members returns the octets of s in order.
func (s *octetSet) members() []byte {
	var none octetSet
	return s.minus(&none)
}

// absent returns the octets not in s, in order.
func (s *octetSet) absent() []byte {
	var all octetSet
	for x := range all {
		all[x] = true
	}
	return all.minus(s)
}

// traffic returns the traffic stories: the hpack-test-case raw-data
// stories embedded in package vectors, or the story files of
// Options.TestCaseDir when it is set.
func (r *runner) traffic() ([]story, error) {
	if r.trafficStories != nil {
		return lacks.CloneStories(r.trafficStories), nil
	}
	var vs []*vectors.Story
	if dir := r.opts.TestCaseDir; dir != "" {
		raw := filepath.Join(dir, "raw-data")
		if _, err := os.Stat(raw); err != nil {
			// --testcases may name the raw-data directory itself.
			raw = dir
		}
		var err error
		if vs, err = readStories(raw, r.opts.TrafficStories, r.opts.maxStoryFileSize()); err != nil {
			return nil, fmt.Errorf("traffic stories in %s: %w", dir, err)
		}
		for _, v := range vs {
			if len(v.Cases) == 0 {
				return nil, fmt.Errorf("traffic stories in %s: %s: the story has no cases", dir, v.Path)
			}
		}
		r.trafficSource = raw
	} else {
		var err error
		if vs, err = vectors.RawData(); err != nil {
			return nil, fmt.Errorf("certify: embedded traffic stories: %w", err)
		}
		r.trafficSource = vectors.RawDataSource
	}
	stories := fromVectors(vs)
	if n := r.opts.TrafficStories; n > 0 && n < len(stories) {
		stories = stories[:n]
	}
	if n := r.opts.TrafficBlocks; n > 0 {
		for i := range stories {
			if len(stories[i].Cases) > n {
				stories[i].Cases = stories[i].Cases[:n]
			}
		}
	}
	blocks := 0
	for _, st := range stories {
		blocks += len(st.Cases)
	}
	if blocks == 0 {
		return nil, fmt.Errorf("traffic stories from %s hold no header block", r.trafficSource)
	}
	r.trafficSource += fmt.Sprintf("; %d blocks of %d stories used", blocks, len(stories))
	r.trafficStories = stories
	return lacks.CloneStories(stories), nil
}

// readStories reads the story files of dir in name order, only the first
// limit of them when limit is positive, each of at most maxSize octets.
func readStories(dir string, limit int, maxSize int64) ([]*vectors.Story, error) {
	if limit <= 0 {
		return vectors.ReadStoryDirLimit(dir, maxSize)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.json story in %s", dir)
	}
	sort.Strings(paths)
	if len(paths) > limit {
		paths = paths[:limit]
	}
	var out []*vectors.Story
	for _, p := range paths {
		s, err := vectors.ReadStoryLimit(p, maxSize)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// fromVectors returns stories read from files or generated, each named
// for reports by its file's base name (or generated-NN), with cases and
// fields of its own.
func fromVectors(vs []*vectors.Story) []story {
	out := make([]story, 0, len(vs))
	for i, v := range vs {
		st := *v
		st.Path = filepath.Base(v.Path)
		if v.Path == "" {
			st.Path = fmt.Sprintf("generated-%02d", i)
		}
		st.Cases = slices.Clone(v.Cases)
		for j := range st.Cases {
			// Scenarios change fields (scenarioStories drops what UTF-8
			// cannot carry): the caller's stories must not change.
			st.Cases[j].Headers = slices.Clone(st.Cases[j].Headers)
		}
		out = append(out, st)
	}
	return out
}
