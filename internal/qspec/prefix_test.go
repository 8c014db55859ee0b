package qspec

import (
	"errors"
	"testing"
)

// wantError checks that err is an *Error at the given offset and section.
func wantError(t *testing.T, label string, err error, offset int, section string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v; want an *Error at offset %d, %s", label, err, offset, section)
		return
	}
	if e.Offset != offset || e.Section != section {
		t.Errorf("%s: %v; want offset %d, %s", label, err, offset, section)
	}
}

// wantSame checks got against want, item by item.
func wantSame[T comparable](t *testing.T, label string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items; want %d", label, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: item %d:\n got %+v\nwant %+v", label, i, got[i], want[i])
		}
	}
}

// TestPrefixRoundTrip encodes every Required Insert Count a decoder can
// accept (§4.5.1.1: from totalInserts-maxEntries+1 to
// totalInserts+maxEntries, and 0) with Bases on both sides of it, across
// several wraps of 2*MaxEntries, and decodes them back.
func TestPrefixRoundTrip(t *testing.T) {
	for _, capacity := range []uint64{32, 64, 220, 640} {
		maxEntries := MaxEntries(capacity)
		for total := uint64(0); total <= 5*maxEntries+3; total++ {
			low := uint64(1)
			if total >= maxEntries {
				low = total - maxEntries + 1
			}
			rics := []uint64{0}
			for ric := low; ric <= total+maxEntries; ric++ {
				rics = append(rics, ric)
			}
			for _, ric := range rics {
				for base := uint64(0); base <= ric+2; base++ {
					wire := AppendPrefix(nil, ric, base, maxEntries)
					pf, n, err := ReadPrefix(wire)
					if err != nil || n != len(wire) {
						t.Fatalf("capacity %d, %d inserts, ric %d, base %d: ReadPrefix(%x) = %d, %v", capacity, total, ric, base, wire, n, err)
					}
					gotRIC, err := pf.RequiredInsertCount(maxEntries, total)
					if err != nil || gotRIC != ric {
						t.Fatalf("capacity %d, %d inserts: ric %d encoded %x decodes to %d, %v", capacity, total, ric, wire, gotRIC, err)
					}
					gotBase, err := pf.Base(gotRIC)
					if err != nil || gotBase != base {
						t.Fatalf("ric %d: base %d encoded %x decodes to %d, %v", ric, base, wire, gotBase, err)
					}
				}
			}
		}
	}
}

func TestRequiredInsertCountDecoding(t *testing.T) {
	// MaxEntries 6 (a capacity of 220, as in Appendix B): FullRange 12.
	tests := []struct {
		label                      string
		encoded, maxEntries, total uint64
		want                       uint64
		wantErr                    bool
	}{
		{"zero stays zero", 0, 6, 100, 0, false},
		{"no wrap", 3, 6, 2, 2, false},
		{"wrapped into the current range", 1, 6, 20, 24, false},
		{"wrapped back a range: MaxValue 26, 27 is too big", 4, 6, 20, 15, false},
		{"largest accepted: MaxValue itself", 3, 6, 20, 26, false},
		{"capacity 0 allows no reference", 1, 0, 0, 0, true},
		{"EncodedInsertCount above FullRange", 13, 6, 0, 0, true},
		{"decodes above MaxValue in the first range", 8, 6, 0, 0, true},
		{"decodes to 0 although encoded nonzero", 1, 6, 0, 0, true},
	}
	for _, tt := range tests {
		got, err := Prefix{EncodedInsertCount: tt.encoded}.RequiredInsertCount(tt.maxEntries, tt.total)
		if tt.wantErr {
			wantError(t, tt.label, err, 0, "§4.5.1.1")
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: encoded %d, MaxEntries %d, %d inserts: got %d, %v; want %d", tt.label, tt.encoded, tt.maxEntries, tt.total, got, err, tt.want)
		}
	}
}

func TestBaseErrors(t *testing.T) {
	tests := []struct {
		label string
		pf    Prefix
		ric   uint64
	}{
		{"sign bit with Required Insert Count 0 (ls-qpack#90)", Prefix{Sign: true}, 0},
		{"Delta Base equal to Required Insert Count", Prefix{Sign: true, DeltaBase: 5}, 5},
		{"Base above 2^62-1", Prefix{DeltaBase: MaxInt}, 1},
	}
	for _, tt := range tests {
		_, err := tt.pf.Base(tt.ric)
		wantError(t, tt.label, err, 1, "§4.5.1.2")
	}
}

func TestReadPrefixErrors(t *testing.T) {
	tests := []struct {
		label   string
		in      []byte
		offset  int
		section string
	}{
		{"empty section", nil, 0, "§4.5.1.1"},
		{"no Base", []byte{0x00}, 1, "§4.5.1.2"},
		{"Required Insert Count cut", []byte{0xff, 0x80}, 0, "§4.5.1.1"},
		{"Required Insert Count above 2^62-1", []byte{0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00}, 0, "§4.5.1.1"},
		{"Delta Base cut", []byte{0x02, 0xff}, 1, "§4.5.1.2"},
	}
	for _, tt := range tests {
		_, _, err := ReadPrefix(tt.in)
		wantError(t, tt.label, err, tt.offset, tt.section)
	}
}

// TestPrefixNoAllocation holds the decoder's prefix path to no
// allocation: it runs once per field section.
func TestPrefixNoAllocation(t *testing.T) {
	wire := AppendPrefix(nil, 15, 10, 6)
	allocs := testing.AllocsPerRun(100, func() {
		pf, _, err := ReadPrefix(wire)
		if err != nil {
			t.Fatal(err)
		}
		ric, err := pf.RequiredInsertCount(6, 20)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pf.Base(ric); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("ReadPrefix, RequiredInsertCount and Base: %v allocations; want 0", allocs)
	}
}
