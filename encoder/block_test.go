package encoder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomBlocks returns blocks of fields drawn from a small pool of names
// and values, so that they repeat, hit static entries, are sensitive, are
// larger than the table, and evict.
func randomBlocks(seed uint64, n int) [][]Field {
	rng := rand.New(rand.NewPCG(seed, 1))
	names := []string{":method", ":path", ":status", "cookie", "authorization", "user-agent", "x-custom", "x-trace-id", "content-length", "accept-encoding"}
	values := []string{"", "GET", "200", "/", "gzip, deflate", "short", strings.Repeat("v", 40), strings.Repeat("w", 3000), strings.Repeat("z", 5000)}
	blocks := make([][]Field, n)
	for i := range blocks {
		fields := make([]Field, rng.IntN(12))
		for j := range fields {
			v := values[rng.IntN(len(values))]
			if rng.IntN(4) == 0 {
				v = fmt.Sprintf("%s-%d", v, rng.IntN(50))
			}
			fields[j] = Field{Name: names[rng.IntN(len(names))], Value: v, Sensitive: rng.IntN(8) == 0}
		}
		blocks[i] = fields
	}
	return blocks
}

// TestAppendBlockMatchesFields checks that AppendBlock writes exactly what
// AppendFieldString writes field by field, table size changes between
// blocks included, into empty, short and roomy buffers.
func TestAppendBlockMatchesFields(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		byBlock, byField := New(Config{Capacity: 8192}), New(Config{Capacity: 8192})
		rng := rand.New(rand.NewPCG(seed, 2))
		prefix := []byte("frame header")
		for i, fields := range randomBlocks(seed, 200) {
			if rng.IntN(10) == 0 {
				size := uint32(rng.IntN(9000))
				byBlock.SetMaxDynamicTableSize(size)
				byField.SetMaxDynamicTableSize(size)
			}
			var dst []byte
			switch i % 3 {
			case 1:
				dst = append(make([]byte, 0, len(prefix)+1), prefix...)
			case 2:
				dst = append(make([]byte, 0, 1<<16), prefix...)
			}
			got := byBlock.AppendBlock(dst, fields)
			want := append([]byte(nil), dst...)
			for _, f := range fields {
				want = byField.AppendFieldString(want, f.Name, f.Value, f.Sensitive)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d block %d: AppendBlock wrote %x; field by field %x", seed, i, got, want)
			}
			if byBlock.TableSize() != byField.TableSize() || byBlock.TableLen() != byField.TableLen() {
				t.Fatalf("seed %d block %d: tables differ: %d entries, %d octets against %d, %d", seed, i,
					byBlock.TableLen(), byBlock.TableSize(), byField.TableLen(), byField.TableSize())
			}
			if len(got) > len(dst)+BlockLen(fields) {
				t.Fatalf("seed %d block %d: %d octets appended, over BlockLen's %d", seed, i, len(got)-len(dst), BlockLen(fields))
			}
		}
	}
}

// TestAppendBlockAllocs checks that AppendBlock allocates nothing into a
// buffer with BlockLen octets of room.
func TestAppendBlockAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	fields := make([]Field, len(batch))
	for i, f := range batch {
		fields[i] = Field{Name: f.name, Value: f.value, Sensitive: f.sensitive}
	}
	enc := New(Config{})
	dst := make([]byte, 0, BlockLen(fields))
	if n := testing.AllocsPerRun(allocRuns, func() { dst = enc.AppendBlock(dst[:0], fields) }); n != 0 {
		t.Errorf("AppendBlock with room: %v allocations a call; want 0", n)
	}
}
