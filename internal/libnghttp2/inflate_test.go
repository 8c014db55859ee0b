//go:build nghttp2

package libnghttp2

import (
	"encoding/hex"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// longName is a literal field without indexing whose name is n bytes of
// 'x' (RFC 7541 §6.2.2, new name) and whose value is empty.
func longName(n int) []byte {
	block := appendInt([]byte{0x00}, 0x00, 7, uint64(n))
	block = append(block, strings.Repeat("x", n)...)
	return append(block, 0x00)
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name       string
		sizes      []uint32 // SetMaxDynamicTableSize calls before the block
		listLimit  int      // SetMaxHeaderListSize when not 0
		block      []byte
		wantOffset int
		wantFields int
		wantLimit  bool // the header list limit, not nghttp2, refuses it
	}{
		{name: "index 0 (RFC 7541 §6.1)", block: mustHex(t, "80")},
		{name: "index past the empty dynamic table (§2.3.3)", block: mustHex(t, "82 be"), wantOffset: 1, wantFields: 1},
		{name: "literal name index past the table (§6.2.1)", block: mustHex(t, "7e 01 61")},
		{name: "size update after a field (§4.2)", block: mustHex(t, "82 3f e1 1f"), wantOffset: 1, wantFields: 1},
		{name: "size update 4097 above the setting 4096 (§6.3)", block: mustHex(t, "3f e2 1f")},
		{name: "truncated integer (§5.1)", block: mustHex(t, "82 ff"), wantOffset: 1, wantFields: 1},
		{name: "string longer than the block (§5.2)", block: mustHex(t, "00 85 61")},
		{name: "EOS inside a Huffman string (§5.2)", block: mustHex(t, "00 84 ff ff ff ff 01 61")},
		{name: "Huffman padding of 8 bits (§5.2)", block: mustHex(t, "00 81 ff 01 61")},
		{name: "Huffman padding of zeros (§5.2)", block: mustHex(t, "00 81 18 01 61")},
		{name: "index overflowing 32 bits (§5.1)", block: mustHex(t, "ff 80 80 80 80 10")},
		{name: "no size update after the setting went down (§4.2)", sizes: []uint32{0}, block: mustHex(t, "82")},
		{name: "empty block after the setting went down (§4.2)", sizes: []uint32{0}, block: nil},
		{name: "update above the lowest setting after down-then-up (§4.2)", sizes: []uint32{0, 4096}, block: mustHex(t, "3f e1 1f 82")},
		{name: "name of 65537 bytes (nghttp2 limit NGHTTP2_HD_MAX_NV, not the RFC)", block: longName(65537)},
		{name: "integer of 6 continuation octets (nghttp2 limit, not the RFC)", block: mustHex(t, "3f 80 80 80 80 80 00")},
		{name: "header list over the limit", listLimit: 64, block: mustHex(t, "82 86 84"), wantOffset: 1, wantFields: 1, wantLimit: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewInflater()
			defer d.Close()
			if tt.listLimit != 0 {
				d.SetMaxHeaderListSize(tt.listLimit)
			}
			for _, n := range tt.sizes {
				d.SetMaxDynamicTableSize(n)
			}
			fields, err := d.DecodeBlock(tt.block)
			if err == nil {
				t.Fatalf("DecodeBlock(%x) = %+v, nil; want an error", tt.block, fields)
			}
			var e *InflateError
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T; want *InflateError", err, err)
			}
			if e.Offset != tt.wantOffset || e.Fields != tt.wantFields {
				t.Errorf("error at offset %d after %d fields; want offset %d after %d fields (%v)", e.Offset, e.Fields, tt.wantOffset, tt.wantFields, err)
			}
			if gotLimit := e.Code == 0; gotLimit != tt.wantLimit {
				t.Errorf("Code = %d (%v); want the list limit: %t", e.Code, err, tt.wantLimit)
			}
			if e.Reason == "" || !strings.HasPrefix(err.Error(), "nghttp2: offset ") {
				t.Errorf("error text %q; want \"nghttp2: offset N, after M fields: reason\"", err)
			}
		})
	}
}

