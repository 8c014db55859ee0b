package certify

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
)

// A scenario is a named list of stories that several cases examine; each
// target plays it once per run.
const (
	scTraffic       = "traffic"        // real traffic: hpack-test-case raw-data, embedded
	scAdversarial   = "adversarial"    // vectors.GenerateStories plus our own sequences
	scEntrySize     = "entry-size"     // §4.1 sizes that differ by one octet of overhead
	scSizes         = "size-updates"   // §4.2 settings going down, up, and several times
	scEmptyBlock    = "empty-block"    // §4.2 a setting change followed by a block without fields
	scEvictResize   = "evict-resize"   // §4.3 a table emptied by a smaller setting
	scEvictInsert   = "evict-insert"   // §4.4 an entry evicting exactly two others
	scGiant         = "giant"          // §4.4 entries larger than the table
	scOctets        = "octets"         // §5.2 all 256 octets in values
	scHuffmanOctets = "huffman-octets" // §5.2, App. B each octet where Huffman is shorter
	scSpec          = "spec-coverage"  // App. A every static entry and name; §5.1 prefix boundaries
	scSensitive     = "sensitive"      // §7.1.3 fields marked sensitive
	scCredentials   = "credentials"    // §7.1.3 authorization, proxy-authorization and short cookies
)

// targetedScenarios are every scenario but the traffic and empty-block;
// allScenarios adds those two. The rules of the wire (integers, Huffman,
// size updates, never-indexed fields) are checked on all of them. The
// round trip and table cases leave empty-block out: a block without fields
// that lacks its size update is enc/4.2/4's, graded non-strict, and must
// not also fail enc/3.2/2 when the strict oracle rejects it.
var (
	targetedScenarios = []string{scAdversarial, scEntrySize, scSizes, scEvictResize, scEvictInsert, scGiant, scOctets, scHuffmanOctets, scSpec, scSensitive, scCredentials}
	allScenarios      = append([]string{scTraffic, scEmptyBlock}, targetedScenarios...)
)

// scenarioStories builds the stories of a scenario. With utf8Only, the
// octets that hpack-stdio/1 cannot carry in JSON strings are left out of
// every field, and dropped lists the octet values that no longer occur.
func (r *runner) scenarioStories(name string, utf8Only bool) (stories []story, dropped []byte, err error) {
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
	if !utf8Only {
		return stories, nil, nil
	}
	var before, after octetSet
	for si := range stories {
		for bi := range stories[si].blocks {
			fields := stories[si].blocks[bi].fields
			for fi, f := range fields {
				before.addString(f.Name)
				before.addString(f.Value)
				fields[fi].Name = strings.ToValidUTF8(f.Name, "")
				fields[fi].Value = strings.ToValidUTF8(f.Value, "")
				after.addString(fields[fi].Name)
				after.addString(fields[fi].Value)
			}
		}
	}
	return stories, before.minus(&after), nil
}

