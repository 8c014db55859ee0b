package certify

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/vectors"
)

// decStep is one header block of a dec/ story, with the settings in
// force for it. What the decoder must make of it (expect) is the strict
// decoder's outcome, computed by prepare.
type decStep struct {
	// tableSize is the SETTINGS_HEADER_TABLE_SIZE acknowledged for the
	// block (4096 when the story never changes it).
	tableSize uint32
	// maxList is the SETTINGS_MAX_HEADER_LIST_SIZE advertised for the
	// block, 0 for none.
	maxList uint32
	block   []byte
	// invalid marks the block the case tests a refusal on: the strict
	// decoder refuses it, and so must the decoder certified. It is the
	// last block of its story.
	invalid bool
	// note says what the block holds, for reproductions.
	note string
	// authority, when set, is where asRequests put the block's :authority
	// (from, to): what the block uses is read without it, so that the
	// literal a live server needs counts for no case.
	authority [2]int

	expect decExpect
}

// decExpect is the strict decoder's outcome of a step.
type decExpect struct {
	fields  []Field
	table   []Field
	refused string // the strict decoder's error, "" when it decoded the block
	feats   decFeature
	ev      Evidence // what the block holds, counted as Evidence counts
	// httpInvalid says why the block's fields are not valid HTTP/2 fields
	// (RFC 9113 §8.2.1), "" when they are: a live target may refuse such
	// a block for that, so its refusal judges nothing.
	httpInvalid string
	// longest is the length of the block's longest string, decoded.
	longest int
}

// decStory is a sequence of blocks decoded in one fresh context.
type decStory struct {
	name  string
	steps []decStep
}

// story builder helpers: every step starts at the story's settings.
type storyBuilder struct {
	s         decStory
	tableSize uint32
	maxList   uint32
}

func newStory(name string) *storyBuilder {
	return &storyBuilder{s: decStory{name: name}, tableSize: spec.DefaultTableSize}
}

func (b *storyBuilder) settings(tableSize, maxList uint32) *storyBuilder {
	b.tableSize, b.maxList = tableSize, maxList
	return b
}

func (b *storyBuilder) add(note string, w *blockWriter) *storyBuilder {
	b.s.steps = append(b.s.steps, decStep{tableSize: b.tableSize, maxList: b.maxList, block: w.bytes(), note: note})
	return b
}

// refuse adds the block the story's case tests a refusal on.
func (b *storyBuilder) refuse(note string, w *blockWriter) decStory {
	b.s.steps = append(b.s.steps, decStep{tableSize: b.tableSize, maxList: b.maxList, block: w.bytes(), note: note, invalid: true})
	return b.s
}

func (b *storyBuilder) done() decStory { return b.s }

// filler returns n octets of a letter, raw and Huffman alike.
func filler(c byte, n int) string { return strings.Repeat(string(c), n) }

// staticStories: dec/2.3.3/1, every static entry indexed and every
// static name as a literal's name.
func staticStories() []decStory {
	all := newBlock()
	for i := uint64(1); i <= spec.StaticTableLen; i++ {
		all.indexed(i)
	}
	// Names 1 to 14 only: a 4-bit prefix holds them in one octet, so
	// the story needs no integer of several octets (dec/5.1/1).
	names := newBlock()
	for i := uint64(1); i <= 14; i++ {
		names.literal(wire.WithoutIndexing, i, "", "v", false)
	}
	return []decStory{newStory("static").add("indices 1 to 61", all).add("names 1 to 14 with value v", names).done()}
}

// octetChunk returns the octets 64*chunk to 64*chunk+63 between an a and
// a z, so that no octet is at an end of the string.
func octetChunk(chunk int) string {
	var v strings.Builder
	v.WriteByte('a')
	for x := chunk * 64; x < chunk*64+64; x++ {
		v.WriteByte(byte(x))
	}
	v.WriteByte('z')
	return v.String()
}

// huffmanStories: dec/5.2/2, every octet Huffman-coded, in names and
// values, no string starting or ending with whitespace.
func huffmanStories() []decStory {
	b := newStory("huffman")
	for chunk := 0; chunk < 4; chunk++ {
		v := octetChunk(chunk)
		// The octets go in the value and, lowercased, in the name: a
		// decoder that lowercases names breaks octet preservation
		// (dec/5.2/1), not Huffman decoding, and must be filed there.
		b.add(fmt.Sprintf("octets 0x%02x-0x%02x Huffman-coded", chunk*64, chunk*64+63),
			newBlock().literal(wire.WithoutIndexing, 0, "x-huff"+strings.ToLower(v), v, true))
	}
	b.add("Huffman names and values of common text", newBlock().
		literal(wire.WithoutIndexing, 4, "", "/index.html?q=1", true).
		literal(wire.WithoutIndexing, 0, "x-custom", "Mozilla/5.0 (X11)", true).
		literal(wire.WithoutIndexing, 0, "e", "", true))
	return []decStory{b.done()}
}

