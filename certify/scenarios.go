package certify

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/vectors"
)

// A scenario is a named list of stories that several cases examine; each
// target plays it once per run.
const (
	scTraffic     = "traffic"      // recorded browser traffic (hpack-test-case raw-data)
	scAdversarial = "adversarial"  // vectors.GenerateStories plus our own sequences
	scEntrySize   = "entry-size"   // §4.1 sizes that differ by one octet of overhead
	scSizes       = "size-updates" // §4.2 settings going down, up, and several times
	scEmptyBlock  = "empty-block"  // §4.2 a setting change followed by a block without fields
	scEvictResize = "evict-resize" // §4.3 a table emptied by a smaller setting
	scEvictInsert = "evict-insert" // §4.4 an entry evicting exactly two others
	scGiant       = "giant"        // §4.4 entries larger than the table
	scOctets      = "octets"       // §5.2 all 256 octets in values
	scSensitive   = "sensitive"    // §7.1.3 fields marked sensitive
	scCredentials = "credentials"  // §7.1.3 authorization and short cookies
)

// scenarioStories builds the stories of a scenario. utf8Only drops octets
// that hpack-stdio/1 cannot carry in JSON strings.
func (r *runner) scenarioStories(name string, utf8Only bool) ([]story, bool, error) {
	var stories []story
	switch name {
	case scTraffic:
		var err error
		if stories, err = r.traffic(); err != nil {
			return nil, false, err
		}
	case scAdversarial:
		stories = append(fromVectors(vectors.GenerateStories(r.opts.Seed, r.opts.adversarial())), ownAdversarial(r.opts.Seed)...)
	case scEntrySize:
		stories = entrySizeStories()
	case scSizes:
		stories = sizeStories()
	case scEmptyBlock:
		stories = emptyBlockStories()
	case scEvictResize:
		stories = evictResizeStories()
	case scEvictInsert:
		stories = evictInsertStories()
	case scGiant:
		stories = giantStories()
	case scOctets:
		stories = octetStories()
	case scSensitive:
		stories = sensitiveStories()
	case scCredentials:
		stories = credentialStories()
	default:
		return nil, false, fmt.Errorf("certify: unknown scenario %q", name)
	}
	if !utf8Only {
		return stories, false, nil
	}
	filtered := false
	for si := range stories {
		for bi := range stories[si].blocks {
			fields := stories[si].blocks[bi].fields
			for fi, f := range fields {
				if !utf8.ValidString(f.Name) || !utf8.ValidString(f.Value) {
					fields[fi].Name = strings.ToValidUTF8(f.Name, "")
					fields[fi].Value = strings.ToValidUTF8(f.Value, "")
					filtered = true
				}
			}
		}
	}
	return stories, filtered, nil
}

// traffic returns the traffic stories: the hpack-test-case raw-data
// directory when it can be found, else the stories vectors generates.
func (r *runner) traffic() ([]story, error) {
	if r.trafficStories != nil {
		return cloneStories(r.trafficStories), nil
	}
	dir := r.opts.TestCaseDir
	explicit := dir != ""
	if !explicit {
		dir = testenv.TestCaseDirPath()
	}
	var stories []story
	raw := filepath.Join(dir, "raw-data")
	if _, err := os.Stat(raw); err != nil && explicit {
		// --testcases may name the raw-data directory itself.
		raw = dir
	}
	if _, err := os.Stat(raw); dir != "" && err == nil {
		vs, err := readStories(raw, r.opts.TrafficStories)
		if err == nil && len(vs) == 0 {
			err = fmt.Errorf("no *.json story in %s", raw)
		}
		if err != nil {
			return nil, fmt.Errorf("certify: reading traffic stories: %w", err)
		}
		stories = fromVectors(vs)
		r.trafficSource = raw
	} else if explicit {
		return nil, fmt.Errorf("certify: traffic stories: %s: %w", dir, err)
	} else {
		stories = fromVectors(vectors.GenerateStories(r.opts.Seed+1, 32))
		r.trafficSource = "vectors.GenerateStories (hpack-test-case not found)"
	}
	if n := r.opts.TrafficStories; n > 0 && n < len(stories) {
		stories = stories[:n]
	}
	if n := r.opts.TrafficBlocks; n > 0 {
		for i := range stories {
			if len(stories[i].blocks) > n {
				stories[i].blocks = stories[i].blocks[:n]
			}
		}
	}
	r.trafficStories = stories
	return cloneStories(stories), nil
}

