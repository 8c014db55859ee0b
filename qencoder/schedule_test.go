package qencoder

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// schedule plays an HTTP/3 connection between an Encoder and qstrict's
// decoder, delivering what each writes late and in pieces, as QUIC may:
// the encoder stream in order but in chunks of any length, long after the
// sections that need it; each request stream's sections in order, the
// streams in any order; the decoder stream in chunks, late. Some streams
// are reset (qstrict sends a Stream Cancellation). Every step checks
// that qstrict accepts everything, that each section decodes to the
// fields sent, that no more streams are blocked than the setting, and,
// through a mirror, that no instruction evicts an entry that is not
// evictable and that the encoder's view of acknowledgements is the
// RFC's.
type schedule struct {
	t      *testing.T
	label  string
	rng    *rand.Rand
	budget uint64
	enc    *Encoder
	dec    *qstrict.Decoder
	mir    *mirror

	encStream []byte // encoder-stream octets the decoder has not read
	decStream []byte // decoder-stream octets the encoder has not read
	partial   []byte // the start of an instruction the encoder has read
	streams   []*reqStream

	maxBlocked int
	written    int // sections
	decoded    int
	lost       int // sections of reset streams, never delivered
}

// reqStream is a request stream: the sections written on it, not yet
// decoded, oldest first; the first unsent is next to deliver.
type reqStream struct {
	id       uint64
	sections [][]byte
	fields   [][]spec.Field
	sent     int  // sections given to the decoder
	blocked  bool // the decoder holds its sent section for inserts
	reset    bool
}

func newSchedule(t *testing.T, label string, seed uint64, cfg Config) *schedule {
	return &schedule{
		t: t, label: label, rng: rand.New(rand.NewPCG(39, seed)), budget: cfg.BlockedStreams,
		enc: New(cfg),
		dec: qstrict.New(qstrict.Settings{MaxTableCapacity: cfg.PeerMaxTableCapacity, BlockedStreams: cfg.BlockedStreams}),
		mir: &mirror{maxEntries: qspec.MaxEntries(cfg.PeerMaxTableCapacity)},
	}
}

// write encodes fields on the stream s, a new one when s is nil.
func (c *schedule) write(s *reqStream, id uint64, fields []spec.Field) {
	if s == nil {
		s = &reqStream{id: id}
		c.streams = append(c.streams, s)
	}
	section, enc := c.enc.AppendSection(nil, nil, s.id, fields)
	if len(section) > MaxSectionLen(fields) || len(enc) > MaxEncoderStreamLen(fields) {
		c.t.Fatalf("%s: section of %d octets, encoder stream %d: above MaxSectionLen %d or MaxEncoderStreamLen %d", c.label, len(section), len(enc), MaxSectionLen(fields), MaxEncoderStreamLen(fields))
	}
	if err := c.mir.written(s.id, section, enc); err != nil {
		c.t.Fatalf("%s: stream %d, section %x, encoder stream %x: %v", c.label, s.id, section, enc, err)
	}
	c.encStream = append(c.encStream, enc...)
	c.written++
	s.sections = append(s.sections, section)
	s.fields = append(s.fields, fields)
}

// step delivers something at random.
func (c *schedule) step() {
	switch r := c.rng.IntN(20); {
	case r < 5:
		c.deliverEncoder(c.rng.IntN(len(c.encStream) + 1))
	case r < 15:
		if ready := c.ready(); len(ready) > 0 {
			c.deliverSection(ready[c.rng.IntN(len(ready))])
		}
	case r < 19:
		c.decStream = append(c.decStream, c.dec.DecoderStreamOut()...)
		c.deliverDecoder(c.rng.IntN(len(c.decStream) + 1))
	default:
		if len(c.streams) > 0 {
			c.resetStream(c.streams[c.rng.IntN(len(c.streams))])
		}
	}
	c.checkBlocked()
}

// ready returns the streams with a section to deliver: streams whose
// earlier section the decoder holds wait for it (HTTP/3 reads a stream in
// order).
func (c *schedule) ready() []*reqStream {
	var out []*reqStream
	for _, s := range c.streams {
		if !s.blocked && s.sent < len(s.sections) {
			out = append(out, s)
		}
	}
	return out
}

