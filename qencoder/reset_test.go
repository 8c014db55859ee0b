package qencoder

import (
	"bytes"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// TestReset checks that an encoder Reset after a connection, left with
// entries, unacknowledged sections and inserts the decoder has not
// acknowledged, writes the next connection as a new encoder does, octet
// for octet, sections and encoder stream alike.
func TestReset(t *testing.T) {
	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("%d QIF files; want 2 at least", len(files))
	}
	for _, cfg := range []Config{
		{TableCapacity: 4096, PeerMaxTableCapacity: 4096, BlockedStreams: 100},
		{TableCapacity: 4096, PeerMaxTableCapacity: 4096},
		{TableCapacity: 256, PeerMaxTableCapacity: 1024, BlockedStreams: 2, MaxUnacknowledged: 4},
	} {
		reused := New(cfg)
		for i := range files {
			// The connection before, acknowledged but for its last
			// sections.
			prev := files[(i+1)%len(files)].HeaderLists
			connection(t, reused, prev, len(prev)-3)
			reused.Reset()
			lists := files[i].HeaderLists
			got := connection(t, reused, lists, len(lists))
			want := connection(t, New(cfg), lists, len(lists))
			if !bytes.Equal(got, want) {
				t.Errorf("%+v: %s after Reset: %d octets differ from a new encoder's %d", cfg, files[i].Name, len(got), len(want))
			}
		}
	}
}

// connection encodes lists on enc, list i on stream 4i, acknowledging the
// first acked sections and their inserts, and returns every section and
// encoder-stream octet it wrote, in order.
func connection(t *testing.T, enc *Encoder, lists [][]spec.Field, acked int) []byte {
	t.Helper()
	var out, section, es []byte
	for i, l := range lists {
		stream := uint64(4 * i)
		section, es = enc.AppendSection(section[:0], es[:0], stream, l)
		out = append(append(out, es...), section...)
		if i >= acked {
			continue
		}
		if err := ackAll(enc, nil, stream, section); err != nil {
			t.Fatalf("list %d: %v", i, err)
		}
	}
	return out
}
