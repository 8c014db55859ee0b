package tail

import (
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		writes  []string
		kept    string
		dropped int
	}{
		{"under the limit", []string{"ab", "cd"}, "abcd", 0},
		{"over across writes", []string{"abcd", "efg"}, "bcdefg", 1},
		{"one write over", []string{"0123456789"}, "456789", 4},
		{"nothing", nil, "", 0},
	} {
		b := New(6)
		for _, w := range tc.writes {
			if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
				t.Errorf("%s: Write(%q) = %d, %v; want %d, nil", tc.name, w, n, err, len(w))
			}
		}
		if got := string(b.Bytes()); got != tc.kept {
			t.Errorf("%s: Bytes() = %q; want %q", tc.name, got, tc.kept)
		}
		if got := b.Dropped(); got != tc.dropped {
			t.Errorf("%s: Dropped() = %d; want %d", tc.name, got, tc.dropped)
		}
		if tc.dropped > 0 && !strings.HasPrefix(b.String(), "[") {
			t.Errorf("%s: String() = %q; want the dropped count first", tc.name, b.String())
		}
	}
}

func TestBufferBound(t *testing.T) {
	b := New(16)
	chunk := []byte(strings.Repeat("x", 1000))
	for range 1000 {
		b.Write(chunk)
	}
	if c := cap(b.buf); c > 16 {
		t.Errorf("after 1 MB written, the buffer holds %d octets of capacity; want at most 16", c)
	}
	b.Reset()
	if b.String() != "" || b.Dropped() != 0 {
		t.Errorf("after Reset: %q, %d dropped; want empty", b.String(), b.Dropped())
	}
}
