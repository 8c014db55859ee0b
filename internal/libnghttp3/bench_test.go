//go:build nghttp3

package libnghttp3

import (
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/qencoder"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// qpackConn is one connection of an encoder under benchmark: it encodes a
// section and is told the decoder acknowledged it.
type qpackConn interface {
	encode(stream uint64, list []spec.Field) (section, encoderStream []byte)
	acknowledge(ack []byte)
}

// BenchmarkEncodeQIF encodes all the embedded QIF traffic once per pass,
// one connection per QIF file (table 4096, 100 blocked streams), every
// section that references the dynamic table acknowledged by a Section
// Acknowledgment right after it is written: libnghttp3's encoder, then the
// reference encoder (qencoder) under the same schedule. With ack=all the
// decoder also sends the Insert Count Increment a decoder owes for the
// inserts no acknowledgment covered (RFC 9204 §4.4.3). Both encoders get
// the same 100 blocked streams, so both may reference entries not yet
// acknowledged. octets/pass counts the sections and the encoder stream.
func BenchmarkEncodeQIF(b *testing.B) {
	files := traffic(b)
	raw := 0
	for _, f := range files {
		for _, l := range f.HeaderLists {
			for _, fl := range l {
				raw += len(fl.Name) + len(fl.Value)
			}
		}
	}
	for _, increments := range []bool{false, true} {
		ack := "ack=section"
		if increments {
			ack = "ack=all"
		}
		b.Run("encoder=nghttp3/"+ack, func(b *testing.B) {
			benchEncodeQIF(b, files, raw, increments, func() (qpackConn, func()) {
				e, err := NewEncoder(4096, 100)
				if err != nil {
					b.Fatal(err)
				}
				return nghttp3Conn{b, e}, func() { e.Close() }
			})
		})
		b.Run("encoder=reference/"+ack, func(b *testing.B) {
			benchEncodeQIF(b, files, raw, increments, func() (qpackConn, func()) {
				e := qencoder.New(qencoder.Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096, BlockedStreams: 100})
				return &refConn{b: b, e: e}, func() {}
			})
		})
	}
}

func benchEncodeQIF(b *testing.B, files []qif.File, raw int, increments bool, open func() (qpackConn, func())) {
	b.SetBytes(int64(raw))
	b.ReportAllocs()
	octets := 0
	var ds []byte
	for b.Loop() {
		octets = 0
		for _, f := range files {
			conn, done := open()
			var inserts, known uint64
			for i, list := range f.HeaderLists {
				stream := uint64(4 * i)
				section, es := conn.encode(stream, list)
				octets += len(section) + len(es)
				inserts += countInserts(b, es)
				ds = appendAcks(b, ds[:0], stream, section, inserts, &known, increments)
				if len(ds) > 0 {
					conn.acknowledge(ds)
				}
			}
			done()
		}
	}
	b.ReportMetric(float64(octets), "octets/pass")
}

// countInserts returns the entries the instructions of es insert.
func countInserts(tb testing.TB, es []byte) uint64 {
	n := uint64(0)
	for p := 0; p < len(es); {
		in, next, err := qspec.ReadEncoderInstruction(es, p)
		if err != nil {
			tb.Fatalf("encoder stream at %d: %v", p, err)
		}
		if in.Kind != qspec.SetCapacity {
			n++
		}
		p = next
	}
	return n
}

// appendAcks appends what a decoder of a 4096-octet table writes once it
// has decoded section and received inserts entries: the section's Section
// Acknowledgment when it references the table and, with increments, an
// Insert Count Increment up to inserts. known is the Known Received Count
// (§2.1.4), brought up to date.
func appendAcks(tb testing.TB, ds []byte, stream uint64, section []byte, inserts uint64, known *uint64, increments bool) []byte {
	pf, _, err := qspec.ReadPrefix(section)
	if err != nil {
		tb.Fatalf("stream %d: section prefix: %v", stream, err)
	}
	if pf.EncodedInsertCount != 0 {
		ric, err := pf.RequiredInsertCount(qspec.MaxEntries(4096), inserts)
		if err != nil {
			tb.Fatalf("stream %d: %v", stream, err)
		}
		ds = encoder.AppendInteger(ds, 0x80, 7, stream)
		*known = max(*known, ric)
	}
	if increments && inserts > *known {
		ds = encoder.AppendInteger(ds, 0x00, 6, inserts-*known)
		*known = inserts
	}
	return ds
}

type nghttp3Conn struct {
	b *testing.B
	e *Encoder
}

func (c nghttp3Conn) encode(stream uint64, list []spec.Field) ([]byte, []byte) {
	section, es, err := c.e.Encode(stream, list)
	if err != nil {
		c.b.Fatal(err)
	}
	return section, es
}

func (c nghttp3Conn) acknowledge(ack []byte) {
	if err := c.e.ReadDecoder(ack); err != nil {
		c.b.Fatal(err)
	}
}

type refConn struct {
	b               *testing.B
	e               *qencoder.Encoder
	section, stream []byte // reused: the reference appends
}

func (c *refConn) encode(stream uint64, list []spec.Field) ([]byte, []byte) {
	c.section, c.stream = c.e.AppendSection(c.section[:0], c.stream[:0], stream, list)
	return c.section, c.stream
}

func (c *refConn) acknowledge(ack []byte) {
	if _, err := c.e.DecoderStream(ack); err != nil {
		c.b.Fatal(err)
	}
}
