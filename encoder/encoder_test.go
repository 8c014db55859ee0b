package encoder

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unsafe"
)

// encodeStory encodes every block of s, acknowledging size 256 half way,
// and returns all the bytes.
func encodeStory(enc *Encoder, s story) []byte {
	var out []byte
	for i, block := range s.blocks {
		if i == len(s.blocks)/2 {
			enc.SetMaxDynamicTableSize(256)
		}
		for j, f := range block {
			out = enc.AppendFieldString(out, f.Name, f.Value, j%7 == 6)
		}
	}
	return out
}

// TestResetEqualsFresh checks that an encoder after Reset encodes exactly
// as a new one does, whatever state it was left in.
func TestResetEqualsFresh(t *testing.T) {
	stories := readRawStories(t)
	for _, capacity := range []uint32{0, 1024, 8192} {
		t.Run(fmt.Sprint(capacity), func(t *testing.T) {
			used := New(Config{Capacity: capacity})
			for i := range 8 {
				encodeStory(used, stories[i])
				used.SetMaxDynamicTableSize(uint32(i) * 1000)
				used.Reset()
				if used.TableLen() != 0 || used.TableSize() != 0 {
					t.Fatalf("after Reset: TableLen %d, TableSize %d; want 0, 0", used.TableLen(), used.TableSize())
				}
				next := stories[i+1]
				got := encodeStory(used, next)
				want := encodeStory(New(Config{Capacity: capacity}), next)
				if !bytes.Equal(got, want) {
					t.Fatalf("story %s after Reset differs from a fresh encoder", next.name)
				}
			}
		})
	}
}

// TestPool checks that Get returns encoders in fresh state, that Put drops
// encoders of another Config, and that a zero Pool works.
func TestPool(t *testing.T) {
	s := readRawStories(t)[3]
	want := encodeStory(New(Config{Capacity: 2048}), s)

	pool := &Pool{Config: Config{Capacity: 2048}}
	e := pool.Get()
	encodeStory(e, s)
	e.SetMaxDynamicTableSize(100)
	pool.Put(e)
	for i := range 3 {
		e := pool.Get()
		if got := encodeStory(e, s); !bytes.Equal(got, want) {
			t.Fatalf("Get %d: encoder not in fresh state", i)
		}
		pool.Put(e)
	}

	other := New(Config{Capacity: 4096})
	pool.Put(other)
	pool.Put(nil)
	for range 3 {
		if e := pool.Get(); e == other || e.MaxTableSize() != 2048 {
			t.Fatalf("Get returned an encoder of another Config (MaxTableSize %d)", e.MaxTableSize())
		}
	}

	var zero Pool
	if e := zero.Get(); e.MaxTableSize() != 4096 {
		t.Errorf("zero Pool: MaxTableSize %d; want 4096", e.MaxTableSize())
	}
}

// TestMemory checks the memory figures the package doc gives: memory for
// min(4096, Capacity) at first, for a larger table size once it is set,
// up to Capacity, and no more after.
func TestMemory(t *testing.T) {
	tests := []struct {
		capacity  uint32
		sizes     []uint32 // given to SetMaxDynamicTableSize in turn
		want      int
		wantSized uint32
	}{
		{4096, nil, 12288, 4096},
		{65536, nil, 12288, 4096},
		{65536, []uint32{65536}, 65536 * 3, 65536},
		{65536, []uint32{100000, 0, 4096}, 65536 * 3, 65536},
		{65536, []uint32{8192, 1024}, 8192 * 3, 8192},
		{256, nil, 768, 256},
		{256, []uint32{65536}, 768, 256},
	}
	for _, tt := range tests {
		e := New(Config{Capacity: tt.capacity})
		for _, n := range tt.sizes {
			e.SetMaxDynamicTableSize(n)
		}
		e.Reset()
		if got := e.table.memory(); got != tt.want || e.table.capacity != tt.wantSized {
			t.Errorf("Capacity %d, sizes %v, Reset: table memory %d bytes for a table of %d; want %d for %d", tt.capacity, tt.sizes, got, e.table.capacity, tt.want, tt.wantSized)
		}
	}
	if size := unsafe.Sizeof(Encoder{}); size >= 512 {
		t.Errorf("Encoder is %d bytes; the package doc says under 512", size)
	}
	if unsafe.Sizeof(entry{}) != 32 {
		t.Errorf("entry is %d bytes; dynamicTable.memory assumes 32", unsafe.Sizeof(entry{}))
	}
}

// TestPolicyDocumented checks that the package doc and README state the
// credential rule as DefaultPolicy applies it (TestPolicy) and as
// hpackcert grades it (enc/7.1.3/2): authorization and
// proxy-authorization never indexed at any length, only cookies by their
// length. An encoder written from either text gets the rule right.
func TestPolicyDocumented(t *testing.T) {
	space := regexp.MustCompile(`\s+`)
	for _, file := range []string{"encoder.go", "../README.md"} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := space.ReplaceAllString(strings.ReplaceAll(string(raw), "//", ""), " ")
		_, policy, _ := strings.Cut(text, "Indexing policy")
		_, rule, ok := strings.Cut(policy, "authorization")
		rule, _, _ = strings.Cut(rule, "\"Never Indexed\"")
		if !ok || !strings.Contains(rule, "whatever their length") || !strings.Contains(rule, "cookie") {
			t.Errorf("%s: the indexing policy's credential rule reads %q; want authorization never indexed whatever its length, cookies by their length", file, "authorization"+rule)
		}
	}
}
