package bench

import (
	"bytes"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
)

// The decode-* rows (issue 38) time three decoders on one recording of a
// workload (recordWire): an operation decodes every block of it, each
// connection on a fresh decoding context with the default 4096-octet
// table. What each side hands its caller differs, as their APIs do, and
// each is timed producing what its users get:
//
//   - ours: decoder.Decode, whose emit gets []byte views valid until it
//     returns; emit counts the field and its octets (tally.add), so the
//     views are read and nothing is optimised away, and copies nothing.
//   - xnet: x/net's Decoder.DecodeFull, a []HeaderField of new strings
//     per block, which the pass then counts the same way.
//   - nghttp2: libnghttp2's inflater, nghttp2_hd_inflate_hd2 field after
//     field, in a loop inside C (libnghttp2.InflateBatch), counting each
//     nghttp2_nv it hands out (views into the inflater's buffers).
//
// A fresh context per connection is what each API offers: x/net a new
// Decoder (hpack.NewDecoder), nghttp2 a new inflater (new2 and del, it
// has no reset), ours the decoder of the previous connection Reset
// (decoder.New allocates its memory for good: about 62 KB with the
// defaults). "ours-new" is ours with a decoder.New per connection
// instead: what creating a decoder costs.
//
// The hop-* rows are a proxy hop with one implementation on both halves:
// ours decodes with decoder.Decode and its emit appends the views at once
// with the reference encoder's AppendField into a reused block (the
// encoder Reset per connection); x/net decodes with DecodeFull and writes
// the fields with its Encoder into a reused bytes.Buffer; nghttp2 copies
// each block's fields out of the inflater (its views end at its next
// call) and deflates them with nghttp2_hd_deflate_hd, a new deflater per
// connection, in the same C loop. The proxy-* rows (proxyhop.go) instead
// decode with x/net for every encoder.

// oursDecoding runs the reference decoder over a recording, and for a hop
// encodes every field again with the reference encoder.
type oursDecoding struct {
	rec   wireRecording
	fresh bool // a decoder.New per connection instead of a Reset
	dec   *decoder.Decoder
	enc   *encoder.Encoder // nil unless a hop
	dst   []byte
	t     tally
	emit  func(name, value []byte, sensitive bool) error
}

// newOursDecoding returns ours' run over rec: "ours", or with fresh
// "ours-new"; with hop, a proxy hop.
func newOursDecoding(rec wireRecording, fresh, hop bool) decodeRun {
	r := &oursDecoding{rec: rec, fresh: fresh, dec: decoder.New(decoder.Config{})}
	r.emit = r.count
	if hop {
		r.enc = encoder.New(encoder.Config{})
		r.dst = make([]byte, 0, rec.largest)
		r.emit = r.forward
	}
	name := "ours"
	if fresh {
		name = "ours-new"
	}
	return decodeRun{impl: name, pass: r.passes}
}

func (r *oursDecoding) count(name, value []byte, sensitive bool) error {
	r.t.add(len(name), len(value), sensitive)
	return nil
}

func (r *oursDecoding) forward(name, value []byte, sensitive bool) error {
	r.t.add(len(name), len(value), sensitive)
	r.dst = r.enc.AppendField(r.dst, name, value, sensitive)
	return nil
}

func (r *oursDecoding) passes(n int) (tally, error) {
	r.t = tally{}
	for range n {
		for c, blocks := range r.rec.conns {
			if r.fresh {
				r.dec = decoder.New(decoder.Config{})
			} else {
				r.dec.Reset()
			}
			if r.enc != nil {
				r.enc.Reset()
			}
			for b, block := range blocks {
				r.dst = r.dst[:0]
				if err := r.dec.Decode(block, r.emit); err != nil {
					return r.t, fmt.Errorf("ours: connection %d block %d: %w", c, b, err)
				}
				r.t.wire += int64(len(r.dst))
			}
		}
	}
	return r.t, nil
}

// newXNetDecoding returns x/net's run over rec: DecodeFull, and with hop
// its Encoder writing every field again.
func newXNetDecoding(rec wireRecording, hop bool) decodeRun {
	var buf bytes.Buffer
	pass := func(n int) (tally, error) {
		var t tally
		for range n {
			for c, blocks := range rec.conns {
				dec := hpack.NewDecoder(4096, nil)
				var enc *hpack.Encoder
				if hop {
					enc = hpack.NewEncoder(&buf)
				}
				for b, block := range blocks {
					fields, err := dec.DecodeFull(block)
					if err != nil {
						return t, fmt.Errorf("xnet: connection %d block %d: %w", c, b, err)
					}
					buf.Reset()
					for _, f := range fields {
						t.add(len(f.Name), len(f.Value), f.Sensitive)
						if enc != nil {
							if err := enc.WriteField(f); err != nil {
								return t, err
							}
						}
					}
					t.wire += int64(buf.Len())
				}
			}
		}
		return t, nil
	}
	return decodeRun{impl: "xnet", pass: pass}
}

// newNghttp2Decoding is set by the nghttp2 build (nghttp2decode.go): it
// returns libnghttp2's run over rec, a hop with hop.
var newNghttp2Decoding func(rec wireRecording, hop bool) (decodeRun, error)

// decodeRuns returns the runs of a decode-* row over rec (ours, ours-new,
// xnet and, built with the nghttp2 tag, nghttp2), or with hop of a hop-*
// row (ours, xnet, nghttp2).
func decodeRuns(rec wireRecording, hop bool) ([]decodeRun, error) {
	runs := []decodeRun{newOursDecoding(rec, false, hop)}
	if !hop {
		runs = append(runs, newOursDecoding(rec, true, false))
	}
	runs = append(runs, newXNetDecoding(rec, hop))
	if newNghttp2Decoding != nil {
		r, err := newNghttp2Decoding(rec, hop)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}
