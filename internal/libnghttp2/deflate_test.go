//go:build nghttp2

package libnghttp2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// rawStories reads the raw-data stories of hpack-test-case: for each file,
// for each case, its headers in order. Every eleventh field of a story is
// marked Sensitive.
func rawStories(t testing.TB) [][][]Field {
	t.Helper()
	dir := filepath.Join(testenv.TestCaseDir(t), "raw-data")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no story files in %s (%v)", dir, err)
	}
	var stories [][][]Field
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var story struct {
			Cases []struct {
				Headers []map[string]string `json:"headers"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &story); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var blocks [][]Field
		n := 0
		for i, c := range story.Cases {
			var fields []Field
			for j, h := range c.Headers {
				if len(h) != 1 {
					t.Fatalf("%s: case %d: header %d has %d keys; want 1", path, i, j, len(h))
				}
				for name, value := range h {
					fields = append(fields, Field{Name: name, Value: value, Sensitive: n%11 == 5})
					n++
				}
			}
			blocks = append(blocks, fields)
		}
		stories = append(stories, blocks)
	}
	return stories
}

// neverIndexedByPolicy reports whether nghttp2's policy sends f never
// indexed although the caller did not mark it.
func neverIndexedByPolicy(f Field) bool {
	switch f.Name {
	case "authorization":
		return true
	case "cookie":
		return len(f.Value) < 20
	}
	return false
}

// TestPolicy pins nghttp2's indexing policy as the Deflater documents it.
func TestPolicy(t *testing.T) {
	long := strings.Repeat("v", 3040) // an entry of 1+3040+32 bytes is over 3/4 of 4096
	tests := []struct {
		field        Field
		neverIndexed bool
		indexed      bool
	}{
		{Field{Name: "x-custom", Value: "1"}, false, true},
		{Field{Name: "x-custom", Value: "1", Sensitive: true}, true, false},
		{Field{Name: "authorization", Value: "Basic Zm9vOmJhcg=="}, true, false},
		{Field{Name: "proxy-authorization", Value: "Basic Zm9vOmJhcg=="}, false, true},
		{Field{Name: "cookie", Value: "id=1234567890123456"}, true, false},  // 19 bytes
		{Field{Name: "cookie", Value: "id=12345678901234567"}, false, true}, // 20 bytes
		{Field{Name: ":path", Value: "/index.html"}, false, false},
		{Field{Name: "content-length", Value: "42"}, false, false},
		{Field{Name: "set-cookie", Value: "a=b"}, false, false},
		{Field{Name: "x", Value: long}, false, false},
		{Field{Name: "x", Value: long[:3039]}, false, true},
	}
	for _, tt := range tests {
		d := NewDeflater(4096)
		wire, err := d.EncodeBlock(nil, []Field{tt.field})
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := hpack.NewDecoder(4096, nil).DecodeFull(wire)
		if err != nil {
			t.Fatalf("%.40q: x/net decoding %x: %v", tt.field.Name+": "+tt.field.Value, wire, err)
		}
		if indexed := len(d.Table()) == 1; decoded[0].Sensitive != tt.neverIndexed || indexed != tt.indexed {
			t.Errorf("%.40q: never indexed %t, indexed %t; want %t, %t", tt.field.Name+": "+tt.field.Value, decoded[0].Sensitive, indexed, tt.neverIndexed, tt.indexed)
		}
		d.Close()
	}
}

// TestRoundTrip encodes every raw-data story with one Deflater per story,
// under several table-size schedules, decodes each block with x/net's
// decoder, and checks the fields, the never-indexed flags, the size
// updates at the start of the block that follows a change, and that the
// Deflater's table is x/net's table after every block.
func TestRoundTrip(t *testing.T) {
	stories := rawStories(t)
	schedules := []struct {
		name     string
		max      uint32           // New's argument
		changes  map[int][]uint32 // block index -> ChangeTableSize calls before it
		prefixes map[int]string   // block index -> the bytes it must begin with
	}{
		{name: "default", max: 4096},
		{name: "4096-0-4096", max: 4096, changes: map[int][]uint32{5: {0, 4096}}, prefixes: map[int]string{5: "\x20\x3f\xe1\x1f"}},
		{name: "4096-256-1024", max: 4096, changes: map[int][]uint32{3: {256}, 6: {1024}},
			prefixes: map[int]string{3: "\x3f\xe1\x01", 6: "\x3f\xe1\x07"}},
		{name: "capacity 1024 under setting 65536", max: 1024, changes: map[int][]uint32{0: {65536}}, prefixes: map[int]string{0: "\x3f\xe1\x07"}},
	}
	for _, sc := range schedules {
		t.Run(sc.name, func(t *testing.T) {
			var wire []byte
			for s, story := range stories {
				d := NewDeflater(sc.max)
				dec := hpack.NewDecoder(4096, nil)
				for b, fields := range story {
					for _, n := range sc.changes[b] {
						if err := d.ChangeTableSize(n); err != nil {
							t.Fatalf("story %d, block %d: ChangeTableSize(%d): %v", s, b, n, err)
						}
						dec.SetAllowedMaxDynamicTableSize(n)
					}
					var err error
					wire, err = d.EncodeBlock(wire[:0], fields)
					if err != nil {
						t.Fatalf("story %d, block %d: EncodeBlock: %v", s, b, err)
					}
					if p, ok := sc.prefixes[b]; ok && !bytes.HasPrefix(wire, []byte(p)) {
						t.Fatalf("story %d, block %d: wire %x; want it to begin with %x", s, b, wire, p)
					}
					decoded, err := dec.DecodeFull(wire)
					if err != nil {
						t.Fatalf("story %d, block %d: x/net decoding %x: %v", s, b, wire, err)
					}
					checkFields(t, fmt.Sprintf("story %d, block %d", s, b), decoded, fields)
					table := d.Table()
					if want, ok := xnetTable(dec, len(table)); !ok || !slices.Equal(table, want) {
						t.Fatalf("story %d, block %d: Table() = %+v; x/net's table is %+v (same length: %t)", s, b, table, want, ok)
					}
					var size uint32
					for _, e := range table {
						size += uint32(len(e.Name) + len(e.Value) + 32)
					}
					if got := d.TableSize(); got != size || size > d.MaxTableSize() || d.MaxTableSize() > sc.max {
						t.Fatalf("story %d, block %d: TableSize() = %d, MaxTableSize() = %d; want %d, at most %d",
							s, b, got, d.MaxTableSize(), size, sc.max)
					}
				}
				d.Close()
			}
		})
	}
}

func checkFields(t *testing.T, where string, decoded []hpack.HeaderField, fields []Field) {
	t.Helper()
	if len(decoded) != len(fields) {
		t.Fatalf("%s: decoded %d fields; want %d", where, len(decoded), len(fields))
	}
	for i, f := range fields {
		got := decoded[i]
		if got.Name != f.Name || got.Value != f.Value {
			t.Fatalf("%s: field %d decoded as %q: %q; want %q: %q", where, i, got.Name, got.Value, f.Name, f.Value)
		}
		if want := f.Sensitive || neverIndexedByPolicy(f); got.Sensitive != want {
			t.Fatalf("%s: field %d (%q) never indexed: %t; want %t", where, i, f.Name, got.Sensitive, want)
		}
	}
}

func TestChangeTableSize(t *testing.T) {
	d := NewDeflater(4096)
	defer d.Close()
	fields := []Field{{Name: "x-a", Value: "1"}}
	wire, err := d.EncodeBlock(nil, fields)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Table()) != 1 {
		t.Fatalf("after %x: Table() = %+v; want the one field indexed", wire, d.Table())
	}
	if err := d.ChangeTableSize(0); err != nil {
		t.Fatal(err)
	}
	if table, max := d.Table(), d.MaxTableSize(); len(table) != 0 || max != 0 {
		t.Fatalf("after ChangeTableSize(0): Table() = %+v, MaxTableSize() = %d; want empty, 0", table, max)
	}
	wire, err = d.EncodeBlock(wire[:0], fields)
	if err != nil {
		t.Fatal(err)
	}
	if wire[0] != 0x20 {
		t.Fatalf("first block after ChangeTableSize(0): %x; want it to begin with the size update 20", wire)
	}
	if len(d.Table()) != 0 {
		t.Fatalf("with a 0-byte table: Table() = %+v; want empty", d.Table())
	}
}

func TestEncodeBlockAppends(t *testing.T) {
	d := NewDeflater(4096)
	defer d.Close()
	prefix := []byte("keep")
	got, err := d.EncodeBlock(prefix, []Field{{Name: ":method", Value: "GET"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte("keep\x82"); !bytes.Equal(got, want) {
		t.Fatalf("EncodeBlock(%q, :method GET) = %q; want %q", prefix, got, want)
	}
	empty, err := d.EncodeBlock(nil, nil)
	if err != nil || len(empty) != 0 {
		t.Fatalf("EncodeBlock(nil, nil) = %x, %v; want an empty block", empty, err)
	}
}

func TestEncodeBlockAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	d := NewDeflater(4096)
	defer d.Close()
	fields := []Field{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/api/v1/resource"},
		{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"},
		{Name: "cookie", Value: "session_token=deadbeef1234567890"},
	}
	dst := make([]byte, 0, MaxBlockLen(fields))
	var err error
	allocs := testing.AllocsPerRun(200, func() {
		dst, err = d.EncodeBlock(dst[:0], fields)
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 0 {
		t.Fatalf("EncodeBlock with a sized dst: %v allocations per call; want 0", allocs)
	}
}

func TestDeflaterClosed(t *testing.T) {
	d := NewDeflater(4096)
	if err := d.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close() = %v", err)
	}
	if _, err := d.EncodeBlock(nil, []Field{{Name: "a", Value: "b"}}); err != ErrClosed {
		t.Fatalf("EncodeBlock after Close: %v; want ErrClosed", err)
	}
	if err := d.ChangeTableSize(0); err != ErrClosed {
		t.Fatalf("ChangeTableSize after Close: %v; want ErrClosed", err)
	}
	if table, size, max, heap := d.Table(), d.TableSize(), d.MaxTableSize(), d.HeapBytes(); table != nil || size != 0 || max != 0 || heap != 0 {
		t.Fatalf("after Close: Table() = %+v, TableSize() = %d, MaxTableSize() = %d, HeapBytes() = %d; want nil, 0, 0, 0", table, size, max, heap)
	}
}
