package decoders

import (
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
	// replayed marks a story read from a reproduction
	// (storyFromRepro): its last block is the one to refuse when the
	// strict decoder refuses it.
	replayed bool
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