// generated returns the stories of a scenario other than the traffic, or
// nil for an unknown name.
func (r *runner) generated(name string, utf8Only bool) (stories []story) {
	switch name {
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
		stories = octetStories(utf8Only)
	case scHuffmanOctets:
		stories = huffmanOctetStories(utf8Only)
	case scSpec:
		stories = specCoverageStories()
	case scSensitive:
		stories = sensitiveStories()
	case scCredentials:
		stories = credentialStories()
	}
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
		return cloneStories(r.trafficStories), nil
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
			return nil, fmt.Errorf("certify: traffic stories: %w", err)
		}
		for _, v := range vs {
			if len(v.Cases) == 0 {
				return nil, fmt.Errorf("certify: traffic stories: %s: the story has no cases", v.Path)
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
			if len(stories[i].blocks) > n {
				stories[i].blocks = stories[i].blocks[:n]
			}
		}
	}
	blocks := 0
	for _, st := range stories {
		blocks += len(st.blocks)
	}
	if blocks == 0 {
		return nil, fmt.Errorf("certify: traffic stories from %s hold no header block", r.trafficSource)
	}
	r.trafficSource += fmt.Sprintf("; %d blocks of %d stories used", blocks, len(stories))
	r.trafficStories = stories
	return cloneStories(stories), nil
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
// For a transport that carries only UTF-8 (utf8Only), each octet travels
// inside the shortest valid UTF-8 sequence holding it (utf8Holding), so
// that only the 13 octets no UTF-8 sequence holds are left for
// scenarioStories to drop.
func octetStories(utf8Only bool) []story {
	octet := func(x byte) string {
		if utf8Only {
			return utf8Holding(x)
		}
		return string([]byte{x})
	}
	var all, rev strings.Builder
	var singles []Field
	for x := 0; x < 256; x++ {
		all.WriteString(octet(byte(x)))
		rev.WriteString(octet(byte(255 - x)))
		singles = append(singles, Field{Name: "x-octet", Value: octet(byte(x))})
	}
	highs := strings.Repeat(octet(0xff)+octet(0xfe)+octet(0xfd), 20)
	return []story{
		{name: "octets/all", blocks: []block{
			{fields: fields("x-all", all.String(), "x-rev", rev.String())},
			{fields: fields("x-all", all.String(), "x-high", highs)},
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
		{fields: fields("proxy-authorization", "Basic cHJveHk6cGFzcw==", "cookie", "theme=dark")},
		{fields: fields("proxy-authorization", "Basic cHJveHk6cGFzcw==", "cookie", "theme=dark")},
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

// shortCodes are the characters with the shortest Huffman codes, 5 bits
// (RFC 7541 Appendix B): a run of them makes Huffman coding shorter than
// the raw string whatever one octet is embedded in it.
const shortCodes = "012aceiost"

// huffmanRun is the run around each octet of huffmanOctetStories: 40
// characters of 5 bits save 120 bits, more than the longest code (30
// bits) and the four octets of a UTF-8 sequence (4 x 30 bits) cost over
// their raw octets.
var huffmanRun = strings.Repeat(shortCodes, 4)

// huffmanOctetStories send every octet value 0-255 inside a run of 5-bit
// characters, one octet per field named after it, so that an encoder that
// Huffman-codes when shorter sends every code of Appendix B. For a
// transport that carries only UTF-8 (utf8Only), an octet is sent inside
// the shortest valid UTF-8 sequence holding it; the 13 octets no UTF-8
// sequence holds are left for scenarioStories to drop.
func huffmanOctetStories(utf8Only bool) []story {
	const perBlock = 16
	st := story{name: "huffman-octets"}
	for first := 0; first < 256; first += perBlock {
		var b block
		for x := first; x < first+perBlock; x++ {
			octets := string([]byte{byte(x)})
			if utf8Only {
				octets = utf8Holding(byte(x))
			}
			b.fields = append(b.fields, Field{Name: fmt.Sprintf("x-huffman-%02x", x), Value: huffmanRun[:20] + octets + huffmanRun[20:]})
		}
		st.blocks = append(st.blocks, b)
	}
	return []story{st}
}

// utf8Holding returns the shortest valid UTF-8 sequence that holds octet
// x, or x alone when no UTF-8 sequence holds it (0xc0, 0xc1, 0xf5-0xff).
func utf8Holding(x byte) string {
	switch {
	case x < 0x80:
		return string(rune(x))
	case x < 0xc0: // a continuation octet, after a lead octet
		return string([]byte{0xc2, x})
	case x >= 0xc2 && x < 0xe0:
		return string([]byte{x, 0x80})
	case x == 0xe0:
		return "\xe0\xa0\x80"
	case x > 0xe0 && x < 0xf0:
		return string([]byte{x, 0x80, 0x80})
	case x == 0xf0:
		return "\xf0\x90\x80\x80"
	case x > 0xf0 && x <= 0xf4:
		return string([]byte{x, 0x80, 0x80, 0x80})
	}
	return string([]byte{x})
}

// specCoverageStories exercise, for any conforming encoder, the parts of
// RFC 7541 that traffic reaches only by luck: every static entry as an
// exact match and every static name with another value (Appendix A), and
// each integer prefix at its boundaries 2^N-2, 2^N-1, 2^N and past them
// (§5.1): indices 126-128 and past 128 (dynamic indices past 127), name
// indices 62-64 with incremental indexing and 14-16 and past 143 without,
// size updates 30-32 and 4096, string lengths 126-128 and 16,383-16,385.
// The coverage section of the report says which of them an encoder's
// wire actually used.
func specCoverageStories() []story {
	var exact, names []Field
	seen := map[string]bool{}
	for _, f := range spec.StaticTable {
		exact = append(exact, Field{Name: f.Name, Value: f.Value})
		if !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, Field{Name: f.Name, Value: "hpackcert-value"})
		}
	}
	// 90 entries of 38 octets fill 3,420 of the 4,096: indices 62-151.
	var fill []Field
	for i := 0; i < 90; i++ {
		fill = append(fill, Field{Name: fmt.Sprintf("x-i%02d", i), Value: "v"})
	}
	sensitive := func(name, value string) Field { return Field{Name: name, Value: value, Sensitive: true} }
	rawRun := func(n int) string { return strings.Repeat("X", n) } // 8-bit code: Huffman is never shorter
	return []story{
		{name: "spec-coverage/static", blocks: []block{
			{fields: exact},
			{fields: names},
		}},
		{name: "spec-coverage/indices", blocks: []block{
			{fields: fill},
			// Every entry again: indexed fields 62-151.
			{fields: fill},
			// The oldest entry's name, never indexed: name index 151,
			// two continuation octets after a 4-bit prefix.
			{fields: []Field{sensitive("x-i00", "secret")}},
			// New values for the newest names: name indices 62, then 64
			// (x-i88's entry moved down by one), then 63.
			{fields: fields("x-i89", "w")},
			{fields: fields("x-i88", "w")},
			{fields: fields("x-i89", "z")},
			{fields: fields("x-i50", "w")},
			// Sensitive fields equal to static entries 14 and 16, and
			// one named by entry 15: 4-bit name indices 14-16.
			{fields: []Field{sensitive(":status", "500"), sensitive("accept-charset", "utf-8"), sensitive("accept-encoding", "gzip, deflate")}},
		}},
		{name: "spec-coverage/size-updates", blocks: []block{
			{fields: indexable},
			{acked: []uint32{30}, fields: indexable},
			{acked: []uint32{31}, fields: indexable},
			{acked: []uint32{32}, fields: indexable},
			{acked: []uint32{4096}, fields: indexable},
		}},
		{name: "spec-coverage/string-lengths", blocks: []block{
			{fields: fields("x-len", rawRun(126), "x-len", rawRun(127), "x-len", rawRun(128))},
			{fields: fields("x-len", rawRun(16383), "x-len", rawRun(16384), "x-len", rawRun(16385))},
		}},
	}
}