// rawStories: dec/5.2/1, every octet raw, then strings that start or
// end with whitespace (Huffman-coded first, raw after), kept as sent.
func rawStories() []decStory {
	octets := newStory("raw-octets")
	for chunk := 0; chunk < 4; chunk++ {
		v := octetChunk(chunk)
		octets.add(fmt.Sprintf("octets 0x%02x-0x%02x raw", chunk*64, chunk*64+63),
			newBlock().plain("x-raw"+v, v))
	}
	edges := func(huffman bool) *blockWriter {
		w := newBlock()
		for _, v := range []string{" lead", "trail ", "\tboth\t", " ", "\t", "", "  two  "} {
			w.literal(wire.WithoutIndexing, 0, "x-ws", v, huffman)
		}
		w.literal(wire.WithoutIndexing, 0, "x-name-ws ", "v", huffman)
		w.literal(wire.WithoutIndexing, 0, " x-name-lead", "v", huffman)
		return w
	}
	ws := newStory("whitespace").
		add("values and names with leading and trailing whitespace, Huffman-coded", edges(true)).
		add("the same, raw", edges(false))
	return []decStory{octets.done(), ws.done()}
}

// insertStories: dec/6.2.1/1, entries inserted and referenced, newest
// first.
func insertStories() []decStory {
	b := newStory("insert").
		add("three insertions", newBlock().insert("x-a", "1").insert("x-b", "2").insert("x-c", "3")).
		add("indices 62, 63, 64 and name index 64", newBlock().indexed(62).indexed(63).indexed(64).literal(wire.WithoutIndexing, 64, "", "4", false)).
		add("an insertion with a dynamic name, then index 62 and 65", newBlock().literal(wire.Incremental, 63, "", "5", false).indexed(62).indexed(65)).
		add("a static name inserted, then index 62", newBlock().literal(wire.Incremental, 1, "", "example.com", false).indexed(62))
	return []decStory{b.done()}
}

// pastStories: dec/2.3.3/2, indices past both tables.
func pastStories() []decStory {
	return []decStory{
		newStory("past-empty").refuse("index 62 with an empty dynamic table", request().indexed(62)),
		newStory("past-two").add("two insertions", request().insert("x-a", "1").insert("x-b", "2")).
			refuse("index 64 with two entries", request().indexed(64)),
		newStory("past-name").add("two insertions", request().insert("x-a", "1").insert("x-b", "2")).
			refuse("name index 70 with two entries", request().literal(wire.WithoutIndexing, 70, "", "v", false)),
		newStory("past-large").refuse("index 2^20", request().indexed(1<<20)),
	}
}

// twoUpdateStories: dec/4.2/3, the smallest-then-final pair of size
// updates, with entries left by the first.
func twoUpdateStories() []decStory {
	b := newStory("two-updates").
		add("two insertions", newBlock().insert("x-a", "1").insert("x-b", "2")).
		add("updates to 2000 then 4096 (entries survive), then 62 and 63", newBlock().update(2000).update(4096).indexed(62).indexed(63)).
		// A block after the updates: a decoder that refuses valid blocks
		// once its table size changed fails here, the first case whose
		// stories update the size, not a later one.
		add("the block after the updates: an insertion, 62 and 64", newBlock().insert("x-c", "3").indexed(62).indexed(64))
	lowered := newStory("two-updates-after-settings").
		add("an insertion", newBlock().insert("x-a", "1"))
	lowered.tableSize = 1024
	lowered.add("the setting went down to 1024: updates to 512 then 1024", newBlock().update(512).update(1024).indexed(62)).
		add("the block after the updates: index 62", newBlock().indexed(62))
	return []decStory{b.done(), lowered.done()}
}