func (c *schedule) deliverEncoder(n int) {
	if err := c.dec.EncoderStream(c.encStream[:n]); err != nil {
		c.t.Fatalf("%s: qstrict: %v", c.label, err)
	}
	c.encStream = c.encStream[n:]
	for _, u := range c.dec.Unblocked() {
		i := slices.IndexFunc(c.streams, func(s *reqStream) bool { return s.id == u.StreamID })
		c.streams[i].blocked = false
		c.check(c.streams[i], u.Fields)
	}
}

func (c *schedule) deliverSection(s *reqStream) {
	got, status, err := c.dec.DecodeSection(s.id, s.sections[s.sent])
	if err != nil {
		c.t.Fatalf("%s: qstrict: section %x: %v", c.label, s.sections[s.sent], err)
	}
	s.sent++
	if status == qstrict.Blocked {
		s.blocked = true
		return
	}
	c.check(s, got)
}

// check compares the decoded fields of s's oldest section with those
// written, the N bit as the package doc's policy puts it.
func (c *schedule) check(s *reqStream, got []spec.Field) {
	want := s.fields[0]
	s.sections, s.fields, s.sent = s.sections[1:], s.fields[1:], s.sent-1
	c.decoded++
	if len(got) != len(want) {
		c.t.Fatalf("%s: stream %d: %d fields decoded, want %d", c.label, s.id, len(got), len(want))
	}
	for i, f := range want {
		if w := (spec.Field{Name: f.Name, Value: f.Value, Sensitive: defaultNever(f)}); got[i] != w {
			c.t.Fatalf("%s: stream %d field %d decoded as %+v, want %+v", c.label, s.id, i, got[i], w)
		}
	}
}

// deliverDecoder gives the encoder the next n decoder-stream octets, and
// the mirror the whole instructions the encoder read.
func (c *schedule) deliverDecoder(n int) {
	c.partial = append(c.partial, c.decStream[:n]...)
	c.decStream = c.decStream[n:]
	read, err := c.enc.DecoderStream(c.partial)
	if err != nil {
		c.t.Fatalf("%s: DecoderStream(%x): %v", c.label, c.partial, err)
	}
	if err := c.mir.decoderStream(c.partial[:read]); err != nil {
		c.t.Fatalf("%s: decoder stream %x: %v", c.label, c.partial[:read], err)
	}
	c.partial = c.partial[read:]
	if err := c.mir.agrees(c.enc); err != nil {
		c.t.Fatalf("%s: %v", c.label, err)
	}
}

// resetStream abandons s: the decoder drops its held section and sends a
// Stream Cancellation; its undelivered sections are lost and no more are
// written on it.
func (c *schedule) resetStream(s *reqStream) {
	if err := c.dec.Cancel(s.id); err != nil {
		c.t.Fatalf("%s: qstrict: %v", c.label, err)
	}
	c.lost += len(s.sections)
	c.streams = slices.DeleteFunc(c.streams, func(o *reqStream) bool { return o == s })
}

func (c *schedule) checkBlocked() {
	n := len(c.dec.BlockedStreams())
	if uint64(n) > c.budget {
		c.t.Fatalf("%s: %d streams blocked at the decoder, SETTINGS_QPACK_BLOCKED_STREAMS %d", c.label, n, c.budget)
	}
	c.maxBlocked = max(c.maxBlocked, n)
}

// finish delivers everything left, then checks that every section was
// decoded and that the encoder learnt of every insert and acknowledgement.
func (c *schedule) finish() {
	c.deliverEncoder(len(c.encStream))
	for ready := c.ready(); len(ready) > 0; ready = c.ready() {
		c.deliverSection(ready[0])
	}
	c.decStream = append(c.decStream, c.dec.DecoderStreamOut()...)
	c.deliverDecoder(len(c.decStream))
	if c.decoded+c.lost != c.written {
		c.t.Fatalf("%s: %d sections written, %d decoded, %d lost with their streams", c.label, c.written, c.decoded, c.lost)
	}
	if len(c.partial) > 0 || c.enc.known != c.enc.table.inserted || len(c.enc.sections) > 0 {
		c.t.Fatalf("%s: at the end, %d decoder-stream octets unread, Known Received Count %d of %d inserts, %d sections unacknowledged", c.label, len(c.partial), c.enc.known, c.enc.table.inserted, len(c.enc.sections))
	}
}
