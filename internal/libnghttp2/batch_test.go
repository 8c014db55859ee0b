//go:build nghttp2

package libnghttp2

import (
	"bytes"
	"errors"
	"testing"
)

// TestBatchIsDeflater checks that the loops of Batch, in C, write what a
// Deflater writes block by block on the raw-data stories: Wire the same
// blocks, Passes and Steps the same byte counts.
func TestBatchIsDeflater(t *testing.T) {
	stories := rawStories(t)
	b, err := NewBatch(stories)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pass, blocks := 0, 0
	steady := NewDeflater(4096)
	defer steady.Close()
	steps := 0
	for c, story := range stories {
		got, err := b.Wire(c)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(story) {
			t.Fatalf("story %d: Wire returned %d blocks; want %d", c, len(got), len(story))
		}
		d := NewDeflater(4096)
		for i, fields := range story {
			want, err := d.EncodeBlock(nil, fields)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got[i], want) {
				t.Fatalf("story %d, block %d: Batch wrote %x; the Deflater %x", c, i, got[i], want)
			}
			pass += len(want)
			wire, err := steady.EncodeBlock(nil, fields)
			if err != nil {
				t.Fatal(err)
			}
			steps += len(wire)
		}
		d.Close()
		blocks += len(story)
	}
	if n, err := b.Passes(2); err != nil || n != 2*pass {
		t.Errorf("Passes(2) = %d, %v; want %d bytes", n, err, 2*pass)
	}
	if n, err := b.Steps(blocks); err != nil || n != steps {
		t.Errorf("Steps(%d) = %d, %v; want %d bytes, as one Deflater over every block", blocks, n, err, steps)
	}
	if calls, bytes := b.CAllocs(); calls <= 0 || bytes <= 0 {
		t.Errorf("CAllocs() = %d calls, %d bytes; want more than 0", calls, bytes)
	}
	b.Close()
	if _, err := b.Steps(1); !errors.Is(err, ErrClosed) {
		t.Errorf("Steps after Close: %v; want ErrClosed", err)
	}
}

// TestConns checks that Conns counts only what its deflaters hold, that it
// grows as they fill their tables, and that a block of more fields than
// the set has room for is refused, not read past its buffer.
func TestConns(t *testing.T) {
	block := []Field{{Name: "x-a", Value: "1"}, {Name: "x-b", Value: "2"}}
	s, err := NewConns(65536, len(block), MaxBlockLen(block))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.CHeap(); got != 0 {
		t.Fatalf("CHeap() before Open = %d; want 0", got)
	}
	if err := s.Open(2); err != nil {
		t.Fatal(err)
	}
	open := s.CHeap()
	if open <= 0 {
		t.Fatalf("CHeap() after Open(2) = %d; want more than 0", open)
	}
	if err := s.Encode(1, block); err != nil {
		t.Fatal(err)
	}
	if got := s.CHeap(); got <= open {
		t.Errorf("CHeap() after indexing two fields = %d; want more than %d", got, open)
	}
	var e *DeflateError
	if err := s.Encode(0, append(block, block...)); !errors.As(err, &e) || e.Code != -501 {
		t.Errorf("Encode of 4 fields in room for 2: %v; want NGHTTP2_ERR_INVALID_ARGUMENT (-501)", err)
	}
	if err := CreateDeflaters(65536, 3); err != nil {
		t.Errorf("CreateDeflaters: %v", err)
	}
}
