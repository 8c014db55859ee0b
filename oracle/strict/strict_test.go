package strict

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

func TestRegistered(t *testing.T) {
	if !slices.Contains(oracle.Names(), Name) {
		t.Errorf("oracle.Names() = %v; want it to contain %q", oracle.Names(), Name)
	}
	if got := New().Name(); got != "strict" {
		t.Errorf("Name() = %q; want \"strict\"", got)
	}
}

// TestSettingsHistoryPerBlock checks that the settings history is cleared by
// each block: the update owed after a drop is owed by the next block only.
func TestSettingsHistoryPerBlock(t *testing.T) {
	d := New()
	d.SetMaxDynamicTableSize(2048)
	d.SetMaxDynamicTableSize(4096)
	if _, err := d.DecodeBlock(unhex(t, "3f e1 0f 3f e1 1f 82")); err != nil {
		t.Fatalf("block with updates 2048, 4096: %v", err)
	}
	if got, want := d.Updates(), []uint32{2048, 4096}; !slices.Equal(got, want) {
		t.Errorf("Updates() = %v; want %v", got, want)
	}
	if got := d.MaxTableSize(); got != 4096 {
		t.Errorf("MaxTableSize() = %d; want 4096", got)
	}
	if _, err := d.DecodeBlock(unhex(t, "82")); err != nil {
		t.Fatalf("next block without update: %v; want success, nothing changed since", err)
	}
	if got := d.Updates(); len(got) != 0 {
		t.Errorf("Updates() = %v after a block without updates; want none", got)
	}
	// A drop to a value at or above the table maximum owes nothing.
	d.SetMaxDynamicTableSize(1024)
	if _, err := d.DecodeBlock(unhex(t, "3f e1 07")); err != nil {
		t.Fatalf("update to 1024: %v", err)
	}
	d.SetMaxDynamicTableSize(4096)
	d.SetMaxDynamicTableSize(1024)
	if _, err := d.DecodeBlock(unhex(t, "82")); err != nil {
		t.Errorf("setting back at the table maximum 1024 with no update: %v; want success", err)
	}
}

// TestWarningsPerBlock checks that Warnings describes the last block only.
func TestWarningsPerBlock(t *testing.T) {
	d := New()
	if _, err := d.DecodeBlock(unhex(t, "20 20 20")); err != nil {
		t.Fatal(err)
	}
	if got := d.Warnings(); len(got) != 1 || got[0].Offset != 2 {
		t.Errorf("Warnings() = %v; want one at offset 2 (the third update)", got)
	}
	if _, err := d.DecodeBlock(unhex(t, "82")); err != nil {
		t.Fatal(err)
	}
	if got := d.Warnings(); len(got) != 0 {
		t.Errorf("Warnings() = %v after a plain block; want none", got)
	}
}

// TestTableNewestFirst follows RFC 7541 C.3.1 and C.3.2 and the table
// those blocks leave.
func TestTableNewestFirst(t *testing.T) {
	d := New()
	for _, block := range []string{
		"828684410f7777772e6578616d706c652e636f6d",
		"828684be58086e6f2d6361636865",
	} {
		if _, err := d.DecodeBlock(unhex(t, block)); err != nil {
			t.Fatalf("DecodeBlock(%s): %v", block, err)
		}
	}
	want := []oracle.Field{{Name: "cache-control", Value: "no-cache"}, {Name: ":authority", Value: "www.example.com"}}
	if got := d.Table(); !slices.Equal(got, want) {
		t.Errorf("Table() = %+v; want %+v", got, want)
	}
	if got := d.TableSize(); got != 110 {
		t.Errorf("TableSize() = %d; want 110 (RFC 7541 C.3.2)", got)
	}
}

func TestHeaderListLimitOff(t *testing.T) {
	d := New()
	d.SetMaxHeaderListSize(0)
	block := make([]byte, 5000)
	for i := range block {
		block[i] = 0x82
	}
	fields, err := d.DecodeBlock(block)
	if err != nil || len(fields) != 5000 {
		t.Errorf("5000 fields of 42 octets with no limit: %d fields, %v; want 5000, nil", len(fields), err)
	}
	d = New()
	if _, err := d.DecodeBlock(block); err == nil {
		t.Errorf("210,000 octets of header list under the default 64 KiB limit: no error")
	}
}

