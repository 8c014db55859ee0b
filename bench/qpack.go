package bench

import (
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/qencoder"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// QPACK workload settings: what the decoder announces on every connection
// of the qpack-encode row.
const (
	qpackTableCapacity  = 4096
	qpackBlockedStreams = 100
)

// newNghttp3QPACKEncode, set under the nghttp3 build tag
// (qpacknghttp3.go), returns libnghttp3's operation of the qpack-encode
// row over conns.
var newNghttp3QPACKEncode func(conns [][][]spec.Field) (PairedOp, error)

// QPACKWorkloads returns the qpack-encode row of issue 39 when all is set
// or names holds it: the QIF traffic of vectors/qif encoded once per pass,
// one connection per QIF file (table 4096, 100 blocked streams), each
// section that references the dynamic table acknowledged by a Section
// Acknowledgment right after it is written; the reference encoder
// (qencoder) first, then libnghttp3's under the nghttp3 build tag.
func QPACKWorkloads(names []string, all bool) ([]PairedWorkload, error) {
	if !all && !slices.Contains(names, "qpack-encode") {
		return nil, nil
	}
	files, err := qif.Traffic()
	if err != nil {
		return nil, err
	}
	conns := make([][][]spec.Field, len(files))
	for i, f := range files {
		conns[i] = f.HeaderLists
	}
	w := PairedWorkload{Name: "qpack-encode", Unit: "pass", Ops: []PairedOp{{Impl: "ours", Op: qpackOursPasses(conns)}}}
	if newNghttp3QPACKEncode != nil {
		op, err := newNghttp3QPACKEncode(conns)
		if err != nil {
			return nil, err
		}
		w.Ops = append(w.Ops, op)
	}
	return []PairedWorkload{w}, nil
}

// qpackOursPasses returns the reference encoder's operation: n passes over
// conns, each connection on one encoder Reset to the state of a new one,
// as the HPACK rows take theirs from an encoder.Pool: a connection's
// memory is reused, as libnghttp3's encoder, made and freed per
// connection, reuses the blocks malloc hands back.
func qpackOursPasses(conns [][][]spec.Field) func(n int) error {
	var section, es, ack []byte
	e := qencoder.New(qencoder.Config{TableCapacity: qpackTableCapacity, PeerMaxTableCapacity: qpackTableCapacity, BlockedStreams: qpackBlockedStreams})
	return func(n int) error {
		for range n {
			for _, lists := range conns {
				e.Reset()
				for i, list := range lists {
					stream := uint64(4 * i)
					section, es = e.AppendSection(section[:0], es[:0], stream, list)
					// A Required Insert Count of 0 is the one prefix
					// whose first octet is 0 (RFC 9204 §4.5.1.1).
					if section[0] == 0 {
						continue
					}
					ack = encoder.AppendInteger(ack[:0], 0x80, 7, stream)
					if _, err := e.DecoderStream(ack); err != nil {
						return fmt.Errorf("stream %d: %w", stream, err)
					}
				}
			}
		}
		return nil
	}
}
