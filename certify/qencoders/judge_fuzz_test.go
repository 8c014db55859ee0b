package qencoders

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// FuzzJudge judges transcripts made of arbitrary events, as a recording
// or a hostile live peer can hand: the judge never panics, whatever the
// octets, the delivery counts or the streams say, and a finding always
// names a case of the catalogue.
func FuzzJudge(f *testing.F) {
	f.Add([]byte{0, 0x3f, 0xe1, 0x1f, 1, 0, 0x02, 0x00, 0x80, 3, 5, 4, 0})
	f.Add([]byte{1, 0, 0x00, 0x00, 0xd1, 4, 0, 2, 0x84, 0x01, 5, 0})
	f.Add([]byte{0, 0x40, 0x41, 0x61, 0x01, 0x62, 6, 9, 1, 8, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &qpack.Transcript{Name: "fuzz", Settings: qpack.Settings{MaxTableCapacity: 256, BlockedStreams: 2},
			Lists: [][]qpack.Field{{{Name: "a", Value: "b"}}, {{Name: ":method", Value: "GET", Sensitive: true}}}}
		if len(data) > 0 && data[0]&1 == 1 {
			tr.AssumedCapacity, tr.ToldAtOnce = 128, true
		}
		for len(data) >= 2 {
			kind, n := qpack.EventKind(data[0]%7), int(data[1]%16)
			data = data[2:]
			n = min(n, len(data))
			e := qpack.Event{Kind: kind, Stream: uint64(n % 3 * 4), List: n%4 - 1, Count: n * 3, Data: data[:n]}
			if kind == qpack.Told {
				e.Refused, e.Code = n%2 == 1, qpack.DecoderStreamError
			}
			tr.Events = append(tr.Events, e)
			data = data[n:]
		}
		j := judgeTranscript(tr)
		for _, f := range j.findings {
			_ = caseByID(f.caseID) // panics on a case the catalogue does not have
		}
		settleCase(&qcases[0], []*judge{j}, false, false, true, rootCases([]*judge{j}))
	})
}