// readStories reads the story files of dir in name order, only the first
// limit of them when limit is positive.
func readStories(dir string, limit int) ([]*vectors.Story, error) {
	if limit <= 0 {
		return vectors.ReadStoryDir(dir)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	if len(paths) > limit {
		paths = paths[:limit]
	}
	var out []*vectors.Story
	for _, p := range paths {
		s, err := vectors.ReadStory(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func cloneStories(in []story) []story {
	out := make([]story, len(in))
	for i, s := range in {
		out[i] = story{name: s.name, blocks: make([]block, len(s.blocks))}
		for j, b := range s.blocks {
			out[i].blocks[j] = block{acked: b.acked, fields: append([]Field(nil), b.fields...), wire: b.wire}
		}
	}
	return out
}

// fromVectors converts stories of the hpack-test-case format.
func fromVectors(vs []*vectors.Story) []story {
	out := make([]story, 0, len(vs))
	for i, v := range vs {
		name := filepath.Base(v.Path)
		if v.Path == "" {
			name = fmt.Sprintf("generated-%02d", i)
		}
		st := story{name: name, blocks: make([]block, len(v.Cases))}
		for j, c := range v.Cases {
			b := block{acked: c.AckedSizes(), wire: c.Wire, fields: make([]Field, len(c.Headers))}
			for k, h := range c.Headers {
				b.fields[k] = Field{Name: h.Name, Value: h.Value, Sensitive: k < len(c.Sensitive) && c.Sensitive[k]}
			}
			st.blocks[j] = b
		}
		out = append(out, st)
	}
	return out
}

func fields(pairs ...string) []Field {
	out := make([]Field, len(pairs)/2)
	for i := range out {
		out[i] = Field{Name: pairs[2*i], Value: pairs[2*i+1]}
	}
	return out
}

// filler returns a value of n octets distinct per tag.
func filler(tag string, n int) string {
	return (tag + strings.Repeat("x", n))[:n]
}

// entrySizeStories put two entries in a 128-octet table whose sizes sum
// to 130 (one evicts the other) and to 128 (both stay), then refer to
// both: an encoder counting 31 or 33 octets of overhead keeps or evicts
// the wrong entry.
func entrySizeStories() []story {
	return []story{
		{name: "entry-size/evict", blocks: []block{
			{acked: []uint32{128}, fields: fields("x-a", filler("a", 30))},
			{fields: fields("x-b", filler("b", 30))},
			{fields: fields("x-a", filler("a", 30), "x-b", filler("b", 30))},
			{fields: fields("x-b", filler("b", 30), "x-a", filler("a", 30))},
		}},
		{name: "entry-size/exact", blocks: []block{
			{acked: []uint32{128}, fields: fields("x-c", filler("c", 29))},
			{fields: fields("x-d", filler("d", 29))},
			{fields: fields("x-c", filler("c", 29), "x-d", filler("d", 29))},
		}},
	}
}

// common fields that most policies index.
var indexable = fields(":authority", "www.example.com", "user-agent", "hpackcert/1", "x-request-tag", "alpha", "accept-language", "en-GB")

// sizeStories move the setting down, up and several times between blocks.
func sizeStories() []story {
	return []story{
		{name: "size-updates/reduce", blocks: []block{
			{fields: indexable},
			{acked: []uint32{2048}, fields: indexable},
			{acked: []uint32{0}, fields: indexable},
			{acked: []uint32{4096}, fields: indexable},
			{acked: []uint32{100}, fields: indexable},
			{acked: []uint32{8192}, fields: indexable},
		}},
		{name: "size-updates/down-then-up", blocks: []block{
			{fields: indexable},
			{acked: []uint32{0, 4096}, fields: indexable},
			{acked: []uint32{100, 4096}, fields: indexable},
			{acked: []uint32{2048, 50, 4096}, fields: indexable},
			{acked: []uint32{4096, 4096}, fields: indexable},
		}},
		{name: "size-updates/many", blocks: []block{
			{fields: indexable},
			{acked: []uint32{1000, 100, 2000, 4096}, fields: indexable},
			{acked: []uint32{300, 200, 3000}, fields: indexable},
			{acked: []uint32{4096}, fields: indexable},
		}},
	}
}

// emptyBlockStories follow setting changes with blocks that have no
// fields, as an empty trailers block would be.
func emptyBlockStories() []story {
	return []story{
		{name: "empty-block/reduce", blocks: []block{
			{fields: indexable},
			{acked: []uint32{0}},
			{fields: indexable},
		}},
		{name: "empty-block/down-then-up", blocks: []block{
			{fields: indexable},
			{acked: []uint32{100, 4096}},
			{fields: indexable},
		}},
	}
}

// evictResizeStories fill the table, then shrink it so that entries must go.
func evictResizeStories() []story {
	big := fields("x-one", filler("1", 60), "x-two", filler("2", 60), "x-three", filler("3", 60), "x-four", filler("4", 60))
	return []story{{name: "evict-resize", blocks: []block{
		{fields: big},
		{fields: big},
		{acked: []uint32{200}, fields: big},
		{fields: big},
		{acked: []uint32{0}, fields: big},
		{acked: []uint32{4096}, fields: big},
		{fields: big},
	}}}
}

// evictInsertStories fill a 256-octet table with three 80-octet entries,
// then add one of 150 octets: exactly two entries must go.
func evictInsertStories() []story {
	three := fields("x-e1", filler("e", 44), "x-e2", filler("f", 44), "x-e3", filler("g", 44))
	big := fields("x-big", filler("h", 113))
	all := append(append([]Field(nil), three...), big...)
	return []story{{name: "evict-insert", blocks: []block{
		{acked: []uint32{256}, fields: three},
		{fields: big},
		{fields: all},
		{fields: all},
	}}}
}

// giantStories send fields larger than the whole table, in values and in
// names, around fields that are indexed.
func giantStories() []story {
	return []story{
		{name: "giant/value", blocks: []block{
			{fields: indexable},
			{fields: append(fields("x-giant", filler("v", 5000)), indexable...)},
			{fields: indexable},
			{fields: append(append([]Field(nil), indexable...), fields("x-giant", filler("v", 5000))...)},
			{fields: indexable},
		}},
		{name: "giant/name", blocks: []block{
			{fields: indexable},
			{fields: fields(filler("n", 4100), "v")},
			{fields: indexable},
		}},
		{name: "giant/small-table", blocks: []block{
			{acked: []uint32{100}, fields: fields("x-s", filler("s", 30))},
			{fields: fields("x-t", filler("t", 70), "x-s", filler("s", 30))},
			{fields: fields("x-s", filler("s", 30), "x-t", filler("t", 70))},
		}},
	}
}

// octetStories send every octet value in values, together and alone.
func octetStories() []story {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	rev := make([]byte, 256)
	for i := range rev {
		rev[i] = byte(255 - i)
	}
	var singles []Field
	for i := 0; i < 256; i++ {
		singles = append(singles, Field{Name: "x-octet", Value: string([]byte{byte(i)})})
	}
	highs := strings.Repeat("\xff\xfe\xfd", 20)
	return []story{
		{name: "octets/all", blocks: []block{
			{fields: fields("x-all", string(all), "x-rev", string(rev))},
			{fields: fields("x-all", string(all), "x-high", highs)},
		}},
		{name: "octets/single", blocks: []block{{fields: singles}}},
		{name: "octets/utf8", blocks: []block{
			{fields: fields("x-utf8", "ÿ€→𝄞 \u00a0", "x-latin", "café, naïve, Ünïcödé")},
		}},
	}
}

// sensitiveStories mark fields sensitive: new ones, ones whose name is in
// the static table, ones equal to a static entry and ones that were
// indexed earlier without the mark.
func sensitiveStories() []story {
	s := func(name, value string) Field { return Field{Name: name, Value: value, Sensitive: true} }
	return []story{{name: "sensitive", blocks: []block{
		{fields: []Field{s("x-secret", "hunter2"), s("authorization", "Bearer abc"), s(":method", "GET")}},
		{fields: []Field{s("x-secret", "hunter2"), {Name: "x-token", Value: "public"}}},
		{fields: []Field{{Name: "x-token", Value: "public"}, s("x-token", "public")}},
		{fields: []Field{s("cookie", "session=0123456789abcdef0123456789abcdef")}},
		{acked: []uint32{0}, fields: []Field{s("x-secret", "hunter2")}},
	}}}
}

// credentialStories send authorization and cookies without the sensitive
// mark, the way most callers do.
func credentialStories() []story {
	return []story{{name: "credentials", blocks: []block{
		{fields: fields(":method", "GET", "authorization", "Basic dXNlcjpwYXNz", "cookie", "a=b")},
		{fields: fields(":method", "GET", "authorization", "Basic dXNlcjpwYXNz", "cookie", "a=b")},
		{fields: fields("cookie", "lang=en; theme=dark", "cookie", "id=1")},
		{fields: fields("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "cookie", "session=0123456789abcdef0123456789")},
	}}}
}

// ownAdversarial adds randomised sequences the generated stories may not
// stress: settings moving every block, many duplicates and mixed
// sensitivity, from a seeded source so that runs repeat.
func ownAdversarial(seed int64) []story {
	rng := rand.New(rand.NewSource(seed))
	var out []story
	for s := 0; s < 4; s++ {
		st := story{name: fmt.Sprintf("adversarial/random-%d", s)}
		for b := 0; b < 24; b++ {
			var in block
			if rng.Intn(3) == 0 {
				sizes := []uint32{0, 1, 31, 32, 33, 64, 100, 256, 1000, 4096, 8192}
				for k := rng.Intn(3) + 1; k > 0; k-- {
					in.acked = append(in.acked, sizes[rng.Intn(len(sizes))])
				}
			}
			for f := rng.Intn(12); f >= 0; f-- {
				name := fmt.Sprintf("x-h%d", rng.Intn(8))
				value := strings.Repeat(string(rune('a'+rng.Intn(26))), rng.Intn(40))
				if rng.Intn(10) == 0 {
					value = strings.Repeat("z", 300+rng.Intn(5000))
				}
				in.fields = append(in.fields, Field{Name: name, Value: value, Sensitive: rng.Intn(8) == 0})
			}
			st.blocks = append(st.blocks, in)
		}
		out = append(out, st)
	}
	return out
}
