//go:build nghttp2

package libnghttp2

import (
	"strings"
	"testing"
)

// TestInflateBatch checks the loops of InflateBatch, in C, against the
// Inflater block by block on the raw-data stories as the deflater writes
// them: Passes hands over the fields, octets and never-indexed fields the
// Inflater decodes, n times for n passes; Hops writes again the very wire
// octets Batch's passes write, since its deflaters see the same fields
// from the same fresh state; HeldBytes counts more memory after decoding
// than before.
func TestInflateBatch(t *testing.T) {
	stories := rawStories(t)
	enc, err := NewBatch(stories)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var (
		conns [][][]byte
		want  Tally
		room  Room
	)
	for c, story := range stories {
		blocks, err := enc.Wire(c)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, blocks)
		d := NewInflater()
		for i, block := range blocks {
			fields, err := d.DecodeBlock(block)
			if err != nil {
				t.Fatalf("story %d block %d: %v", c, i, err)
			}
			octets := 0
			for _, f := range fields {
				octets += len(f.Name) + len(f.Value)
				if f.Sensitive {
					want.Sensitive++
				}
			}
			want.Fields += int64(len(fields))
			want.Octets += int64(octets)
			room = Room{Fields: max(room.Fields, len(fields)), Octets: max(room.Octets, octets), Out: max(room.Out, MaxBlockLen(story[i]))}
		}
		d.Close()
	}
	wantWire, err := enc.Passes(1)
	if err != nil {
		t.Fatal(err)
	}
	want.Wire = int64(wantWire)
	b, err := NewInflateBatch(conns, room)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, err := b.Passes(2)
	if err != nil {
		t.Fatal(err)
	}
	twice := Tally{Fields: 2 * want.Fields, Octets: 2 * want.Octets, Sensitive: 2 * want.Sensitive}
	if got != twice {
		t.Errorf("Passes(2) = %+v; want %+v", got, twice)
	}
	if got, err = b.Hops(1); err != nil {
		t.Fatal(err)
	} else if got != want {
		t.Errorf("Hops(1) = %+v; want %+v", got, want)
	}
	idle, used, err := b.HeldBytes(len(conns))
	if err != nil {
		t.Fatal(err)
	}
	if idle <= 0 || used <= idle {
		t.Errorf("HeldBytes: %d bytes idle, %d after a story each; want 0 < idle < used", idle, used)
	}
}

// TestInflateBatchErrors checks that a loop fails on a block nghttp2
// refuses, or one that does not fit the Room, naming the connection and
// the block, and that a closed batch says so.
func TestInflateBatchErrors(t *testing.T) {
	good := []byte{0x82, 0x84} // :method GET, :path /
	cut := []byte{0x82, 0xff}  // an index cut short
	b, err := NewInflateBatch([][][]byte{{good}, {good, cut}}, Room{Fields: 1, Octets: 64, Out: 64})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Passes(1); err == nil || !strings.Contains(err.Error(), "connection 1 block 1") {
		t.Errorf("Passes over a cut block: %v; want an error naming connection 1 block 1", err)
	}
	if _, err := b.Hops(1); err == nil || !strings.Contains(err.Error(), "connection 0 block 0: the block decoded to more fields") {
		t.Errorf("Hops with room for 1 field of 2: %v; want an error naming connection 0 block 0 and the room", err)
	}
	b.Close()
	if _, err := b.Passes(1); err != ErrClosed {
		t.Errorf("Passes after Close: %v; want ErrClosed", err)
	}
}
