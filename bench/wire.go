package bench

import (
	"bytes"

	"golang.org/x/net/http2/hpack"
)

// wireRecording is a workload's header blocks as x/net's Encoder wrote
// them, a fresh Encoder per connection, recorded once, up front: the input
// of the proxy-*, decode-* and hop-* rows. x/net's Encoder records them
// because it is in every build (the rows exist without the nghttp2 tag and
// decode the same octets in both builds) and is what Go proxies put on the
// wire; it indexes every field but sensitive ones and codes a string with
// Huffman when that is shorter, so decoding it takes literals with
// incremental indexing, Huffman strings, evictions and indexed fields. The
// same recording is decoded by every implementation of a row.
type wireRecording struct {
	w       *Workload
	conns   [][][]byte // conns[c][b]: block b of connection c
	largest int        // the largest block's MaxFieldLen bound
}

// recordWire encodes w with x/net's Encoder, one per connection.
func recordWire(w *Workload) wireRecording {
	rec := wireRecording{w: w}
	for _, c := range w.Conns {
		var buf bytes.Buffer
		enc := hpack.NewEncoder(&buf)
		var blocks [][]byte
		for _, b := range c {
			buf.Reset()
			for _, f := range b {
				// WriteField into a bytes.Buffer does not fail.
				_ = enc.WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
			}
			blocks = append(blocks, bytes.Clone(buf.Bytes()))
			rec.largest = max(rec.largest, blockLen(b))
		}
		rec.conns = append(rec.conns, blocks)
	}
	return rec
}

// tally is what a decoding pass was handed: fields, octets of their names
// and values, fields that arrived never indexed and, for a hop, the wire
// octets it wrote again. Every implementation of a row must hand over the
// same, whatever form it hands it in.
type tally struct {
	fields, octets, sensitive, wire int64
}

// add counts one decoded field.
func (t *tally) add(nameLen, valueLen int, sensitive bool) {
	t.fields++
	t.octets += int64(nameLen + valueLen)
	if sensitive {
		t.sensitive++
	}
}

// decodeRun is one implementation's decoding of a recording: pass decodes
// it n times and returns the tally of the n passes.
type decodeRun struct {
	impl  string
	pass  func(n int) (tally, error)
	close func() // nil, or what releases memory outside the Go heap
}

// pairedOps returns runs as the operations of a paired workload.
func pairedOps(runs []decodeRun) []PairedOp {
	ops := make([]PairedOp, len(runs))
	for i, r := range runs {
		ops[i] = PairedOp{Impl: r.impl, Close: r.close, Op: func(n int) error {
			_, err := r.pass(n)
			return err
		}}
	}
	return ops
}
