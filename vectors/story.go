package vectors

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Story is one file of the hpack-test-case format: header blocks that share
// one compression context, in order.
type Story struct {
	Path        string `json:"-"` // the file it was read from; not stored
	Context     string // "context": "request" or "response", may be empty
	Description string // "description", may be empty
	Cases       []Case // "cases"
}

// Case is one header block of a Story.
type Case struct {
	// Seqno is "seqno", or the case's index in "cases" when the file has
	// none. It is kept as written: files need not start at 0 nor count up
	// by one.
	Seqno int
	// HeaderTableSize is "header_table_size": the SETTINGS_HEADER_TABLE_SIZE
	// acked just before this case, or nil.
	HeaderTableSize *uint32
	// TableSizes is "table_sizes" (our extension): every
	// SETTINGS_HEADER_TABLE_SIZE acked since the previous case, in order.
	// When both are present, the last of TableSizes equals HeaderTableSize.
	TableSizes []uint32
	// Wire is "wire": the encoded block, or nil (raw-data and our stories
	// have none).
	Wire []byte
	// Headers is "headers": the header list, order and duplicates kept.
	// A field's Sensitive flag is its entry of "sensitive" (our
	// extension: one flag per header telling that the field must never
	// be indexed, RFC 7541 §7.1.3), false where the file has none.
	Headers []Field
}

// AckedSizes returns the SETTINGS_HEADER_TABLE_SIZE values acked since the
// previous case, in order: TableSizes if set, else HeaderTableSize alone if
// set, else nil.
func (c Case) AckedSizes() []uint32 {
	switch {
	case len(c.TableSizes) > 0:
		return c.TableSizes
	case c.HeaderTableSize != nil:
		return []uint32{*c.HeaderTableSize}
	}
	return nil
}

// StoryError reports a story that cannot be read or written.
type StoryError struct {
	Path   string
	Case   int   // index in "cases", or -1 outside any case
	Offset int64 // byte offset in the file, or -1 when not reading
	Line   int   // line of Offset, counting from 1; 0 when not reading
	Reason string
}

func (e *StoryError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " (offset %d)", e.Offset)
	}
	if e.Case >= 0 {
		fmt.Fprintf(&b, ": case %d", e.Case)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// ReadStory reads the story in the file at path. It takes the forms the
// encoders of hpack-test-case write: keys in any order, keys it does not
// know skipped, null for an optional field read as the field left out, any
// JSON escape in strings ("\/" included). Malformed content yields a
// *StoryError naming the file, the line and byte offset, the case index and
// the reason.
func ReadStory(path string) (*Story, error) {
	return ReadStoryLimit(path, DefaultMaxStoryFileSize)
}

// DefaultMaxStoryFileSize is the largest story file ReadStory and
// ReadStoryDir read: 256 MiB, far above any real story (hpack-test-case's
// largest is under 1 MiB).
const DefaultMaxStoryFileSize = 256 << 20

// ReadStoryLimit is ReadStory for files of at most maxSize octets: a
// larger file is a *StoryError before it is read whole.
func ReadStoryLimit(path string, maxSize int64) (*Story, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func(size int64) error {
		return &StoryError{Path: path, Case: -1, Offset: -1, Reason: fmt.Sprintf("the file is %d octets or more, over the limit of %d for a story file", size, maxSize)}
	}
	if info, err := f.Stat(); err == nil && info.Size() > maxSize {
		return nil, tooLarge(info.Size())
	}
	// The file may grow while it is read: read one octet past the limit
	// at most.
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, tooLarge(int64(len(data)))
	}
	s, err := parseStory(path, data)
	if err != nil {
		return nil, err
	}
	s.Path = path
	return s, nil
}

// ReadStoryDir reads every *.json file in dir as a story, in the order of
// their names. A directory without any is an error.
func ReadStoryDir(dir string) ([]*Story, error) {
	return ReadStoryDirLimit(dir, DefaultMaxStoryFileSize)
}

// ReadStoryDirLimit is ReadStoryDir for files of at most maxSize octets
// each (ReadStoryLimit).
func ReadStoryDirLimit(dir string, maxSize int64) ([]*Story, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no *.json story in %s", dir)
	}
	sort.Strings(paths)
	stories := make([]*Story, 0, len(paths))
	for _, path := range paths {
		s, err := ReadStoryLimit(path, maxSize)
		if err != nil {
			return nil, err
		}
		stories = append(stories, s)
	}
	return stories, nil
}
