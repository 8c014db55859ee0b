//go:build nghttp2

package libnghttp2

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// flushTable is a block prefix that empties the dynamic table and restores
// its 4096-byte maximum (RFC 7541 §6.3 updates to 0, then 4096), so that the
// first block of a story can follow another story on the same Inflater.
var flushTable = []byte{0x20, 0x3f, 0xe1, 0x1f}

// onePass returns the wire blocks of the nghttp2-encoded stories one after
// another, each story's first block prefixed with flushTable.
func onePass(t *testing.T) [][]byte {
	dir := filepath.Join(testenv.TestCaseDir(t), "nghttp2")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no story files in %s (%v)", dir, err)
	}
	var pass [][]byte
	for _, path := range files {
		for i, b := range readWireStory(t, path) {
			if b.tableSize != nil && *b.tableSize != 4096 {
				t.Fatalf("%s: case %d: header_table_size %d; the run assumes 4096", path, i, *b.tableSize)
			}
			if i == 0 {
				pass = append(pass, slices.Concat(flushTable, b.wire))
			} else {
				pass = append(pass, b.wire)
			}
		}
	}
	return pass
}

// maxInflaterHeap bounds the C heap of one Inflater on the story blocks: a
// 4096-byte table with nghttp2's per-entry bookkeeping, its buffers, and
// the record buffer of the largest block.
const maxInflaterHeap = 32 << 10

// TestInflaterMemoryFlat decodes the nghttp2 stories three times over on one
// Inflater, more than 10,000 blocks. Each pass leaves the same table after
// the same block, so from the second pass on, once the buffers have grown
// to the largest block, the C heap after each block must be exactly what it
// was after that block one pass earlier: a leak of one byte shows. The C
// heap must also stay under maxInflaterHeap, the Go heap must not grow, and
// Close must give back every C byte.
func TestInflaterMemoryFlat(t *testing.T) {
	const passes = 3
	pass := onePass(t)
	if passes*len(pass) < 10000 {
		t.Fatalf("%d passes of %d blocks; want at least 10,000 blocks", passes, len(pass))
	}
	start := liveCBytes()

	d := NewInflater()
	heap := make([][]int, passes) // C heap after each block of each pass
	for p := range heap {
		heap[p] = make([]int, len(pass))
	}
	goHeap := make([]uint64, passes)
	peak := 0
	for p := range passes {
		for i, block := range pass {
			if _, err := d.DecodeBlock(block); err != nil {
				t.Fatalf("pass %d, block %d: %v", p, i, err)
			}
			heap[p][i] = d.HeapBytes()
			peak = max(peak, d.HeapBytes())
		}
		goHeap[p] = heapAfterGC()
	}
	t.Logf("%d blocks; C heap of the Inflater: peak %d bytes, %d at the end; Go heap after GC at the end of each pass: %d",
		passes*len(pass), peak, d.HeapBytes(), goHeap)
	for p := 2; p < passes; p++ {
		for i := range pass {
			if heap[p][i] != heap[p-1][i] {
				t.Fatalf("C heap after block %d: %d bytes in pass %d, %d in pass %d; want no change", i, heap[p][i], p, heap[p-1][i], p-1)
			}
		}
	}
	if peak > maxInflaterHeap {
		t.Errorf("C heap peak %d bytes; want at most %d", peak, maxInflaterHeap)
	}
	const goSlack = 16 << 10
	if goHeap[passes-1] > goHeap[1]+goSlack {
		t.Errorf("Go heap grew from %d to %d bytes between the end of pass 1 and pass %d", goHeap[1], goHeap[passes-1], passes-1)
	}

	d.Close()
	if live := liveCBytes(); live != start {
		t.Errorf("after Close: %d C bytes live; want %d as before New", live, start)
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
