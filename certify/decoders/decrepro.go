package decoders

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
)

// A decoder's reproduction is a story file of the module's story format
// (vectors.WriteStory): each case is a block sent, its "wire", with the
// SETTINGS_HEADER_TABLE_SIZE acknowledged before it ("table_sizes") and
// the fields the strict decoder decodes from it ("headers", none for the
// block a decoder must refuse). The story format has no member for
// SETTINGS_MAX_HEADER_LIST_SIZE; a story that advertises one says so in
// its description, on a line of its own starting with maxListLine.
const maxListLine = "SETTINGS_MAX_HEADER_LIST_SIZE per block:"

// replay returns the story cut after block step, as a reproduction file
// holds it, described by description.
func (s *decStory) replay(step int, description string) *vectors.Story {
	out := &vectors.Story{Path: s.name, Description: description}
	table := uint32(spec.DefaultTableSize)
	var lists []string
	limited := false
	for i := 0; i <= step && i < len(s.steps); i++ {
		st := &s.steps[i]
		c := vectors.Case{Seqno: i, Wire: st.block, Headers: st.expect.fields}
		if st.tableSize != table {
			c.TableSizes = []uint32{st.tableSize}
			table = st.tableSize
		}
		out.Cases = append(out.Cases, c)
		lists = append(lists, strconv.FormatUint(uint64(st.maxList), 10))
		limited = limited || st.maxList != 0
	}
	if limited {
		out.Description += "\n" + maxListLine + " " + strings.Join(lists, " ")
	}
	return out
}

// storyFromRepro reads a reproduction back into a story to decode: its
// blocks, their settings, and its last block marked as the one to refuse
// when the strict decoder refuses it (prepare).
func storyFromRepro(st *vectors.Story) (decStory, error) {
	out := decStory{name: st.Path, replayed: true}
	var lists []uint32
	for _, line := range strings.Split(st.Description, "\n") {
		rest, ok := strings.CutPrefix(line, maxListLine)
		if !ok {
			continue
		}
		for _, w := range strings.Fields(rest) {
			n, err := strconv.ParseUint(w, 10, 32)
			if err != nil {
				return out, fmt.Errorf("story %s: description: %q after %q is not a list of sizes", st.Path, w, maxListLine)
			}
			lists = append(lists, uint32(n))
		}
	}
	table := uint32(spec.DefaultTableSize)
	for i, c := range st.Cases {
		if c.Wire == nil {
			return out, fmt.Errorf("story %s, case %d: no \"wire\": a decoder's reproduction sends each block's wire", st.Path, i)
		}
		if sizes := c.AckedSizes(); len(sizes) > 0 {
			table = sizes[len(sizes)-1]
		}
		step := decStep{tableSize: table, block: c.Wire, note: fmt.Sprintf("block %d of the reproduction", i)}
		if i < len(lists) {
			step.maxList = lists[i]
		}
		out.steps = append(out.steps, step)
	}
	if len(out.steps) == 0 {
		return out, fmt.Errorf("story %s: no block to decode", st.Path)
	}
	return out, nil
}

// replayStories reads reproductions back, for DecoderOptions.Replay.
func replayStories(stories []*vectors.Story) ([]decStory, error) {
	var out []decStory
	for _, st := range stories {
		s, err := storyFromRepro(st)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// replay is the reproduction of the divergence o found, filed under case
// id.
func (dr *decRunner) replay(o *decOutcome, id string) *vectors.Story {
	return o.story.replay(o.div.step, fmt.Sprintf("%s%s on decoder %s: %s", reproPrefix, strings.TrimPrefix(id, "dec/"), dr.target.Name(), o.div.what))
}

// reproPrefix begins the description of every decoder reproduction.
const reproPrefix = "hpackcert reproduction of dec/"

// IsReproduction reports whether st is a reproduction the decoder side
// wrote (DecoderOptions.ReproDir), rather than an encoder's.
func IsReproduction(st *vectors.Story) bool {
	return strings.HasPrefix(st.Description, reproPrefix)
}