func TestDecodeAccepted(t *testing.T) {
	tests := []struct {
		name       string
		sizes      []uint32
		block      []byte
		wantFields []Field
		wantTable  []Field
		wantMax    uint32
	}{
		{name: "empty block", block: nil, wantMax: 4096},
		{name: "three size updates (legal, §4.2)", block: mustHex(t, "20 3f e1 1f 20"), wantMax: 0},
		{name: "size updates only after down-then-up", sizes: []uint32{0, 4096}, block: mustHex(t, "20 3f e1 1f"), wantMax: 4096},
		{name: "setting up without an update", sizes: []uint32{8192}, block: mustHex(t, "82"),
			wantFields: []Field{{Name: ":method", Value: "GET"}}, wantMax: 4096},
		{name: "never indexed, new name (§6.2.3)", block: mustHex(t, "10 01 61 01 62"),
			wantFields: []Field{{Name: "a", Value: "b", Sensitive: true}}, wantMax: 4096},
		{name: "never indexed, indexed name (§6.2.3)", block: mustHex(t, "1f 08 01 62"),
			wantFields: []Field{{Name: "authorization", Value: "b", Sensitive: true}}, wantMax: 4096},
		{name: "incremental indexing (§6.2.1)", block: mustHex(t, "40 01 61 01 62 be"),
			wantFields: []Field{{Name: "a", Value: "b"}, {Name: "a", Value: "b"}},
			wantTable:  []Field{{Name: "a", Value: "b"}}, wantMax: 4096},
		{name: "newest entry first", block: mustHex(t, "40 01 61 01 62 40 01 63 01 64"),
			wantFields: []Field{{Name: "a", Value: "b"}, {Name: "c", Value: "d"}},
			wantTable:  []Field{{Name: "c", Value: "d"}, {Name: "a", Value: "b"}}, wantMax: 4096},
		{name: "entry larger than the table is not added (§4.4)", block: mustHex(t, "3f 02 40 01 61 01 62"),
			wantFields: []Field{{Name: "a", Value: "b"}}, wantMax: 33},
		{name: "Huffman with ones padding (§5.2)", block: mustHex(t, "00 81 1f 01 61"),
			wantFields: []Field{{Name: "a", Value: "a"}}, wantMax: 4096},
		{name: "size update of 4 redundant continuation octets (§5.1)", block: mustHex(t, "3f 80 80 80 00"), wantMax: 31},
		{name: "empty name (legal in HPACK, §5.2)", block: mustHex(t, "00 80 00"),
			wantFields: []Field{{}}, wantMax: 4096},
		{name: "name of 65536 bytes", block: longName(65536),
			wantFields: []Field{{Name: strings.Repeat("x", 65536)}}, wantMax: 4096},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewInflater()
			defer d.Close()
			d.SetMaxHeaderListSize(0)
			for _, n := range tt.sizes {
				d.SetMaxDynamicTableSize(n)
			}
			fields, err := d.DecodeBlock(tt.block)
			if err != nil {
				t.Fatalf("DecodeBlock(%x): %v", tt.block, err)
			}
			if !slices.Equal(fields, tt.wantFields) {
				t.Errorf("fields = %+v; want %+v", fields, tt.wantFields)
			}
			if table := d.Table(); !slices.Equal(table, tt.wantTable) {
				t.Errorf("Table() = %+v; want %+v", table, tt.wantTable)
			}
			if got := d.MaxTableSize(); got != tt.wantMax {
				t.Errorf("MaxTableSize() = %d; want %d", got, tt.wantMax)
			}
		})
	}
}

func TestSetMaxDynamicTableSize(t *testing.T) {
	d := NewInflater()
	defer d.Close()
	if _, err := d.DecodeBlock(mustHex(t, "40 01 61 01 62")); err != nil {
		t.Fatal(err)
	}
	if got := d.TableSize(); got != 34 {
		t.Fatalf("TableSize() = %d; want 34", got)
	}
	d.SetMaxDynamicTableSize(0)
	if table, max := d.Table(), d.MaxTableSize(); len(table) != 0 || max != 0 {
		t.Fatalf("after SetMaxDynamicTableSize(0): Table() = %+v, MaxTableSize() = %d; want empty, 0", table, max)
	}
	d.SetMaxDynamicTableSize(4096)
	if _, err := d.DecodeBlock(mustHex(t, "20 3f e1 1f 40 01 63 01 64")); err != nil {
		t.Fatalf("block beginning with updates to 0 then 4096: %v", err)
	}
	want := []Field{{Name: "c", Value: "d"}}
	if table := d.Table(); !slices.Equal(table, want) {
		t.Fatalf("Table() = %+v; want %+v", table, want)
	}
}