// integerStories: dec/5.1/1, integers at the continuation-octet
// transitions of every prefix: string lengths (7 bits), indices (7 bits),
// name indices (6 and 4 bits), size updates (5 bits).
func integerStories() []decStory {
	lengths := newStory("integer-lengths").settings(spec.DefaultTableSize, 0)
	for _, n := range []int{126, 127, 128, 254, 255, 256, 127 + 1<<14 - 1, 127 + 1<<14, 127 + 1<<14 + 1} {
		lengths.add(fmt.Sprintf("a %d-octet raw value and a %d-octet name", n, n),
			newBlock().plain("x-len", filler('a', n)).plain(filler('n', n), "v"))
	}
	lengths.add("a 16511-octet Huffman-coded value", newBlock().literal(wire.WithoutIndexing, 0, "x-len", filler('0', 127+1<<14), true))

	// 200 entries of 36 octets need a table of 16384 octets.
	indices := newStory("integer-indices").settings(16384, 0)
	fill := newBlock().update(16384)
	for i := 0; i < 200; i++ {
		fill.insert(fmt.Sprintf("e%03d", i), "")
	}
	indices.add("a size update to 16384 and 200 insertions", fill)
	refs := newBlock()
	for _, i := range []uint64{126, 127, 128, 129, 190, 254, 255, 256, 261} {
		refs.indexed(i)
	}
	for _, i := range []uint64{62, 63, 64, 65, 127, 128} {
		refs.literal(wire.Incremental, i, "", "x", false)
	}
	for _, i := range []uint64{14, 15, 16, 17, 142, 143} {
		refs.literal(wire.WithoutIndexing, i, "", "y", false)
	}
	indices.add("indices 126-261 (7-bit prefix), name indices 62-128 (6-bit) and 14-143 (4-bit)", refs)

	updates := newStory("integer-updates").
		add("size updates 30, 31, 32", newBlock().update(30).update(31).update(32).plain("x-a", "1")).
		add("size updates 157, 158", newBlock().update(157).update(158).insert("x-b", "2")).
		add("size updates 159, 4096, then index 62", newBlock().update(159).update(4096).indexed(62)).
		add("size update 31+2^14-1 after a 16384+31 setting, then a field", newBlock().update(31+1<<14-1).indexed(2)).done()
	updates.steps[len(updates.steps)-1].tableSize = 31 + 1<<14
	return []decStory{lengths.done(), indices.done(), updates}
}

// notInsertedStories: dec/6.2.2/1 and dec/6.2.3/1, literals that leave
// the table as it was.
func notInsertedStories(kind wire.Kind, name string) []decStory {
	b := newStory(name).
		add("one insertion", newBlock().insert("x-a", "1")).
		add("a literal of the kind under test, new name and static name", newBlock().literal(kind, 0, "x-b", "2", false).literal(kind, 2, "", "GET", true)).
		add("index 62 and name index 62", newBlock().indexed(62).literal(kind, 62, "", "3", false)).
		add("an insertion, then 62 and 63", newBlock().insert("x-c", "4").indexed(62).indexed(63))
	return []decStory{b.done()}
}

// evictStories: dec/4.4/1, eviction by insertion, oldest first. The
// entries are far from the table's bound, so a decoder counting another
// overhead than 32 (dec/4.1/1) evicts the same entries.
func evictStories() []decStory {
	e := func(tag string, n int) string { return filler(tag[0], n-len(tag)-2) }
	b := newStory("evict").
		add("three entries of 1332 octets", newBlock().insert("x-1", e("x-1", 1300)).insert("x-2", e("x-2", 1300)).insert("x-3", e("x-3", 1300))).
		add("a fourth evicts the first", newBlock().insert("x-4", e("x-4", 1300)).indexed(62).indexed(63).indexed(64)).
		add("an entry of 2632 octets evicts two", newBlock().insert("x-5", e("x-5", 2600)).indexed(62).indexed(63))
	return []decStory{b.done()}
}

// entrySizeStories: dec/4.1/1, tables filled to the octet: one overhead
// more and an entry is evicted that stays, one less and one stays that
// is evicted (then referenced, which must be refused).
func entrySizeStories() []decStory {
	exact := newStory("size-exact").
		add("two entries of 2048 octets: 4096, nothing evicted", newBlock().insert("x-a", filler('a', 2013)).insert("x-b", filler('b', 2013))).
		add("indices 62 and 63", newBlock().indexed(62).indexed(63)).done()
	over := newStory("size-over").
		add("entries of 2049 and 2048 octets: 4097, the first evicted", newBlock().insert("x-a", filler('a', 2014)).insert("x-b", filler('b', 2013))).
		add("index 62", newBlock().indexed(62)).
		refuse("index 63, evicted", newBlock().indexed(63))
	small := newStory("size-small").
		add("a 33-octet entry in a 33-octet table", newBlock().update(33).insert("x", "")).
		add("index 62", newBlock().indexed(62)).done()
	return []decStory{exact, over, small}
}

