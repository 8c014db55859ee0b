//go:build nghttp2

package nghttp2

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
	"github.com/hpackcert/hpackcert/oracle"
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
	headers   []oracle.Field
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
				b.headers = append(b.headers, oracle.Field{Name: name, Value: value})
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

// xnetTable reads the dynamic table of an x/net decoder that should hold n
// entries, without changing it: one block of indexed field representations
// of 62 to 61+n (RFC 7541 §6.1), which do not insert, then index 62+n, which
// must be out of range. It reports false when the table does not hold
// exactly n entries. The failed probe leaves the decoder inside a block
// (DecodeFull skips Close on error), so Close ends it: otherwise x/net
// would refuse a size update at the start of the next block.
func xnetTable(dec *hpack.Decoder, n int) ([]oracle.Field, bool) {
	var probe []byte
	for index := range n {
		probe = appendInt(probe, 0x80, 7, uint64(62+index))
	}
	fields, err := dec.DecodeFull(probe)
	if err != nil {
		dec.Close()
		return nil, false
	}
	if _, err := dec.DecodeFull(appendInt(nil, 0x80, 7, uint64(62+n))); err == nil {
		return nil, false
	}
	dec.Close()
	table := make([]oracle.Field, n)
	for i, f := range fields {
		table[i] = oracle.Field{Name: f.Name, Value: f.Value}
	}
	return table, true
}

// appendInt appends v as an RFC 7541 §5.1 integer with an n-bit prefix,
// the bits above the prefix taken from first.
func appendInt(dst []byte, first byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(limit))
	for v -= limit; v >= 128; v >>= 7 {
		dst = append(dst, byte(v&0x7f)|0x80)
	}
	return append(dst, byte(v))
}

func entrySize(f oracle.Field) uint32 { return uint32(len(f.Name) + len(f.Value) + 32) }

// TestStories decodes every wire block of the nghttp2, go-hpack and
// python-hpack stories, one Decoder per story, and checks after every
// block that the fields are the recorded headers and that the table is
// x/net's table, made only of fields seen so far in the story, and sized
// as nghttp2 reports it.
func TestStories(t *testing.T) {
	blocks := 0
	for _, path := range wireStoryFiles(t) {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			d := New()
			defer d.Close()
			ref := hpack.NewDecoder(4096, nil)
			seen := make(map[oracle.Field]bool)
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
				want := make([]oracle.Field, len(b.headers))
				for j, h := range b.headers {
					want[j] = oracle.Field{Name: h.Name, Value: h.Value, Sensitive: refFields[j].Sensitive}
					seen[oracle.Field{Name: h.Name, Value: h.Value}] = true
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

func TestRegistered(t *testing.T) {
	if !slices.Contains(oracle.Names(), "nghttp2") {
		t.Fatalf("oracle.Names() = %q; want it to contain nghttp2", oracle.Names())
	}
	for _, newDecoder := range oracle.Available() {
		d := newDecoder()
		if d.Name() != "nghttp2" {
			continue
		}
		if _, ok := d.(*Decoder); !ok {
			t.Fatalf("factory for nghttp2 returned %T; want *Decoder", d)
		}
		d.(*Decoder).Close()
		return
	}
	t.Fatal("no factory in oracle.Available() makes a decoder named nghttp2")
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
