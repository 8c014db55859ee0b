package decoder

import (
	"strings"
	"testing"
)

// checkRule decodes block with d and checks the rule and offset of the
// error, none if rule is "".
func checkRule(t *testing.T, d *Decoder, block, rule string, off int) {
	t.Helper()
	_, err := collect(d, []byte(block))
	if rule == "" {
		if err != nil {
			t.Fatalf("%x: %v; want no error", block, err)
		}
		return
	}
	if e, ok := err.(*Error); !ok || e.Rule != rule || e.Offset != off {
		t.Fatalf("%x: %v; want %q at %d", block, err, rule, off)
	}
}

// Size updates, by value: 0, 100, 256 and 4096.
const (
	update0    = "\x20"
	update100  = "\x3f\x45"
	update256  = "\x3f\xe1\x01"
	update4096 = "\x3f\xe1\x1f"
)

// TestSetTableSizeLowered checks that a lowered setting must be signaled
// at the start of the next block, by an update to at most the smallest
// setting since the last block, and only in that block.
func TestSetTableSizeLowered(t *testing.T) {
	field := "\x40\x01a\x01b"
	for _, c := range []struct {
		name     string
		settings []uint32
		block    string
		rule     string
		off      int
	}{
		{"no update", []uint32{256}, field, RuleSizeUpdateMissing, 0},
		{"empty block", []uint32{256}, "", RuleSizeUpdateMissing, 0},
		{"update to the setting", []uint32{256}, update256 + field, "", 0},
		{"update below the setting", []uint32{256}, update100 + field, "", 0},
		{"update above the setting: §6.3 first", []uint32{256}, update4096 + field, RuleSizeUpdateLimit, 0},
		{"smallest first", []uint32{100, 4096}, update100 + update4096 + field, "", 0},
		{"final only", []uint32{100, 4096}, update4096 + field, RuleSizeUpdateMissing, 0},
		{"raised: none needed", []uint32{8192}, field, "", 0},
		{"raised: above the old setting", []uint32{8192}, "\x3f\xe1\x3f" + field, "", 0},
		{"raised: above the new setting", []uint32{8192}, "\x3f\xe1\x7f" + field, RuleSizeUpdateLimit, 0},
		{"second update above", []uint32{256}, update0 + update4096, RuleSizeUpdateLimit, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := New(Config{})
			for _, n := range c.settings {
				d.SetTableSize(n)
			}
			checkRule(t, d, c.block, c.rule, c.off)
		})
	}
}

// TestSetTableSizeOnce checks that the required update is required of the
// next block only, and that a setting lowered to no less than the
// table's current maximum size needs none.
func TestSetTableSizeOnce(t *testing.T) {
	d := New(Config{})
	d.SetTableSize(256)
	checkRule(t, d, update100, "", 0)
	checkRule(t, d, "\x82", "", 0)
	d.SetTableSize(200) // above the maximum size of 100 in force
	checkRule(t, d, "\x82", "", 0)
	d.SetTableSize(50)
	checkRule(t, d, "\x82", RuleSizeUpdateMissing, 0)
	d = New(Config{})
	d.SetTableSize(50)
	checkRule(t, d, "\x3f\x13", "", 0) // update to 50
	d.SetTableSize(4096)
	checkRule(t, d, update4096, "", 0)
	checkRule(t, d, "\x82", "", 0) // 50 is no longer the smallest since the last block
}

// TestSetTableSizeGrow checks that raising the setting past the memory
// New allocated keeps the entries, and that the table then takes entries
// up to the new size.
func TestSetTableSizeGrow(t *testing.T) {
	d := New(Config{TableSize: 100})
	checkRule(t, d, "\x40\x01a\x01b\x40\x01c\x01d", "", 0)
	d.SetTableSize(1000)
	if got := strings.Join(tableFields(&d.table), "|"); got != "c: d|a: b" || d.table.maxSize != 100 {
		t.Fatalf("after growing: %q, maximum size %d", got, d.table.maxSize)
	}
	value := strings.Repeat("v", 500)
	checkRule(t, d, "\x3f\xc9\x07"+"\x40\x01e\x7f\xf5\x02"+value, "", 0) // update to 1000
	if got := strings.Join(tableFields(&d.table), "|"); got != "e: "+value+"|c: d|a: b" {
		t.Fatalf("after the update to 1000: %q", got)
	}
}

// TestSetTableSizeHuge checks that the largest setting costs nothing until
// entries need the memory: acknowledging it and a block updating the
// maximum size to it allocate nothing (the first time, when memory for the
// setting would be allocated, and every time after), and the table then
// grows with the entries alone.
func TestSetTableSizeHuge(t *testing.T) {
	d := New(Config{})
	update := []byte("\x3f\xe0\xff\xff\xff\x0f") // size update to 2^32-1
	var err error
	ackAndUpdate := func() {
		d.SetTableSize(1<<32 - 1)
		if e := d.Decode(update, nil); e != nil {
			err = e
		}
	}
	// One run: a table for the setting would be gigabytes; the runtime's
	// own allocations meanwhile are a few hundred octets.
	if got := allocatedBy(1, ackAndUpdate); got > 64<<10 {
		t.Fatalf("acknowledging and updating to 2^32-1 allocated %d octets, want none", got)
	}
	if !raceEnabled {
		if allocs := testing.AllocsPerRun(allocRuns, ackAndUpdate); allocs != 0 {
			t.Fatalf("acknowledging and updating to 2^32-1: %v allocations per call, want 0", allocs)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("v", 5000)
	checkRule(t, d, "\x40\x01e\x7f\x89\x26"+value, "", 0)
	if size, maxSize := d.TableSize(); size != 5033 || maxSize != 1<<32-1 || d.table.capacity > 16384 {
		t.Fatalf("after a 5,033-octet entry: size %d of %d, memory for %d; want 5033 of 2^32-1, memory for at most 16384", size, maxSize, d.table.capacity)
	}
}

// TestCapacity checks that Config.Capacity gives memory up front: a
// setting raised to it and entries filling it allocate nothing.
func TestCapacity(t *testing.T) {
	d := New(Config{Capacity: 16384})
	value := []byte(strings.Repeat("v", 4000))
	var blocks [][]byte
	blocks = append(blocks, []byte("\x3f\xe1\x7f")) // size update to 16384
	for i := range 4 {
		block := []byte{0x40, 0x01, byte('a' + i), 0x7f, 0xa1, 0x1e}
		blocks = append(blocks, append(block, value...))
	}
	d.SetTableSize(16384)
	var err error
	nop := func(_, _ []byte, _ bool) error { return nil }
	fill := func() {
		for _, b := range blocks {
			if e := d.Decode(b, nop); e != nil {
				err = e
			}
		}
	}
	// One run: growing the table would allocate an arena of 24 KiB at
	// least; the runtime's own allocations meanwhile are a few hundred
	// octets. Later runs replace the entries with their like.
	got := allocatedBy(1, fill)
	if err != nil {
		t.Fatal(err)
	}
	if size, _ := d.TableSize(); size != 4*4033 || got > 4<<10 {
		t.Fatalf("four 4,033-octet entries: table size %d, %d octets allocated; want %d and none", size, got, 4*4033)
	}
	if !raceEnabled {
		if allocs := testing.AllocsPerRun(allocRuns, fill); allocs != 0 || err != nil {
			t.Fatalf("filling a table within Capacity: %v allocations per run (%v), want 0", allocs, err)
		}
	}
}
