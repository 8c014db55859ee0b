package qencoders

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// decView is the decoder's end of one connection: the strict decoder,
// given the encoder's octets in the order the certifier delivered them.
// What it finds wrong is a finding of the decoder's view, a consequence
// when the encoder's view found fault before.
type decView struct {
	j *judge
	d *qstrict.Decoder
	// written is the encoder stream as written, delivered its first
	// delivered octets.
	written   []byte
	delivered int
	// queued are the sections written and not delivered, and blocked
	// those delivered and waiting for inserts, by stream, oldest first.
	queued  map[uint64][]sentSection
	blocked map[uint64][]sentSection
	broken  bool
}

// sentSection is a field section on its way to the decoder.
type sentSection struct {
	data []byte
	list int
}

func newDecView(j *judge, s qpack.Settings, assumed uint64) *decView {
	v := &decView{j: j, d: qstrict.New(qstrict.Settings{MaxTableCapacity: s.MaxTableCapacity, BlockedStreams: s.BlockedStreams}),
		queued: map[uint64][]sentSection{}, blocked: map[uint64][]sentSection{}}
	if assumed > 0 {
		// The capacity a recording's encoder took as set: the decoder
		// is given the instruction it never sent (judge.go reports it).
		capacity := encoder.AppendInteger(nil, 0x20, 5, assumed)
		if err := v.d.EncoderStream(capacity); err != nil {
			v.fail(0, err)
		}
	}
	return v
}

func (v *decView) wrote(data []byte) { v.written = append(v.written, data...) }

func (v *decView) queue(stream uint64, data []byte, list int) {
	v.queued[stream] = append(v.queued[stream], sentSection{data, list})
}

// deliverStream hands the decoder the next n octets of the encoder
// stream.
func (v *decView) deliverStream(ev, n int) {
	if v.broken {
		return
	}
	end := min(v.delivered+n, len(v.written))
	chunk := v.written[v.delivered:end]
	v.delivered = end
	if err := v.d.EncoderStream(chunk); err != nil {
		v.fail(ev, err)
		return
	}
	for _, u := range v.d.Unblocked() {
		q := v.blocked[u.StreamID]
		if len(q) == 0 {
			continue
		}
		v.blocked[u.StreamID] = q[1:]
		v.compare(ev, u.StreamID, u.Fields, q[0].list)
	}
}

// deliverSection hands the decoder the oldest undelivered section of
// stream.
func (v *decView) deliverSection(ev int, stream uint64) {
	q := v.queued[stream]
	if len(q) == 0 {
		return
	}
	s := q[0]
	v.queued[stream] = q[1:]
	if v.broken {
		v.j.notJudged++
		return
	}
	fields, status, err := v.d.DecodeSection(stream, s.data)
	switch {
	case err != nil:
		v.fail(ev, err)
	case status == qstrict.Blocked:
		v.blocked[stream] = append(v.blocked[stream], s)
	default:
		v.compare(ev, stream, fields, s.list)
	}
}

// reset abandons stream, as a stream reset does.
func (v *decView) reset(ev int, stream uint64) {
	delete(v.queued, stream)
	delete(v.blocked, stream)
	if !v.broken {
		if err := v.d.Cancel(stream); err != nil {
			v.fail(ev, err)
		}
	}
}

// compare checks a decoded section against the header list sent.
func (v *decView) compare(ev int, stream uint64, got []qpack.Field, list int) {
	want := v.j.list(list)
	if want == nil {
		return
	}
	v.j.count(cOrder)
	if d := difference(got, want); d != "" {
		v.j.find(ev, cOrder, true, fmt.Sprintf("field section of stream %d decodes to a different header list: %s", stream, d))
	}
}

// difference describes the first difference between two header lists,
// or returns "".
func difference(got, want []qpack.Field) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i].Name != want[i].Name || got[i].Value != want[i].Value {
			return fmt.Sprintf("field %d is %s, %s was sent", i+1, quote(got[i]), quote(want[i]))
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d fields decoded, %d sent", len(got), len(want))
	}
	return ""
}

func quote(f qpack.Field) string {
	const most = 60
	v := f.Value
	if len(v) > most {
		v = v[:most] + "..."
	}
	return fmt.Sprintf("%q: %q", f.Name, v)
}

// fail files the strict decoder's error under the rule it names.
func (v *decView) fail(ev int, err error) {
	v.broken = true
	for _, q := range v.blocked {
		v.j.notJudged += len(q)
	}
	var qe *qstrict.Error
	if !errors.As(err, &qe) {
		v.j.find(ev, cOrder, true, "strict decoder: "+err.Error())
		return
	}
	v.j.find(ev, strictCase(qe, v.j.t.Settings), true, "strict decoder: "+qe.Error())
}

// strictCase is the qenc/ case whose rule a strict decoder's error says
// the encoder broke.
func strictCase(e *qstrict.Error, s qpack.Settings) string {
	onStream := e.Stream == "encoder stream"
	switch {
	case strings.Contains(e.Reason, "integer"):
		return cInteger
	case e.Section == "§4.1.2":
		return cHuffman
	case e.Section == "§4.3.1":
		return cCapacity
	case e.Section == "§3.2.2" || e.Section == "§3.2.3":
		if s.MaxTableCapacity == 0 {
			return cZeroCapacity
		}
		return cInsertSize
	case e.Section == "§3.1":
		return cStatic
	case e.Section == "§2.2.1":
		return cBlocked
	case e.Section == "§4.5.1.1":
		return cRIC
	case e.Section == "§4.5.1.2":
		return cBase
	case onStream:
		return cInstruction
	case e.Section == "§2.2.3":
		return cReference
	}
	return cOrder
}
