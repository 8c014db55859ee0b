//go:build nghttp2

package libnghttp2

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// wireDirs are the hpack-test-case folders whose stories carry "wire".
var wireDirs = []string{"nghttp2", "go-hpack", "python-hpack"}

// storyCase is one case of an hpack-test-case story file.
type storyCase struct {
	Seqno           int                 `json:"seqno"`
	HeaderTableSize *uint32             `json:"header_table_size"`
	Wire            string              `json:"wire"`
	Headers         []map[string]string `json:"headers"`
}

type wireBlock struct {
	tableSize *uint32
	wire      []byte
	headers   []Field
}

// readWireStory reads the cases of one story file, failing the test with
// the file and case index on malformed input.
func readWireStory(t testing.TB, path string) []wireBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var story struct {
		Cases []storyCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &story); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	blocks := make([]wireBlock, len(story.Cases))
	for i, c := range story.Cases {
		wire, err := hex.DecodeString(c.Wire)
		if err != nil {
			t.Fatalf("%s: case %d: wire: %v", path, i, err)
		}
		b := wireBlock{tableSize: c.HeaderTableSize, wire: wire}
		for j, h := range c.Headers {
			if len(h) != 1 {
				t.Fatalf("%s: case %d: header %d has %d keys; want 1", path, i, j, len(h))
			}
			for name, value := range h {
				b.headers = append(b.headers, Field{Name: name, Value: value})
			}
		}
		blocks[i] = b
	}
	return blocks
}

func wireStoryFiles(t testing.TB) []string {
	t.Helper()
	dir := testenv.TestCaseDir(t)
	var files []string
	for _, sub := range wireDirs {
		matches, err := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(matches) == 0 {
			t.Fatalf("no story files in %s", filepath.Join(dir, sub))
		}
		files = append(files, matches...)
	}
	return files
}

func entrySize(f Field) uint32 { return uint32(len(f.Name) + len(f.Value) + 32) }

// TestStories decodes every wire block of the nghttp2, go-hpack and
// python-hpack stories, one Inflater per story, and checks after every
// block that the fields are the recorded headers and that the table is
// x/net's table, made only of fields seen so far in the story, and sized
// as nghttp2 reports it.
func TestStories(t *testing.T) {
	blocks := 0
	for _, path := range wireStoryFiles(t) {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			d := NewInflater()
			defer d.Close()
			ref := hpack.NewDecoder(4096, nil)
			seen := make(map[Field]bool)
			for i, b := range readWireStory(t, path) {
				if b.tableSize != nil {
					d.SetMaxDynamicTableSize(*b.tableSize)
					ref.SetAllowedMaxDynamicTableSize(*b.tableSize)
				}
				got, err := d.DecodeBlock(b.wire)
				if err != nil {
					t.Fatalf("case %d: DecodeBlock: %v", i, err)
				}
				refFields, err := ref.DecodeFull(b.wire)
				if err != nil {
					t.Fatalf("case %d: x/net DecodeFull: %v", i, err)
				}
				want := make([]Field, len(b.headers))
				for j, h := range b.headers {
					want[j] = Field{Name: h.Name, Value: h.Value, Sensitive: refFields[j].Sensitive}
					seen[Field{Name: h.Name, Value: h.Value}] = true
				}
				if !slices.Equal(got, want) {
					t.Fatalf("case %d: fields\ngot  %+v\nwant %+v", i, got, want)
				}
				table := d.Table()
				if refTable, ok := xnetTable(ref, len(table)); !ok || !slices.Equal(table, refTable) {
					t.Fatalf("case %d: table of %d entries differs from x/net's (same length: %t)\ngot  %+v\nwant %+v", i, len(table), ok, table, refTable)
				}
				var size uint32
				for k, e := range table {
					if !seen[e] {
						t.Fatalf("case %d: table entry %d %+v was never a header of this story", i, k, e)
					}
					size += entrySize(e)
				}
				if got := d.TableSize(); got != size {
					t.Fatalf("case %d: TableSize() = %d; want %d (sum of entry sizes)", i, got, size)
				}
				if size > d.MaxTableSize() {
					t.Fatalf("case %d: table size %d over MaxTableSize() %d", i, size, d.MaxTableSize())
				}
				blocks++
			}
		})
	}
	if blocks == 0 {
		t.Fatal("no blocks decoded")
	}
}

func TestVersion(t *testing.T) {
	var major, minor, patch int
	if _, err := fmt.Sscanf(Version(), "%d.%d.%d", &major, &minor, &patch); err != nil {
		t.Fatalf("Version() = %q; want major.minor.patch: %v", Version(), err)
	}
	if major < 1 {
		t.Fatalf("Version() = %q; want 1.x or later", Version())
	}
}
