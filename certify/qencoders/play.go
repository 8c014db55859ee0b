package qencoders

import (
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// player plays one scenario against an encoder, as the decoder of the
// connection: the strict decoder decodes what the certifier delivers,
// and what it owes on the decoder stream is told to the encoder. Every
// step is logged in the transcript, which is judged afterwards, whoever
// made it.
type player struct {
	sc  *scenario
	enc qpack.Encoder
	d   *qstrict.Decoder
	t   *qpack.Transcript
	// written is the encoder stream as written, delivered how much of
	// it the decoder has.
	written   []byte
	delivered int
	owed      []byte
	closed    bool
}

// play plays sc on a fresh connection of target. The error, when set, is
// the target's breakdown; the transcript then ends where it broke down.
func play(target qpack.EncoderTarget, sc *scenario) (*qpack.Transcript, error) {
	enc, err := target.NewEncoder(sc.settings)
	if err != nil {
		return nil, fmt.Errorf("opening a connection (%s): %w", sc.name, err)
	}
	p := &player{sc: sc, enc: enc,
		d: qstrict.New(qstrict.Settings{MaxTableCapacity: sc.settings.MaxTableCapacity, BlockedStreams: sc.settings.BlockedStreams}),
		t: &qpack.Transcript{Name: sc.name, Settings: sc.settings, Lists: sc.lists}}
	since := 0
	for i, list := range sc.lists {
		stream := uint64(4 * i)
		section, es, err := enc.EncodeSection(stream, list)
		if err != nil {
			return p.t, fmt.Errorf("encoding header list %d on stream %d (%s): %w", i+1, stream, sc.name, err)
		}
		p.wrote(es)
		p.log(qpack.Event{Kind: qpack.Section, Stream: stream, Data: section, List: i})
		switch {
		case i == sc.reset:
			p.log(qpack.Event{Kind: qpack.Reset, Stream: stream})
			_ = p.d.Cancel(stream) // an error is the judge's to find
		case sc.hold == 0:
			p.deliverStream()
			p.deliverSection(stream, section)
		default:
			p.deliverSection(stream, section)
			if (i+1)%sc.hold == 0 {
				p.deliverStream()
			}
		}
		if since++; since > sc.ackDelay {
			since = 0
			if err := p.tell(); err != nil {
				return p.t, err
			}
		}
		if p.d.Err() != nil || p.closed {
			return p.t, nil // the connection is over: the judge finds why
		}
	}
	p.deliverStream()
	if err := p.tell(); err != nil || p.closed || p.d.Err() != nil {
		return p.t, err
	}
	if sc.bogus != nil {
		return p.t, p.told(sc.bogus(p.d))
	}
	return p.t, nil
}

func (p *player) log(e qpack.Event) { p.t.Events = append(p.t.Events, e) }

func (p *player) wrote(es []byte) {
	if len(es) > 0 {
		p.written = append(p.written, es...)
		p.log(qpack.Event{Kind: qpack.Wrote, Data: es})
	}
}

// deliverStream delivers what the decoder has not had of the encoder
// stream, in two pieces, so that an instruction is cut across them.
func (p *player) deliverStream() {
	rest := len(p.written) - p.delivered
	if rest == 0 || p.d.Err() != nil {
		return
	}
	for _, n := range []int{rest / 2, rest - rest/2} {
		if n == 0 {
			continue
		}
		p.log(qpack.Event{Kind: qpack.DeliverEncoderStream, Count: n})
		if p.d.EncoderStream(p.written[p.delivered:p.delivered+n]) != nil {
			p.delivered = len(p.written)
			return
		}
		p.delivered += n
	}
	p.d.Unblocked()
}

func (p *player) deliverSection(stream uint64, section []byte) {
	if p.d.Err() != nil {
		return
	}
	p.log(qpack.Event{Kind: qpack.DeliverSection, Stream: stream})
	_, _, _ = p.d.DecodeSection(stream, section) // what it decodes is the judge's to compare
}

// tell hands the encoder what the decoder owes it on the decoder stream.
func (p *player) tell() error {
	if p.d.Err() != nil {
		return nil
	}
	p.owed = append(p.owed, p.d.DecoderStreamOut()...)
	if len(p.owed) == 0 {
		return nil
	}
	owed := p.owed
	p.owed = nil
	return p.told(owed)
}

// told hands the encoder decoder-stream octets and logs its answer.
func (p *player) told(data []byte) error {
	es, err := p.enc.DecoderStream(data)
	ce := qpack.AsConnectionError(err)
	if err != nil && ce == nil {
		return fmt.Errorf("handing the encoder decoder-stream octets %x (%s): %w", data, p.sc.name, err)
	}
	e := qpack.Event{Kind: qpack.Told, Data: data, Refused: ce != nil}
	if ce != nil {
		e.Code = ce.Code
		p.closed = true
	}
	p.log(e)
	p.wrote(es)
	return nil
}