// oversizedStories: dec/4.4/2, an entry larger than the table empties it.
func oversizedStories() []decStory {
	b := newStory("oversized").
		add("two entries", newBlock().insert("x-a", "1").insert("x-b", "2")).
		add("an entry of 4097 octets: the table is emptied, the field is decoded", newBlock().insert("x-big", filler('g', 4097-32-5))).
		add("an insertion and index 62", newBlock().insert("x-c", "3").indexed(62)).
		add("an entry larger than the table again", newBlock().literal(wire.Incremental, 62, "", filler('h', 5000), true)).
		refuse("index 62 after the table was emptied", newBlock().indexed(62))
	return []decStory{b}
}

// ownNameStories: dec/4.4/3, a literal naming the entry its own insertion
// evicts.
func ownNameStories() []decStory {
	b := newStory("own-name").
		add("two entries of 2032 octets", newBlock().insert("x-own", filler('o', 2000-5)).insert("x-two", filler('t', 2000-5))).
		add("name index 63 (x-own) inserted with a value that evicts both", newBlock().literal(wire.Incremental, 63, "", filler('n', 3000), false).indexed(62)).
		add("name index 62 (the new x-own) again, evicting it", newBlock().literal(wire.Incremental, 62, "", filler('m', 3000), true).indexed(62)).done()
	// The oldest evicted, the name of the second: the index shifts.
	c := newStory("own-name-newest").
		add("two entries of 2032 octets", newBlock().insert("x-one", filler('o', 2000-5)).insert("x-own", filler('t', 2000-5))).
		add("name index 62 (x-own) with a value that evicts both", newBlock().literal(wire.Incremental, 62, "", filler('n', 3000), false).indexed(62)).done()
	return []decStory{b, c}
}

// resizeStories: dec/4.3/1, size updates evict down to the new size.
func resizeStories() []decStory {
	down := newStory("resize").
		add("three entries of 1032 octets", newBlock().insert("x-1", filler('1', 995)).insert("x-2", filler('2', 995)).insert("x-3", filler('3', 995))).
		add("an update to 2100 keeps two, then 62 and 63", newBlock().update(2100).indexed(62).indexed(63)).
		add("an update to 1100 keeps one, then 62", newBlock().update(1100).indexed(62)).
		add("back to 4096, an insertion, 62 and 63", newBlock().update(4096).insert("x-4", "4").indexed(62).indexed(63)).
		refuse("index 64, evicted by the update to 1100", newBlock().indexed(64))
	zero := newStory("resize-zero").
		add("two entries", newBlock().insert("x-1", "1").insert("x-2", "2")).
		add("an update to 0 empties the table; back to 4096", newBlock().update(0).update(4096).plain("x-3", "3")).
		refuse("index 62 after the table was emptied", newBlock().indexed(62))
	return []decStory{down, zero}
}

// neverIndexedStories: dec/7.1.3/1, never-indexed literals, each to be
// reported as such.
func neverIndexedStories() []decStory {
	b := newStory("never-indexed").
		add("never-indexed literals: new names, static names, Huffman and raw", newBlock().
			literal(wire.NeverIndexed, 0, "x-secret", "s3cr3t", false).
			literal(wire.NeverIndexed, 23, "", "Basic dXNlcjpwYXNz", true).
			literal(wire.WithoutIndexing, 0, "x-plain", "not secret", false).
			literal(wire.NeverIndexed, 32, "", "id=1", false)).
		add("an inserted entry's name never indexed", newBlock().insert("x-token", "a").literal(wire.NeverIndexed, 62, "", "b", true).indexed(62))
	return []decStory{b.done()}
}

// request starts a block with the fields of a well-formed GET request
// (RFC 9113 §8.3.1), all static indices or names, inserting nothing: the
// refusal stories start their blocks with it, so that a live server
// decodes their blocks as requests and refuses them only for what the
// case tests.
func request() *blockWriter { return newBlock().request() }

// request appends the fields of request().
func (w *blockWriter) request() *blockWriter {
	return w.indexed(2).indexed(6).indexed(4).literal(wire.WithoutIndexing, 1, "", "localhost", false)
}

