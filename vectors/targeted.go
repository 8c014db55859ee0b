package vectors

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The targeted scenarios of Scenario: stories written for one rule each
// (entry sizes, size updates, eviction, giant fields, every octet,
// sensitive fields), beside the generated ones of GenerateStories.

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
func entrySizeStories() []Story {
	return []Story{
		{Path: "entry-size/evict", Cases: []Case{
			{TableSizes: []uint32{128}, Headers: fields("x-a", filler("a", 30))},
			{Headers: fields("x-b", filler("b", 30))},
			{Headers: fields("x-a", filler("a", 30), "x-b", filler("b", 30))},
			{Headers: fields("x-b", filler("b", 30), "x-a", filler("a", 30))},
		}},
		{Path: "entry-size/exact", Cases: []Case{
			{TableSizes: []uint32{128}, Headers: fields("x-c", filler("c", 29))},
			{Headers: fields("x-d", filler("d", 29))},
			{Headers: fields("x-c", filler("c", 29), "x-d", filler("d", 29))},
		}},
	}
}

// common fields that most policies index.
var indexable = fields(":authority", "www.example.com", "user-agent", "hpackcert/1", "x-request-tag", "alpha", "accept-language", "en-GB")

// sizeStories move the setting down, up and several times between blocks.
func sizeStories() []Story {
	return []Story{
		{Path: "size-updates/reduce", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{2048}, Headers: indexable},
			{TableSizes: []uint32{0}, Headers: indexable},
			{TableSizes: []uint32{4096}, Headers: indexable},
			{TableSizes: []uint32{100}, Headers: indexable},
			{TableSizes: []uint32{8192}, Headers: indexable},
		}},
		{Path: "size-updates/down-then-up", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{0, 4096}, Headers: indexable},
			{TableSizes: []uint32{100, 4096}, Headers: indexable},
			{TableSizes: []uint32{2048, 50, 4096}, Headers: indexable},
			{TableSizes: []uint32{4096, 4096}, Headers: indexable},
		}},
		{Path: "size-updates/many", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{1000, 100, 2000, 4096}, Headers: indexable},
			{TableSizes: []uint32{300, 200, 3000}, Headers: indexable},
			{TableSizes: []uint32{4096}, Headers: indexable},
		}},
	}
}

// emptyBlockStories follow setting changes with blocks that have no
// fields, as an empty trailers block would be.
func emptyBlockStories() []Story {
	return []Story{
		{Path: "empty-block/reduce", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{0}},
			{Headers: indexable},
		}},
		{Path: "empty-block/down-then-up", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{100, 4096}},
			{Headers: indexable},
		}},
	}
}

// evictResizeStories fill the table, then shrink it so that entries must go.
func evictResizeStories() []Story {
	big := fields("x-one", filler("1", 60), "x-two", filler("2", 60), "x-three", filler("3", 60), "x-four", filler("4", 60))
	return []Story{{Path: "evict-resize", Cases: []Case{
		{Headers: big},
		{Headers: big},
		{TableSizes: []uint32{200}, Headers: big},
		{Headers: big},
		{TableSizes: []uint32{0}, Headers: big},
		{TableSizes: []uint32{4096}, Headers: big},
		{Headers: big},
	}}}
}