func TestHeaderListLimit(t *testing.T) {
	block := longName(2000) // 2000 + 32 bytes of header list per field
	block = slices.Concat(block, block, block)
	d := NewInflater()
	defer d.Close()
	d.SetMaxHeaderListSize(3 * 2032)
	if _, err := d.DecodeBlock(block); err != nil {
		t.Fatalf("block of exactly the limit: %v", err)
	}
	d.SetMaxHeaderListSize(3*2032 - 1)
	_, err := d.DecodeBlock(block)
	var e *InflateError
	if !errors.As(err, &e) || e.Code != 0 || e.Fields != 2 || e.Offset != 2*len(longName(2000)) {
		t.Fatalf("block one byte over the limit: error %v; want the list limit after 2 fields", err)
	}
}

func TestBrokenAfterError(t *testing.T) {
	d := NewInflater()
	defer d.Close()
	_, first := d.DecodeBlock(mustHex(t, "80"))
	if first == nil {
		t.Fatal("index 0 decoded without error")
	}
	_, err := d.DecodeBlock(mustHex(t, "82"))
	if !errors.Is(err, first) {
		t.Fatalf("block after a failure: error %v; want one wrapping %v", err, first)
	}
}

func TestInflaterClosed(t *testing.T) {
	d := NewInflater()
	if _, err := d.DecodeBlock(mustHex(t, "40 01 61 01 62")); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close() = %v", err)
	}
	if _, err := d.DecodeBlock(mustHex(t, "82")); err != ErrClosed {
		t.Fatalf("DecodeBlock after Close: error %v; want ErrClosed", err)
	}
	d.SetMaxDynamicTableSize(0)
	if table, size, max, heap := d.Table(), d.TableSize(), d.MaxTableSize(), d.HeapBytes(); table != nil || size != 0 || max != 0 || heap != 0 {
		t.Fatalf("after Close: Table() = %+v, TableSize() = %d, MaxTableSize() = %d, HeapBytes() = %d; want nil, 0, 0, 0", table, size, max, heap)
	}
}

// TestReset checks that an Inflater used for a connection, a lowered
// setting and a decoding error included, decodes after Reset exactly as a
// new one does, keeps its header list limit, and holds no more C memory
// than before.
func TestReset(t *testing.T) {
	used := NewInflater()
	defer used.Close()
	used.SetMaxHeaderListSize(100)
	used.DecodeBlock(mustHex(t, "40 01 61 01 62"))
	used.SetMaxDynamicTableSize(50)
	used.DecodeBlock(mustHex(t, "80")) // index 0: broken
	heap := used.HeapBytes()
	used.Reset()
	if got := used.HeapBytes(); got > heap {
		t.Errorf("HeapBytes() = %d after Reset; want at most %d, as before", got, heap)
	}
	fresh := NewInflater()
	defer fresh.Close()
	fresh.SetMaxHeaderListSize(100)

	type result struct {
		Fields    []Field
		Err       string
		Table     []Field
		Size, Max uint32
	}
	run := func(d *Inflater) []result {
		var out []result
		for _, block := range []string{
			"828684410f7777772e6578616d706c652e636f6d", // RFC 7541 C.3.1
			"be 40 01 61 01 62",
			"00 4f " + strings.Repeat("78", 79) + " 00", // 79 + 32 octets, over the 100-octet limit
		} {
			fields, err := d.DecodeBlock(mustHex(t, block))
			r := result{Fields: fields, Table: d.Table(), Size: d.TableSize(), Max: d.MaxTableSize()}
			if err != nil {
				r.Err = err.Error()
			}
			out = append(out, r)
		}
		return out
	}
	got, want := run(used), run(fresh)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after Reset:\n%+v\nwant, as a new Inflater with the same limit:\n%+v", got, want)
	}
	if want[2].Err == "" {
		t.Errorf("last block: no error; want the header list limit's")
	}
	closed := NewInflater()
	closed.Close()
	closed.Reset()
	if _, err := closed.DecodeBlock(mustHex(t, "82")); err != ErrClosed {
		t.Errorf("DecodeBlock after Close and Reset: error %v; want ErrClosed", err)
	}
}
