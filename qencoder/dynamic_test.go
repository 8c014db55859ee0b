package qencoder

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors/qif"
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

// play writes each of lists on a stream of a schedule, a new one or, one
// time in eight, an open one (trailers), with a few random deliveries
// after each, then delivers everything left.
func play(c *schedule, lists [][]spec.Field) {
	for i, fields := range lists {
		if len(c.streams) > 0 && c.rng.IntN(8) == 0 {
			c.write(c.streams[c.rng.IntN(len(c.streams))], 0, fields)
		} else {
			c.write(nil, uint64(i)*4, fields)
		}
		for c.rng.IntN(5) < 3 {
			c.step()
		}
	}
	c.finish()
}

// TestDynamicRoundTrip plays random sections of fields that repeat,
// credentials and sensitive ones among them, under schedules of late and
// reordered delivery (see schedule), on tables that evict all the time,
// are bounded by the decoder's setting, or are absent at either end, with
// each blocked-streams budget. Dynamic references must be used when a
// table is, post-base ones when streams may block, and some stream must
// actually block.
func TestDynamicRoundTrip(t *testing.T) {
	blockedSeen := 0
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
		for _, blocked := range []uint64{0, 1, 100} {
			rng := rand.New(rand.NewPCG(39, uint64(c.capacity)+c.peer))
			pool := fieldPool(rng, 40)
			lists := make([][]spec.Field, 600)
			for i := range lists {
				lists[i] = make([]spec.Field, rng.IntN(8))
				for j := range lists[i] {
					lists[i][j] = pool[rng.IntN(len(pool))]
				}
			}
			cfg := Config{TableCapacity: c.capacity, PeerMaxTableCapacity: c.peer, BlockedStreams: blocked, MaxUnacknowledged: 6}
			s := newSchedule(t, fmt.Sprintf("capacity %d/%d, blocked streams %d", c.capacity, c.peer, blocked), blocked, cfg)
			play(s, lists)
			checkUse(t, s, c.wantRefs)
			blockedSeen += s.maxBlocked
		}
	}
	if blockedSeen == 0 {
		t.Error("no stream ever blocked at the decoder")
	}
}

// checkUse checks that a schedule whose encoder has a dynamic table
// (wantRefs) referenced it, and with a blocked-streams budget used
// post-base references; and that one without wrote nothing on the
// encoder stream (§3.2.3).
func checkUse(t *testing.T, s *schedule, wantRefs bool) {
	t.Helper()
	m := s.mir
	switch {
	case !wantRefs && (m.instructions > 0 || m.dynRefs > 0):
		t.Errorf("%s: %d encoder instructions, %d dynamic references; want none", s.label, m.instructions, m.dynRefs)
	case wantRefs && m.dynRefs == 0:
		t.Errorf("%s: no dynamic reference", s.label)
	case wantRefs && s.budget > 0 && m.postBase == 0:
		t.Errorf("%s: no post-base reference", s.label)
	case wantRefs && s.budget == 0 && m.postBase > 0:
		t.Errorf("%s: %d post-base references without a blocked-streams budget", s.label, m.postBase)
	}
}

// TestQIFSchedules plays the QIF traffic (vectors/qif) under schedules
// of late and reordered delivery at each table capacity and
// blocked-streams budget: every section must decode at qstrict to its
// fields, never beyond the budget of blocked streams, and no instruction
// may evict an entry that is not evictable (see schedule).
func TestQIFSchedules(t *testing.T) {
	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	var lists [][]spec.Field
	for _, f := range files {
		lists = append(lists, f.HeaderLists...)
	}
	if testing.Short() {
		lists = lists[:400]
	}
	duplicates, blockedSeen := 0, 0
	for _, capacity := range []uint32{0, 256, 4096} {
		for _, blocked := range []uint64{0, 1, 100} {
			cfg := Config{TableCapacity: capacity, PeerMaxTableCapacity: 4096, BlockedStreams: blocked}
			s := newSchedule(t, fmt.Sprintf("QIF, capacity %d, blocked streams %d", capacity, blocked), uint64(capacity)+blocked, cfg)
			play(s, lists)
			checkUse(t, s, capacity > 0)
			duplicates += s.mir.duplicates
			blockedSeen += s.maxBlocked
		}
	}
	if duplicates == 0 || blockedSeen == 0 {
		t.Errorf("%d Duplicate instructions, %d streams blocked at most, summed over the tables; want some of each", duplicates, blockedSeen)
	}
}

// TestDecoderStreamErrors checks the decoder-stream instructions the
// encoder refuses, and that an instruction cut short waits for more.
func TestDecoderStreamErrors(t *testing.T) {
	enc := New(Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096})
	// A field is inserted the second time it is seen.
	fields := []spec.Field{{Name: "x-a", Value: "1"}}
	enc.AppendSection(nil, nil, 0, fields)
	if _, es := enc.AppendSection(nil, nil, 0, fields); len(es) == 0 {
		t.Fatal("no insert for a field seen twice")
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
