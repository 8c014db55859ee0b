//go:build nghttp3

package libnghttp3

import "testing"

// TestEncodeBatch checks the C loop encodes the QIF traffic to as many
// octets as the Encoder does under the same schedule, pass after pass,
// and gives back its C memory on Close.
func TestEncodeBatch(t *testing.T) {
	before := liveCBytes()
	var conns [][][]Field
	want := 0
	for _, f := range traffic(t) {
		conns = append(conns, f.HeaderLists)
		e, err := NewEncoder(MaxTableCapacity, 100)
		if err != nil {
			t.Fatal(err)
		}
		var inserts, known uint64
		for i, list := range f.HeaderLists {
			stream := uint64(4 * i)
			section, es, err := e.Encode(stream, list)
			if err != nil {
				t.Fatal(err)
			}
			want += len(section) + len(es)
			inserts += countInserts(t, es)
			if ack := appendAcks(t, nil, stream, section, inserts, &known, false); ack != nil {
				if err := e.ReadDecoder(ack); err != nil {
					t.Fatal(err)
				}
			}
		}
		e.Close()
	}
	b, err := NewEncodeBatch(conns)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} {
		got, err := b.Passes(n)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("Passes(%d): %d octets a pass; the Encoder wrote %d", n, got, want)
		}
	}
	b.Close()
	if after := liveCBytes(); after != before {
		t.Errorf("C heap: %d bytes before, %d after Close", before, after)
	}
}
