//go:build nghttp2

package libnghttp2

import (
	"testing"
)

// maxDeflaterHeap bounds the C heap of one Deflater on the raw-data
// stories: a 4096-byte table with nghttp2's per-entry bookkeeping and its
// hash index, and the field array of the largest block.
const maxDeflaterHeap = 32 << 10

// TestDeflaterMemoryFlat encodes the raw-data stories three times over on
// one Deflater, more than 10,000 blocks, emptying the table at each story
// start (setting 0, then 4096). Each pass then leaves the same table after
// the same block, so from the second pass on the C heap after each block
// must be exactly what it was one pass earlier. It must also stay under
// maxDeflaterHeap, and Close must give back every C byte.
func TestDeflaterMemoryFlat(t *testing.T) {
	const passes = 3
	stories := rawStories(t)
	blocks := 0
	for _, story := range stories {
		blocks += len(story)
	}
	if passes*blocks < 10000 {
		t.Fatalf("%d passes of %d blocks; want at least 10,000 blocks", passes, blocks)
	}
	start := liveCBytes()

	d := NewDeflater(4096)
	heap := make([][]int, passes)
	for p := range heap {
		heap[p] = make([]int, 0, blocks)
	}
	peak := 0
	var wire []byte
	for p := range passes {
		for _, story := range stories {
			for _, n := range []uint32{0, 4096} {
				if err := d.ChangeTableSize(n); err != nil {
					t.Fatal(err)
				}
			}
			for _, fields := range story {
				var err error
				if wire, err = d.EncodeBlock(wire[:0], fields); err != nil {
					t.Fatal(err)
				}
				heap[p] = append(heap[p], d.HeapBytes())
				peak = max(peak, d.HeapBytes())
			}
		}
	}
	t.Logf("%d blocks; C heap of the Deflater: peak %d bytes, %d at the end", passes*blocks, peak, d.HeapBytes())
	for p := 2; p < passes; p++ {
		for i := range heap[p] {
			if heap[p][i] != heap[p-1][i] {
				t.Fatalf("C heap after block %d: %d bytes in pass %d, %d in pass %d; want no change", i, heap[p][i], p, heap[p-1][i], p-1)
			}
		}
	}
	if peak > maxDeflaterHeap {
		t.Errorf("C heap peak %d bytes; want at most %d", peak, maxDeflaterHeap)
	}
	d.Close()
	if live := liveCBytes(); live != start {
		t.Errorf("after Close: %d C bytes live; want %d as before New", live, start)
	}
}
