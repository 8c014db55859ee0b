package qencoder

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// fieldPool returns n fields that repeat across sections: static names
// with other values, names of their own, credentials and sensitive ones.
func fieldPool(rng *rand.Rand, n int) []spec.Field {
	pool := []spec.Field{
		{Name: "authorization", Value: "Bearer 0123456789abcdef"},
		{Name: "cookie", Value: "id=1"},
		{Name: "x-secret", Value: "s3cr3t", Sensitive: true},
	}
	for len(pool) < n {
		f := randomField(rng)
		if f.Name == "" || len(f.Name)+len(f.Value) > 200 {
			continue
		}
		pool = append(pool, f)
	}
	return pool
}

// queued is a section sent and not yet decoded.
type queued struct {
	stream  uint64
	section []byte
	fields  []spec.Field
	known   uint64 // the inserts the model had acknowledged when it was sent
}

// TestDynamicRoundTrip plays both sides of a connection: the encoder's
// encoder stream reaches the model decoder at once, its sections late and
// out of order (in order within a stream, as HTTP/3 delivers them), some
// streams cancelled; the model acknowledges sections and sends Insert
// Count Increments. Every section must decode to the fields sent, with
// the N bit where the policy puts it, never block, and never reference an
// evicted entry: with sections left undecoded while later ones insert,
// evicting an entry they reference would fail them.
func TestDynamicRoundTrip(t *testing.T) {
	for _, c := range []struct {
		capacity uint32
		peer     uint64
		wantRefs bool
	}{
		{4096, 4096, true},
		{300, 4096, true}, // small: evictions all the time
		{4096, 500, true}, // the peer's setting bounds the capacity
		{4096, 0, false},  // no dynamic table at the peer
		{0, 4096, false},  // nor at the encoder
	} {
		rng := rand.New(rand.NewPCG(39, uint64(c.capacity)+c.peer))
		enc := New(Config{TableCapacity: c.capacity, PeerMaxTableCapacity: c.peer, MaxUnacknowledged: 6})
		m := &model{maxCapacity: c.peer}
		pool := fieldPool(rng, 40)
		var queue []queued
		deliver := func(j int) {
			q := queue[j]
			for k := range j { // the stream's oldest section first
				if queue[k].stream == q.stream {
					j, q = k, queue[k]
					break
				}
			}
			queue = append(queue[:j], queue[j+1:]...)
			var ds []byte
			if rng.IntN(12) == 0 {
				ds = encoder.AppendInteger(nil, 0x40, 6, q.stream) // Stream Cancellation
				kept := queue[:0]
				for _, o := range queue {
					if o.stream != q.stream {
						kept = append(kept, o)
					}
				}
				queue = kept
			} else {
				got, required, err := m.section(q.section)
				if err != nil {
					t.Fatalf("capacity %d/%d: section %x of stream %d: %v", c.capacity, c.peer, q.section, q.stream, err)
				}
				if required > q.known {
					t.Fatalf("capacity %d/%d: section of stream %d references entry %d, unacknowledged when it was sent (%d were)", c.capacity, c.peer, q.stream, required-1, q.known)
				}
				for i, f := range q.fields {
					if want := (spec.Field{Name: f.Name, Value: f.Value, Sensitive: defaultNever(f)}); got[i] != want {
						t.Fatalf("capacity %d/%d: stream %d field %d decoded as %+v, want %+v", c.capacity, c.peer, q.stream, i, got[i], want)
					}
				}
				ds = m.decoderStream(nil, q.stream, required, rng.IntN(3) == 0)
			}
			if n, err := enc.DecoderStream(ds); n != len(ds) || err != nil {
				t.Fatalf("capacity %d/%d: DecoderStream(%x) = %d, %v", c.capacity, c.peer, ds, n, err)
			}
		}
		for i := range 600 {
			fields := make([]spec.Field, rng.IntN(8))
			for j := range fields {
				fields[j] = pool[rng.IntN(len(pool))]
			}
			stream := uint64(i/2) * 4 // headers and trailers
			section, es := enc.AppendSection(nil, nil, stream, fields)
			if err := m.encoderStream(es); err != nil {
				t.Fatalf("capacity %d/%d: encoder stream %x: %v", c.capacity, c.peer, es, err)
			}
			if len(section) > MaxSectionLen(fields) || len(es) > MaxEncoderStreamLen(fields) {
				t.Fatalf("section %d or encoder stream %d octets above the bounds %d, %d", len(section), len(es), MaxSectionLen(fields), MaxEncoderStreamLen(fields))
			}
			queue = append(queue, queued{stream, section, fields, m.acked})
			for len(queue) > 0 && rng.IntN(5) < 3 {
				deliver(rng.IntN(len(queue)))
			}
		}
		for len(queue) > 0 {
			deliver(0)
		}
		if got := m.dynRefs > 0; got != c.wantRefs {
			t.Errorf("capacity %d/%d: %d dynamic references decoded; want some: %v", c.capacity, c.peer, m.dynRefs, c.wantRefs)
		}
	}
}

// TestDecoderStreamErrors checks the decoder-stream instructions the
// encoder refuses, and that an instruction cut short waits for more.
func TestDecoderStreamErrors(t *testing.T) {
	enc := New(Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096})
	_, es := enc.AppendSection(nil, nil, 0, []spec.Field{{Name: "x-a", Value: "1"}})
	if len(es) == 0 {
		t.Fatal("no insert for a new field")
	}
	for _, c := range []struct {
		name   string
		in     []byte
		n      int
		offset int // of the error, -1 for none
	}{
		{"ack with no section", []byte{0x01, 0x84}, 1, 1},
		{"increment past the inserts", []byte{0x02}, 0, 0},
		{"increment of 0", []byte{0x01, 0x00}, 1, 1},
		{"cut short", []byte{0x01, 0xff}, 1, -1},
		{"cancel of an unknown stream", []byte{0x48}, 1, -1},
	} {
		enc.known = 0
		n, err := enc.DecoderStream(c.in)
		if n != c.n || (err == nil) != (c.offset < 0) {
			t.Errorf("%s: DecoderStream(%x) = %d, %v; want %d and an error at %d", c.name, c.in, n, err, c.n, c.offset)
			continue
		}
		var de *DecoderError
		var qe *qspec.Error
		switch {
		case err == nil:
		case errors.As(err, &de) && de.Offset == c.offset, errors.As(err, &qe) && qe.Offset == c.offset:
		default:
			t.Errorf("%s: error %v, want one at offset %d", c.name, err, c.offset)
		}
	}
}

// ackAll sends enc what a decoder that has decoded section, sent on
// stream, and received every insert sends: the Section Acknowledgment
// its Required Insert Count calls for, then an Insert Count Increment for
// the inserts still unacknowledged. ds is the room to write them in.
func ackAll(enc *Encoder, ds []byte, stream uint64, section []byte) error {
	ds = ds[:0]
	if section[0] != 0 {
		ds = encoder.AppendInteger(ds, 0x80, 7, stream)
	}
	if _, err := enc.DecoderStream(ds); err != nil {
		return err
	}
	ds = ds[:0]
	if n := enc.table.inserted - enc.known; n > 0 {
		ds = encoder.AppendInteger(ds, 0x00, 6, n)
	}
	_, err := enc.DecoderStream(ds)
	return err
}