// evictInsertStories fill a 256-octet table with three 80-octet entries,
// then add one of 150 octets: exactly two entries must go. The own-name
// stories add entries whose name is that of an entry their own insertion
// evicts (§4.4: the decoder reads the name before it evicts), the oldest
// alone, the oldest with the next and the newest after the oldest, then
// send every field an encoder could wrongly refer to afterwards, evicted
// ones and the new one, in both orders: each of those evicts its name's
// entry again.
func evictInsertStories() []Story {
	three := fields("x-e1", filler("e", 44), "x-e2", filler("f", 44), "x-e3", filler("g", 44))
	big := fields("x-big", filler("h", 113))
	all := append(append([]Field(nil), three...), big...)
	// 67-octet entries in a table of 100: each evicts the other.
	a, b, c := filler("a", 30), filler("b", 30), filler("c", 30)
	// 65-octet entries, two in a table of 200; one of 140 evicts both,
	// one of 75 the oldest alone.
	pair := fields("x-a", a, "x-b", b)
	n, m, p := filler("n", 105), filler("m", 105), filler("p", 40)
	return []Story{
		{Path: "evict-insert", Cases: []Case{
			{TableSizes: []uint32{256}, Headers: three},
			{Headers: big},
			{Headers: all},
			{Headers: all},
		}},
		{Path: "evict-insert/own-name", Cases: []Case{
			{TableSizes: []uint32{100}, Headers: fields("x-own", a)},
			{Headers: fields("x-own", b)},
			{Headers: fields("x-own", a, "x-own", b, "x-own", c)},
			{Headers: fields("x-own", c, "x-own", b, "x-own", a)},
		}},
		{Path: "evict-insert/own-name-oldest-of-two", Cases: []Case{
			{TableSizes: []uint32{200}, Headers: pair},
			{Headers: fields("x-a", n)},
			{Headers: fields("x-a", a, "x-b", b, "x-a", n)},
			{Headers: fields("x-a", n, "x-b", b, "x-a", a)},
		}},
		{Path: "evict-insert/own-name-newest-of-two", Cases: []Case{
			{TableSizes: []uint32{200}, Headers: pair},
			{Headers: fields("x-b", m)},
			{Headers: fields("x-b", b, "x-a", a, "x-b", m)},
			{Headers: fields("x-b", m, "x-a", a, "x-b", b)},
		}},
		{Path: "evict-insert/own-name-oldest-alone", Cases: []Case{
			{TableSizes: []uint32{200}, Headers: pair},
			{Headers: fields("x-a", p)},
			{Headers: fields("x-a", a, "x-b", b, "x-a", p)},
			{Headers: fields("x-a", p, "x-b", b, "x-a", a)},
		}},
	}
}

// giantStories send fields larger than the whole table, in values and in
// names, around fields that are indexed.
func giantStories() []Story {
	return []Story{
		{Path: "giant/value", Cases: []Case{
			{Headers: indexable},
			{Headers: append(fields("x-giant", filler("v", 5000)), indexable...)},
			{Headers: indexable},
			{Headers: append(append([]Field(nil), indexable...), fields("x-giant", filler("v", 5000))...)},
			{Headers: indexable},
		}},
		{Path: "giant/name", Cases: []Case{
			{Headers: indexable},
			{Headers: fields(filler("n", 4100), "v")},
			{Headers: indexable},
		}},
		{Path: "giant/small-table", Cases: []Case{
			{TableSizes: []uint32{100}, Headers: fields("x-s", filler("s", 30))},
			{Headers: fields("x-t", filler("t", 70), "x-s", filler("s", 30))},
			{Headers: fields("x-s", filler("s", 30), "x-t", filler("t", 70))},
		}},
	}
}

// octetStories send every octet value in values, together and alone.
// For a transport that carries only UTF-8 (utf8Only), each octet travels
// inside the shortest valid UTF-8 sequence holding it (utf8Holding), so
// that only the 13 octets no UTF-8 sequence holds are left for
// scenarioStories to drop.
func octetStories(utf8Only bool) []Story {
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
	return []Story{
		{Path: "octets/all", Cases: []Case{
			{Headers: fields("x-all", all.String(), "x-rev", rev.String())},
			{Headers: fields("x-all", all.String(), "x-high", highs)},
		}},
		{Path: "octets/single", Cases: []Case{{Headers: singles}}},
		{Path: "octets/utf8", Cases: []Case{
			{Headers: fields("x-utf8", "ÿ€→𝄞 \u00a0", "x-latin", "café, naïve, Ünïcödé")},
		}},
	}
}

// sensitiveStories mark fields sensitive: new ones, ones whose name is in
// the static table, ones equal to a static entry and ones that were
// indexed earlier without the mark.
func sensitiveStories() []Story {
	s := func(name, value string) Field { return Field{Name: name, Value: value, Sensitive: true} }
	return []Story{{Path: "sensitive", Cases: []Case{
		{Headers: []Field{s("x-secret", "hunter2"), s("authorization", "Bearer abc"), s(":method", "GET")}},
		{Headers: []Field{s("x-secret", "hunter2"), {Name: "x-token", Value: "public"}}},
		{Headers: []Field{{Name: "x-token", Value: "public"}, s("x-token", "public")}},
		{Headers: []Field{s("cookie", "session=0123456789abcdef0123456789abcdef")}},
		{TableSizes: []uint32{0}, Headers: []Field{s("x-secret", "hunter2")}},
	}}}
}