// TestReset checks that a decoder used for a connection, its settings
// history and a decoding error included, decodes after Reset exactly as a
// new one does, and keeps its header-list limit.
func TestReset(t *testing.T) {
	used := New()
	used.SetMaxHeaderListSize(100)
	used.SetMaxDynamicTableSize(2048)
	for _, block := range []string{
		"3f e1 0f 20 828684410f7777772e6578616d706c652e636f6d", // updates 2048, 0: a warning
		"80", // index 0: the decoder is broken
	} {
		used.DecodeBlock(unhex(t, block))
	}
	used.SetMaxDynamicTableSize(100)
	used.Reset()
	fresh := New()
	fresh.SetMaxHeaderListSize(100)

	type result struct {
		Fields   []oracle.Field
		Err      string
		Table    []oracle.Field
		Updates  []uint32
		Warnings []Warning
		Max, Len uint32
	}
	run := func(d *Decoder) []result {
		var out []result
		for _, step := range []string{
			"828684410f7777772e6578616d706c652e636f6d", // RFC 7541 C.3.1
			"setting 0",
			"20 828684be", // the table is empty after the update to 0
			"setting 4096",
			"3f e1 1f 40 01 61 01 62",
			"40 01 61 4f 787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878", // over the 100-octet limit
		} {
			if size, ok := strings.CutPrefix(step, "setting "); ok {
				n, _ := strconv.Atoi(size)
				d.SetMaxDynamicTableSize(uint32(n))
				continue
			}
			fields, err := d.DecodeBlock(unhex(t, step))
			r := result{Fields: fields, Table: d.Table(), Updates: d.Updates(), Warnings: d.Warnings(), Max: d.MaxTableSize(), Len: d.TableSize()}
			if err != nil {
				r.Err = err.Error()
			}
			out = append(out, r)
		}
		return out
	}
	got, want := run(used), run(fresh)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after Reset:\n%+v\nwant, as a new decoder with the same limit:\n%+v", got, want)
	}
	if want[len(want)-1].Err == "" || !strings.Contains(want[len(want)-1].Err, "7.3") {
		t.Errorf("last block: error %q; want the header-list limit's (§7.3)", want[len(want)-1].Err)
	}
}

// TestTableEvents checks the counts of what a block did to the table:
// insertions, evictions by size update and by insertion, entries too
// large to be added; each block counts afresh.
func TestTableEvents(t *testing.T) {
	d := New()
	d.SetMaxDynamicTableSize(80)
	// 3f 31: size update to 80; 40 01 61 01 31: "a: 1" with incremental
	// indexing (34 octets); 40 01 61 01 32: "a: 2" (34).
	if _, err := d.DecodeBlock([]byte{0x3f, 0x31, 0x40, 0x01, 'a', 0x01, '1', 0x40, 0x01, 'a', 0x01, '2'}); err != nil {
		t.Fatal(err)
	}
	if got, want := d.TableEvents(), (TableEvents{Inserted: 2}); got != want {
		t.Errorf("two insertions: %+v; want %+v", got, want)
	}
	// 40 01 61 01 33: "a: 3" evicts "a: 1".
	if _, err := d.DecodeBlock([]byte{0x40, 0x01, 'a', 0x01, '3'}); err != nil {
		t.Fatal(err)
	}
	if got, want := d.TableEvents(), (TableEvents{Inserted: 1, EvictedByInsertion: 1}); got != want {
		t.Errorf("an insertion that evicts: %+v; want %+v", got, want)
	}
	d.SetMaxDynamicTableSize(40)
	// 3f 09: size update to 40 evicts "a: 2"; 40 01 61 08 "xxxxxxxx":
	// 41 octets, larger than the table, empties it.
	if _, err := d.DecodeBlock([]byte{0x3f, 0x09, 0x40, 0x01, 'a', 0x08, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'}); err != nil {
		t.Fatal(err)
	}
	if got, want := d.TableEvents(), (TableEvents{EvictedBySizeUpdate: 1, EvictedByInsertion: 1, Oversized: 1}); got != want {
		t.Errorf("an update that evicts, then an entry too large: %+v; want %+v", got, want)
	}
}
