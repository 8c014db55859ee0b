//go:build nghttp2

package nghttp2deflate

import (
	"fmt"
	"testing"
)

// workloadStories turns raw stories into workload stories, with the
// acknowledged setting going to 0 and back to 4096 before block 3 of every
// story.
func workloadStories(stories [][][]Field) [][]Block {
	out := make([][]Block, len(stories))
	for s, story := range stories {
		for b, fields := range story {
			block := Block{Fields: fields}
			if b == 3 {
				block.TableSizes = []uint32{0, 4096}
			}
			out[s] = append(out[s], block)
		}
	}
	return out
}

// encodeBlockByBlock encodes stories as EncodeWorkload does, but with one
// EncodeBlock call per block, and returns the wire bytes of all passes.
func encodeBlockByBlock(t *testing.T, stories [][]Block, cfg WorkloadConfig, passes int) int {
	t.Helper()
	maxTable := cfg.MaxDeflateTableSize
	if maxTable == 0 {
		maxTable = 4096
	}
	var d *Deflater
	var wire []byte
	total := 0
	for p := range passes {
		for s, story := range stories {
			if d == nil {
				d = New(maxTable)
			}
			for b, block := range story {
				for _, n := range block.TableSizes {
					if err := d.ChangeTableSize(n); err != nil {
						t.Fatal(err)
					}
				}
				var err error
				if wire, err = d.EncodeBlock(wire[:0], block.Fields); err != nil {
					t.Fatalf("pass %d, story %d, block %d: %v", p, s, b, err)
				}
				total += len(wire)
			}
			if !cfg.Reuse {
				d.Close()
				d = nil
			}
		}
	}
	if d != nil {
		d.Close()
	}
	return total
}

func TestEncodeWorkloadMatchesBlocks(t *testing.T) {
	stories := workloadStories(rawStories(t))
	blocks, rawBytes := 0, 0
	for _, story := range stories {
		for _, block := range story {
			blocks++
			for _, f := range block.Fields {
				rawBytes += len(f.Name) + len(f.Value)
			}
		}
	}
	for _, cfg := range []WorkloadConfig{
		{},
		{Reuse: true},
		{MaxDeflateTableSize: 1024},
		{MaxDeflateTableSize: 256, Reuse: true},
	} {
		for _, passes := range []int{1, 2} {
			t.Run(fmt.Sprintf("%+v/passes=%d", cfg, passes), func(t *testing.T) {
				w, err := NewWorkload(stories, cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if w.Blocks() != blocks || w.RawBytes() != rawBytes {
					t.Fatalf("Blocks() = %d, RawBytes() = %d; want %d, %d", w.Blocks(), w.RawBytes(), blocks, rawBytes)
				}
				got, err := EncodeWorkload(w, passes)
				if err != nil {
					t.Fatal(err)
				}
				if want := encodeBlockByBlock(t, stories, cfg, passes); got != want {
					t.Fatalf("EncodeWorkload(w, %d) = %d wire bytes; block by block: %d", passes, got, want)
				}
			})
		}
	}
}

func TestEncodeWorkloadEdges(t *testing.T) {
	// A story without blocks, then one with a block without fields: a
	// deflater limited to 1024 bytes begins its first block with a size
	// update (3 bytes: 3f e1 07), and encodes nothing else.
	stories := [][]Block{{}, {{}}}
	w, err := NewWorkload(stories, WorkloadConfig{MaxDeflateTableSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, tt := range []struct {
		passes int
		want   int
	}{{0, 0}, {1, 3}, {4, 12}} {
		if got, err := EncodeWorkload(w, tt.passes); got != tt.want || err != nil {
			t.Errorf("EncodeWorkload(w, %d) = %d, %v; want %d, nil", tt.passes, got, err, tt.want)
		}
	}
	if _, err := EncodeWorkload(w, -1); err == nil {
		t.Errorf("EncodeWorkload(w, -1) succeeded; want an error")
	}
}

func TestEncodeWorkloadAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	w, err := NewWorkload([][]Block{{{Fields: []Field{{Name: ":method", Value: "GET"}, {Name: "x-id", Value: "1"}}}}}, WorkloadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := EncodeWorkload(w, 10); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("EncodeWorkload: %v allocations per call; want 0", allocs)
	}
}

func TestEncodeWorkloadReuse(t *testing.T) {
	// Two stories of the same block. A fresh deflater sends the field as a
	// literal with incremental indexing each time (40 03 "x-a" 01 "1", 7
	// bytes); a reused one sends it the second time as index 62 (be).
	block := Block{Fields: []Field{{Name: "x-a", Value: "1"}}}
	stories := [][]Block{{block}, {block}}
	for _, tt := range []struct {
		reuse bool
		want  int
	}{{false, 14}, {true, 8}} {
		w, err := NewWorkload(stories, WorkloadConfig{Reuse: tt.reuse})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := EncodeWorkload(w, 1); got != tt.want || err != nil {
			t.Errorf("Reuse %t: EncodeWorkload(w, 1) = %d, %v; want %d, nil", tt.reuse, got, err, tt.want)
		}
		w.Close()
	}
}