// credentialStories send authorization and cookies without the sensitive
// mark, the way most callers do.
func credentialStories() []Story {
	return []Story{{Path: "credentials", Cases: []Case{
		{Headers: fields(":method", "GET", "authorization", "Basic dXNlcjpwYXNz", "cookie", "a=b")},
		{Headers: fields(":method", "GET", "authorization", "Basic dXNlcjpwYXNz", "cookie", "a=b")},
		{Headers: fields("cookie", "lang=en; theme=dark", "cookie", "id=1")},
		{Headers: fields("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "cookie", "session=0123456789abcdef0123456789")},
		{Headers: fields("proxy-authorization", "Basic cHJveHk6cGFzcw==", "cookie", "theme=dark")},
		{Headers: fields("proxy-authorization", "Basic cHJveHk6cGFzcw==", "cookie", "theme=dark")},
	}}}
}

// ownAdversarial adds randomised sequences the generated stories may not
// stress: settings moving every block, many duplicates and mixed
// sensitivity, from a seeded source so that runs repeat.
func ownAdversarial(seed int64) []Story {
	rng := rand.New(rand.NewSource(seed))
	var out []Story
	for s := 0; s < 4; s++ {
		st := Story{Path: fmt.Sprintf("adversarial/random-%d", s)}
		for b := 0; b < 24; b++ {
			var in Case
			if rng.Intn(3) == 0 {
				sizes := []uint32{0, 1, 31, 32, 33, 64, 100, 256, 1000, 4096, 8192}
				for k := rng.Intn(3) + 1; k > 0; k-- {
					in.TableSizes = append(in.TableSizes, sizes[rng.Intn(len(sizes))])
				}
			}
			for f := rng.Intn(12); f >= 0; f-- {
				name := fmt.Sprintf("x-h%d", rng.Intn(8))
				value := strings.Repeat(string(rune('a'+rng.Intn(26))), rng.Intn(40))
				if rng.Intn(10) == 0 {
					value = strings.Repeat("z", 300+rng.Intn(5000))
				}
				in.Headers = append(in.Headers, Field{Name: name, Value: value, Sensitive: rng.Intn(8) == 0})
			}
			st.Cases = append(st.Cases, in)
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
func huffmanOctetStories(utf8Only bool) []Story {
	const perBlock = 16
	st := Story{Path: "huffman-octets"}
	for first := 0; first < 256; first += perBlock {
		var b Case
		for x := first; x < first+perBlock; x++ {
			octets := string([]byte{byte(x)})
			if utf8Only {
				octets = utf8Holding(byte(x))
			}
			b.Headers = append(b.Headers, Field{Name: fmt.Sprintf("x-huffman-%02x", x), Value: huffmanRun[:20] + octets + huffmanRun[20:]})
		}
		st.Cases = append(st.Cases, b)
	}
	return []Story{st}
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
// each integer prefix at every value where its number of continuation
// octets changes (§5.1): 2^N-1, 2^N-1+127, 2^N-1+128, 2^N-1+2^14-1 and
// 2^N-1+2^14, for indices (7 bits), name indices (6 bits with
// incremental indexing, 4 bits without), size updates (5 bits, and
// 2^5-1+2^21 too) and string lengths (7 bits). Indices past 2^N-1+127
// take more entries than a 4,096-octet table holds, so their stories
// acknowledge larger tables: an encoder whose capacity is smaller stays
// at its own, and the coverage section says which boundaries its table
// put out of reach. Each value is followed by a block that refers to what
// it inserted, so that a wrong one shows in the decoded fields.
func specCoverageStories() []Story {
	var exact, names []Field
	seen := map[string]bool{}
	for _, f := range spec.StaticTable {
		exact = append(exact, Field{Name: f.Name, Value: f.Value})
		if !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, Field{Name: f.Name, Value: "hpackcert-value"})
		}
	}
	// 90 entries of 38 octets fill 3,420 of the 4,096: entry i at index
	// 151-i.
	var fill []Field
	for i := 0; i < 90; i++ {
		fill = append(fill, Field{Name: fmt.Sprintf("x-i%02d", i), Value: "v"})
	}
	sensitive := func(name, value string) Field { return Field{Name: name, Value: value, Sensitive: true} }
	rawRun := func(n int) string { return strings.Repeat("X", n) } // 8-bit code: Huffman is never shorter
	return []Story{
		{Path: "spec-coverage/static", Cases: []Case{
			{Headers: exact},
			{Headers: names},
		}},
		{Path: "spec-coverage/indices", Cases: []Case{
			{Headers: fill},
			// Every entry again: indexed fields 62-151, 127 among them.
			{Headers: fill},
			// Names of entries 8 and 9, never indexed: 4-bit name indices
			// 143 and 142.
			{Headers: []Field{sensitive("x-i08", "secret"), sensitive("x-i09", "secret")}},
			// A new value for the second newest name: 6-bit name index 63,
			// then the entry it made, by index.
			{Headers: fields("x-i88", "w")},
			{Headers: fields("x-i88", "w", "x-i08", "v")},
			// Sensitive fields equal to static entry 14 and named by
			// entries 15 and 16: 4-bit name indices 14-16.
			{Headers: []Field{sensitive(":status", "500"), sensitive("accept-charset", "utf-8"), sensitive("accept-encoding", "gzip, deflate")}},
		}},
		largeTableStory(),
		{Path: "spec-coverage/size-updates", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{31}, Headers: indexable},
			{Headers: indexable},
			{TableSizes: []uint32{158}, Headers: indexable},
			{Headers: indexable},
			{TableSizes: []uint32{159}, Headers: indexable},
			{Headers: indexable},
			{TableSizes: []uint32{4096}, Headers: indexable},
			{Headers: indexable},
		}},
		{Path: "spec-coverage/large-size-updates", Cases: []Case{
			{Headers: indexable},
			{TableSizes: []uint32{1<<5 - 1 + 1<<14 - 1}, Headers: fields("x-size", "16414")},
			{Headers: fields("x-size", "16414")},
			{TableSizes: []uint32{1<<5 - 1 + 1<<14}, Headers: fields("x-size", "16415")},
			{Headers: fields("x-size", "16415", "x-size", "16414")},
			{TableSizes: []uint32{1<<5 - 1 + 1<<21}, Headers: fields("x-size", "2097183")},
			{Headers: fields("x-size", "2097183", "x-size", "16415")},
			{TableSizes: []uint32{4096}, Headers: indexable},
			{Headers: indexable},
		}},
		{Path: "spec-coverage/string-lengths", Cases: []Case{
			{Headers: fields("x-len", rawRun(127), "x-len", rawRun(254), "x-len", rawRun(255))},
			{Headers: fields("x-len", rawRun(255), "x-len", rawRun(254), "x-len", rawRun(127))},
			// Room for both in a table that acknowledges it.
			{TableSizes: []uint32{64 << 10}, Headers: fields("x-len", rawRun(1<<7-1+1<<14-1), "x-len", rawRun(1<<7-1+1<<14))},
			{Headers: fields("x-len", rawRun(1<<7-1+1<<14), "x-len", rawRun(1<<7-1+1<<14-1))},
		}},
	}
}

// largeEntries is the number of entries of largeTableStory: the oldest is
// at index 61+16,450 = 16,511, 2^7-1+2^14.
const largeEntries = 1<<7 - 1 + 1<<14 - spec.StaticTableLen

// largeTableStory acknowledges a table of 1 MiB and fills it with
// largeEntries entries of 37 octets (608,650 in all), entry i at index
// 61+largeEntries-i, then refers to them at the index and name index
// boundaries past a 4,096-octet table: indexed fields 16,511, 16,510, 255
// and 254, never-indexed names 16,399 and 16,398, and names with
// incremental indexing 16,447, 16,446, 191 and 190 (each insertion moves
// the next index up by one), then the entries those made.
func largeTableStory() Story {
	const n = largeEntries
	name := func(i int) string { return fmt.Sprintf("%04x", i) }
	fill := make([]Field, n)
	for i := range fill {
		fill[i] = Field{Name: name(i), Value: "v"}
	}
	entry := func(i int) Field { return Field{Name: name(i), Value: "v"} }
	named := func(i int) Field { return Field{Name: name(i), Value: "w"} }
	sensitive := func(i int) Field { return Field{Name: name(i), Value: "secret", Sensitive: true} }
	// The fill goes in blocks of 1,024 fields, so that what the certifier
	// keeps of a block while it is judged stays small.
	st := Story{Path: "spec-coverage/large-table"}
	for i := 0; i < n; i += 1024 {
		st.Cases = append(st.Cases, Case{Headers: fill[i:min(i+1024, n)]})
	}
	st.Cases[0].TableSizes = []uint32{1 << 20}
	st.Cases = append(st.Cases, []Case{
		{Headers: []Field{entry(0), entry(1), entry(n - 194), entry(n - 193)}},
		{Headers: []Field{sensitive(n - 16338), sensitive(n - 16337)}},
		{Headers: []Field{named(n - 16386), named(n - 16384), named(n - 128), named(n - 126)}},
		{Headers: []Field{named(n - 126), named(n - 128), named(n - 16384), named(n - 16386), entry(0)}},
	}...)
	return st
}
