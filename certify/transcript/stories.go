package transcript

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hpackcert/hpackcert/vectors"
)

// FromStories returns the recording of stories in the story format
// (hpack-test-case's, whose cases carry the "wire" some encoder wrote)
// as target, with where naming them in errors: each case is a block, the
// settings acknowledged before it its "header_table_size" and
// "table_sizes", its fields its "headers". Stories whose cases carry no
// wire at all are listed in WithoutWire; a story missing the wire of some
// of its cases, or a set mixing both kinds, is an error, since each
// block depends on the ones before it.
func FromStories(target, where string, vs []*vectors.Story) (*Recording, error) {
	rec := &Recording{Target: target, Where: where}
	for _, s := range vs {
		if len(s.Cases) == 0 {
			return nil, fmt.Errorf("%s: the story has no cases", s.Path)
		}
		missing := 0
		for _, c := range s.Cases {
			if c.Wire == nil {
				missing++
			}
		}
		switch missing {
		case 0:
			rec.Stories = append(rec.Stories, storyOf(s, len(rec.Stories)))
		case len(s.Cases):
			rec.WithoutWire = append(rec.WithoutWire, filepath.Base(s.Path))
		default:
			// One missing block leaves the compression context of every
			// later block unknown: the story cannot be graded.
			return nil, fmt.Errorf("%s: %d of %d cases have no \"wire\"; a recorded story needs the wire of every case, since each block depends on the ones before it", s.Path, missing, len(s.Cases))
		}
	}
	if len(rec.Stories) > 0 && len(rec.WithoutWire) > 0 {
		return nil, fmt.Errorf("%s: %d story files carry \"wire\" and %d do not (%s ...): grade the recorded ones from a directory of their own", where, len(rec.Stories), len(rec.WithoutWire), rec.WithoutWire[0])
	}
	return rec, nil
}

// storyOf returns the story s, the i-th of its recording, as a Story
// named by its file's base name.
func storyOf(s *vectors.Story, i int) Story {
	st := Story{Name: filepath.Base(s.Path), Blocks: make([]Block, len(s.Cases))}
	if s.Path == "" {
		st.Name = fmt.Sprintf("generated-%02d", i)
	}
	for j, c := range s.Cases {
		st.Blocks[j] = Block{Acked: c.AckedSizes(), Sent: slices.Clone(c.Headers), Wire: c.Wire}
	}
	return st
}
