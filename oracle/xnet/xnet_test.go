package xnet

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q in test table: %v", s, err)
	}
	return b
}

func TestRegistered(t *testing.T) {
	if !slices.Contains(oracle.Names(), "x/net") {
		t.Errorf("oracle.Names() = %v; want it to contain \"x/net\"", oracle.Names())
	}
	if got := New().Name(); got != "x/net" {
		t.Errorf("Name() = %q; want \"x/net\"", got)
	}
}

func TestAppendIndexed(t *testing.T) {
	tests := []struct {
		index uint64
		want  string
	}{
		{62, "be"},
		{126, "fe"},
		{127, "ff 00"}, // the prefix is full: 127 + 0
		{128, "ff 01"},
		{254, "ff 7f"},
		{255, "ff 80 01"}, // 127 + 128
		{16510, "ff ff 7f"},
	}
	for _, tc := range tests {
		if got := appendIndexed(nil, tc.index); !slices.Equal(got, unhex(t, tc.want)) {
			t.Errorf("appendIndexed(%d) = %x; want %s", tc.index, got, tc.want)
		}
	}
}

// TestTableManyEntries fills the table past 127 entries, so that probes
// need multi-octet indices, and checks the order: newest first.
func TestTableManyEntries(t *testing.T) {
	const entries = 300
	d := New()
	d.SetMaxDynamicTableSize(1 << 20)
	block := []byte{0x3f, 0xe1, 0xff, 0x3f} // size update to 1 MiB (§6.3)
	var want []oracle.Field
	for i := range entries {
		name := fmt.Sprintf("n%03d", i)
		block = append(block, 0x40, byte(len(name)))
		block = append(block, name...)
		block = append(block, 0x00) // empty value
		want = append(want, oracle.Field{Name: name})
	}
	slices.Reverse(want)
	if _, err := d.DecodeBlock(block); err != nil {
		t.Fatal(err)
	}
	if got := d.Table(); !slices.Equal(got, want) {
		t.Errorf("Table() has %d entries, first %+v; want %d, first %+v", len(got), got[:min(len(got), 1)], len(want), want[0])
	}
}

// TestTableDoesNotChangeDecoding decodes the same blocks with and without
// reading the table after each one, including blocks the library accepts
// only at a block start, and compares every result.
func TestTableDoesNotChangeDecoding(t *testing.T) {
	blocks := []string{
		"828684410f7777772e6578616d706c652e636f6d", // RFC 7541 C.3.1
		"828684be58086e6f2d6361636865",             // C.3.2
		"20 3f e1 1f 82",                           // updates: the library accepts them only at a block start
		"40 01 61 01 62 be",
		"20 20 be",
		"be",
	}
	probed, plainDecoder := New(), New()
	for i, s := range blocks {
		block := unhex(t, s)
		gotProbed, errProbed := probed.DecodeBlock(block)
		_ = probed.Table()
		_ = probed.Table()
		gotPlain, errPlain := plainDecoder.DecodeBlock(block)
		if (errProbed == nil) != (errPlain == nil) || !slices.Equal(gotProbed, gotPlain) {
			t.Fatalf("block %d: with Table probes %+v, %v; without %+v, %v", i, gotProbed, errProbed, gotPlain, errPlain)
		}
	}
}

func TestNeverIndexed(t *testing.T) {
	got, err := New().DecodeBlock(unhex(t, "10 01 61 01 62 00 01 63 01 64"))
	want := []oracle.Field{{Name: "a", Value: "b", Sensitive: true}, {Name: "c", Value: "d"}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
}

// TestGiantField checks that the string-length limit is off: a 1 MiB value
// decodes once the header-list limit allows it, and fails the block under
// the default limit.
func TestGiantField(t *testing.T) {
	value := strings.Repeat("v", 1<<20)
	// Literal without indexing, new name "g", raw value (RFC 7541 §6.2.2):
	// the length is 127 in the 7-bit prefix plus continuation octets.
	block := []byte{0x00, 0x01, 'g', 0x7f}
	n := len(value) - 127
	for ; n >= 0x80; n >>= 7 {
		block = append(block, 0x80|byte(n&0x7f))
	}
	block = append(block, byte(n))
	block = append(block, value...)
	if got, err := New().DecodeBlock(block); err == nil || !strings.Contains(err.Error(), "header-list limit") {
		t.Errorf("1 MiB literal under the default limit: %d fields, %v; want the header-list limit error", len(got), err)
	}
	d := New()
	d.SetMaxHeaderListSize(2 << 20)
	got, err := d.DecodeBlock(block)
	if err != nil || len(got) != 1 || got[0].Value != value {
		t.Errorf("1 MiB literal: %d fields, %v; want one field with the value", len(got), err)
	}
}

// TestHeaderListLimit checks the bomb defence: a block of a few octets
// that refers many times to one entry fails past the limit, and a list
// exactly at the limit decodes.
func TestHeaderListLimit(t *testing.T) {
	// Literal with incremental indexing, new name "a", value of 31 octets:
	// an entry of 1 + 31 + 32 = 64 octets; then indexed references to it
	// (index 62).
	block := append([]byte{0x40, 0x01, 'a', 31}, strings.Repeat("v", 31)...)
	for range 1023 {
		block = append(block, 0x80|62)
	}
	d := New()
	got, err := d.DecodeBlock(block) // 1024 fields of 64 octets: exactly 64 KiB
	if err != nil || len(got) != 1024 {
		t.Fatalf("64 KiB list: %d fields, %v; want 1024 fields", len(got), err)
	}
	block = append(block[:0], 0x80|62, 0x80|62)
	for range 1023 {
		block = append(block, 0x80|62)
	}
	if got, err := d.DecodeBlock(block); err == nil || !strings.Contains(err.Error(), "exceeds 65536 octets") || got != nil {
		t.Errorf("1025 references: %d fields, %v; want the header-list limit error", len(got), err)
	}
}

func TestSettingBoundsUpdates(t *testing.T) {
	d := New()
	d.SetMaxDynamicTableSize(100)
	if _, err := d.DecodeBlock(unhex(t, "3f 45")); err != nil {
		t.Errorf("update to 100 with the setting at 100: %v", err)
	}
	if _, err := d.DecodeBlock(unhex(t, "3f 46")); err == nil {
		t.Error("update to 101 with the setting at 100: no error (RFC 7541 §6.3)")
	}
}

func TestBrokenAfterError(t *testing.T) {
	d := New()
	if _, err := d.DecodeBlock([]byte{0x80}); err == nil {
		t.Fatal("index 0 decoded without error")
	}
	if _, err := d.DecodeBlock([]byte{0x82}); !errors.Is(err, ErrBroken) {
		t.Errorf("got %v after an error; want ErrBroken", err)
	}
}
