//go:build nghttp2

package bench

import "github.com/hpackcert/hpackcert/internal/libnghttp2"

func init() {
	newNghttp2Decoding = func(rec wireRecording, hop bool) (decodeRun, error) {
		b, err := newInflateBatch(rec)
		if err != nil {
			return decodeRun{}, err
		}
		loop := b.Passes
		if hop {
			loop = b.Hops
		}
		pass := func(n int) (tally, error) {
			t, err := loop(n)
			return tally{fields: t.Fields, octets: t.Octets, sensitive: t.Sensitive, wire: t.Wire}, err
		}
		return decodeRun{impl: "nghttp2", pass: pass, close: b.Close}, nil
	}
	nghttp2DecoderHeld = func(rec wireRecording, conns int) (idle, used int64, err error) {
		b, err := newInflateBatch(rec)
		if err != nil {
			return 0, 0, err
		}
		defer b.Close()
		return b.HeldBytes(conns)
	}
}

// newInflateBatch copies rec into C memory for libnghttp2's inflater,
// with the room a hop needs for its largest block, as its workload says.
func newInflateBatch(rec wireRecording) (*libnghttp2.InflateBatch, error) {
	var room libnghttp2.Room
	for _, c := range rec.w.Conns {
		for _, b := range c {
			room.Fields = max(room.Fields, len(b))
			room.Octets = max(room.Octets, b.rawBytes())
			room.Out = max(room.Out, libnghttp2.MaxBlockLen(b))
		}
	}
	return libnghttp2.NewInflateBatch(rec.conns, room)
}