// rejectStories returns the stories of the refusal cases, by case id.
func rejectStories() map[string][]decStory {
	// Huffman of "a" is the 5 bits 00011.
	return map[string][]decStory{
		"dec/6.1/1": {newStory("index-zero").refuse("index 0", request().raw(0x80))},
		"dec/6.3/1": {
			newStory("update-above").refuse("a size update to 4097 under a 4096 setting", newBlock().update(4097).request()),
			newStory("update-above-lowered").settings(1024, 0).refuse("a size update to 2048 after the setting went to 1024", newBlock().update(2048).request()),
		},
		"dec/4.2/1": {
			newStory("update-late").refuse("a size update after a field", request().update(100)),
			newStory("update-late-second-block").add("a field", request().insert("x-a", "1")).refuse("a field, a size update, a field", request().indexed(62).update(0).indexed(2)),
		},
		"dec/4.2/2": {func() decStory {
			b := newStory("update-missing").add("an insertion under 4096", request().insert("x-a", filler('a', 2000)))
			b.tableSize = 1024
			return b.refuse("the setting went down to 1024: a block without the size update", request())
		}()},
		"dec/5.1/2": {
			newStory("integer-2^32").refuse("index 2^32+2", request().indexed(1<<32+2)),
			newStory("integer-2^64").refuse("an index past 2^64", request().raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)),
			newStory("integer-endless").refuse("index 127 written with 20 continuation octets", request().raw(0xff).raw(repeat(0x80, 20)...).raw(0x00)),
			newStory("length-2^32").refuse("a string length of 2^32+5", func() *blockWriter {
				w := request().raw(0x00)
				w.b = encoder.AppendInteger(w.b, 0x00, 7, 1<<32+5)
				return w.raw('a', 'b', 'c', 'd', 'e', 0x01, 'v')
			}()),
		},
		"dec/5.1/3": {
			newStory("cut-index").refuse("an index cut after its first octet", request().raw(0xff)),
			newStory("cut-name-index").refuse("a literal's name index cut", request().raw(0x7f)),
			newStory("cut-literal").refuse("a literal without its value", request().raw(0x41)),
			newStory("cut-update").refuse("a size update cut", newBlock().raw(0x3f)),
		},
		"dec/5.2/3": {
			newStory("padding-long").refuse("\"a\" with 11 bits of padding", request().raw(0x00, 0x01, 'x', 0x82, 0x1f, 0xff)),
			newStory("padding-octet").refuse("an empty-looking Huffman string of one 0xff octet", request().raw(0x00, 0x01, 'x', 0x81, 0xff)),
		},
		"dec/5.2/4": {
			newStory("padding-zero").refuse("\"a\" padded with zeros", request().raw(0x00, 0x01, 'x', 0x81, 0x18)),
			newStory("padding-mixed").refuse("\"a\" padded with 101", request().raw(0x00, 0x01, 'x', 0x81, 0x1d)),
		},
		"dec/5.2/5": {
			newStory("eos").refuse("EOS then \"a\" in a value", request().raw(0x00, 0x01, 'x', 0x85, 0xff, 0xff, 0xff, 0xfc, 0x7f)),
		},
		"dec/5.2/6": {
			newStory("string-past").refuse("a name of 5 octets with 2 left", request().raw(0x40, 0x05, 'a', 'b')),
			newStory("value-past").refuse("a value of 100 octets with 3 left", request().raw(0x00, 0x01, 'x', 0x64, 'a', 'b', 'c')),
			newStory("huffman-past").refuse("a Huffman value of 10 octets with 1 left", request().raw(0x00, 0x01, 'x', 0x8a, 0x1f)),
		},
	}
}

func repeat(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

// bombStories: dec/7.3/1, a 4 KB entry referenced 100,000 times under a
// 65536-octet header-list limit: 409.6 MB of header list from a
// 100-KB block.
func bombStories() []decStory {
	refs := request()
	refs.b = append(refs.b, repeat(0xbe, 100000)...)
	b := newStory("bomb").settings(spec.DefaultTableSize, 65536).
		add("a 4000-octet entry", request().insert("x-bomb", filler('b', 4000))).
		refuse("100,000 references to it", refs)
	return []decStory{b}
}

// trafficStories: dec/3.2/1, App. C, and header lists of real traffic
// and generated stories as the reference encoder writes them.
func trafficStories(lists []*vectors.Story) []decStory {
	var out []decStory
	for _, seq := range vectors.RFCAppendixC() {
		b := newStory("rfc7541-" + strings.ToLower(seq.Section))
		for i, st := range seq.Steps {
			w := newBlock()
			if i == 0 && seq.TableSize != spec.DefaultTableSize {
				// The RFC's decoder starts at 256; ours starts at 4096
				// and is told so by a size update.
				w.update(uint64(seq.TableSize))
			}
			w.raw(st.Wire...)
			b.add("RFC 7541 "+st.Section, w)
		}
		out = append(out, b.done())
	}
	for _, st := range lists {
		enc := encoder.New(encoder.Config{Capacity: 1 << 16})
		b := newStory(st.Path)
		acked := uint32(spec.DefaultTableSize)
		for i, c := range st.Cases {
			for _, n := range c.AckedSizes() {
				enc.SetMaxDynamicTableSize(n)
				acked = n
			}
			w := newBlock()
			w.b = enc.AppendSizeUpdates(w.b)
			for _, f := range c.Headers {
				w.b = enc.AppendFieldString(w.b, f.Name, f.Value, f.Sensitive)
			}
			b.tableSize = acked
			b.add(fmt.Sprintf("block %d", i), w)
		}
		out = append(out, b.done())
	}
	// A 12 KB block of short strings: a decoder that refuses valid blocks
	// over a size of its own (8 KiB is a common buffer) without a
	// header-list limit told fails dec/3.2/1; its strings are far under
	// maxUnlimitedString, so no string-length limit excuses it.
	large := newBlock()
	for i := 0; i < 24; i++ {
		large.plain(fmt.Sprintf("x-large-%02d", i), filler('l', 500))
	}
	out = append(out, newStory("large-block").add("24 fields of 500 octets, 12 KB of block", large).done())
	return out
}

// DecoderStoryBlocks returns the blocks of every dec/ story (the
// targeted and refusal stories, not the traffic), each story's blocks in
// order with the SETTINGS_HEADER_TABLE_SIZE acknowledged for each, for
// fuzz targets to seed their corpus with blocks valid and invalid.
func DecoderStoryBlocks() []DecoderStoryBlocksOf {
	var out []DecoderStoryBlocksOf
	for _, c := range decChain {
		if c.stories == nil || c.ID == decodesRight {
			continue
		}
		for _, s := range c.stories(&decInputs{}) {
			st := DecoderStoryBlocksOf{Case: c.ID, Story: s.name}
			for _, step := range s.steps {
				st.Blocks = append(st.Blocks, step.block)
				st.TableSizes = append(st.TableSizes, step.tableSize)
			}
			out = append(out, st)
		}
	}
	return out
}

// DecoderStoryBlocksOf is one story of DecoderStoryBlocks.
type DecoderStoryBlocksOf struct {
	Case, Story string
	Blocks      [][]byte
	TableSizes  []uint32
}

// asRequests returns s with :method GET, :scheme http and :path / (static
// indices 2, 6, 4, which change no table) and :authority localhost (a
// literal without indexing of static name 1, which many servers require,
// RFC 9113 §8.3.1) after the size updates that start each block, for a
// live server, which decodes requests. A block
// the walker cannot split, and one that already holds a pseudo-header
// field, stays as it is; the expectations are computed again by prepare.
func asRequests(s decStory) decStory {
	out := decStory{name: s.name, steps: make([]decStep, len(s.steps))}
	for i, st := range s.steps {
		st.expect = decExpect{}
		reps, err := wire.Walk(st.block)
		if err == nil && !holdsPseudo(reps) {
			at := len(st.block)
			for _, r := range reps {
				if r.Kind != wire.SizeUpdate {
					at = r.Offset
					break
				}
			}
			b := append(append(append([]byte(nil), st.block[:at]...), requestPrefix...), st.block[at:]...)
			st.block = b
			st.authority = [2]int{at + 3, at + len(requestPrefix)}
		}
		out.steps[i] = st
	}
	return out
}

// requestPrefix is what asRequests puts in front of a block's fields:
// static indices 2, 6 and 4, then :authority localhost, a literal without
// indexing (its place in the prefix is asRequests' authority).
var requestPrefix = []byte{0x82, 0x86, 0x84, 0x01, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'}

// holdsPseudo reports whether a block has a field whose name starts with
// a colon, by literal or by a static index (1 to 14 are pseudo-headers).
func holdsPseudo(reps []wire.Representation) bool {
	for _, r := range reps {
		switch {
		case r.Kind == wire.SizeUpdate:
		case r.Name != nil && strings.HasPrefix(r.Name.Text, ":"):
			return true
		case r.Index.Value >= 1 && r.Index.Value <= 14:
			return true
		}
	}
	return false
}
