package qdecoders

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// feature is what a story's steps use of RFC 9204, so that a divergence
// is filed under the first failed case whose feature the steps that led
// to it use (the root cause), not under every case whose stories meet it.
type feature uint32

const (
	fStatic    feature = 1 << iota // a static index or name index in a section
	fLiteral                       // a literal name in a section
	fHuffman                       // a Huffman-coded string
	fInsert                        // an insertion with a static or literal name
	fDynName                       // an insertion named after a dynamic entry
	fDynamic                       // a relative dynamic reference in a section
	fPostBase                      // a post-base reference
	fCapacity                      // a Set Dynamic Table Capacity
	fCut                           // an encoder-stream step ending inside an instruction
	fDuplicate                     // a Duplicate
	fBlocked                       // a section that blocks
	fWrap                          // an encoded Required Insert Count that wrapped
	fAnyBase                       // a section with no dynamic reference and a positive Delta Base
	fCancel                        // a stream reset
)

// expectation is what the strict decoder did with a step.
type expectation struct {
	// refused is the error code of the strict decoder's refusal, "" when
	// it took the step.
	refused string
	// blocked, for a section, says it waits for inserts; ric is its
	// Required Insert Count and fields what it decoded to.
	blocked bool
	ric     uint64
	fields  []Field
	// unblocked, for an encoder-stream step, are the sections it let
	// decode, in order.
	unblocked []qpack.Decoded
	// out is what the strict decoder wrote on the decoder stream, and
	// inserts the insertions it had received after the step.
	out     decoderOut
	inserts uint64
	ev      Evidence
}

// prepare has the strict decoder play the story and records what each
// step must give, and what each step uses. A refused step must be the
// story's last.
func (s *story) prepare() error {
	d := qstrict.New(qstrict.Settings(s.settings))
	var tail []byte // encoder-stream octets of an instruction not yet whole
	for i := range s.steps {
		st := &s.steps[i]
		x := &st.expect
		var err error
		switch st.kind {
		case encoderStep:
			var cut bool
			completes := len(tail) > 0
			st.feats, x.ev, tail, cut = encoderFeatures(tail, st.data)
			if cut || completes {
				st.feats |= fCut
			}
			evicted := evictedBy(d)
			err = d.EncoderStream(st.data)
			x.ev.Evictions = int(evictedBy(d) - evicted)
			for _, u := range d.Unblocked() {
				x.unblocked = append(x.unblocked, qpack.Decoded{Stream: u.StreamID, Fields: u.Fields})
			}
		case sectionStep:
			st.feats, x.ev, x.ric = sectionFeatures(st.data, s.settings, d.InsertCount())
			var status qstrict.Status
			x.fields, status, err = d.DecodeSection(st.stream, st.data)
			if x.blocked = status == qstrict.Blocked; x.blocked {
				st.feats |= fBlocked
			}
		case cancelStep:
			st.feats = fCancel
			err = d.Cancel(st.stream)
		}
		if err != nil {
			var qe *qstrict.Error
			if !errors.As(err, &qe) {
				return fmt.Errorf("qdecoders: story %s, step %d: the strict decoder: %w", s.name, i, err)
			}
			if i != len(s.steps)-1 {
				return fmt.Errorf("qdecoders: story %s: step %d is refused (%v) but not the last", s.name, i, err)
			}
			x.refused = qe.Code
		}
		x.out, _, _, err = readDecoderStream(nil, d.DecoderStreamOut())
		if err != nil {
			return fmt.Errorf("qdecoders: story %s, step %d: the strict decoder's decoder stream: %w", s.name, i, err)
		}
		x.inserts = d.InsertCount()
	}
	return nil
}

// evictedBy returns the entries d has evicted so far.
func evictedBy(d *qstrict.Decoder) uint64 { return d.InsertCount() - uint64(len(d.Table())) }

// encoderFeatures walks the encoder-stream octets tail+data and returns
// what they use, the evidence, the octets of an instruction not yet whole
// and whether there is one. A malformed instruction ends the walk: the
// strict decoder refuses it.
func encoderFeatures(tail, data []byte) (feature, Evidence, []byte, bool) {
	buf := append(append([]byte(nil), tail...), data...)
	var f feature
	// A step of the encoder stream counts as a block, as a section
	// does: Evidence's blocks are the steps judged.
	ev := Evidence{Blocks: 1}
	p := 0
	for p < len(buf) {
		in, next, err := qspec.ReadEncoderInstruction(buf, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			return f, ev, buf[p:], true
		}
		if err != nil {
			return f, ev, nil, false
		}
		switch {
		case in.Kind == qspec.SetCapacity:
			f |= fCapacity
			ev.SizeUpdates++
		case in.Kind == qspec.Duplicate:
			f |= fDuplicate
			ev.Insertions++
		case in.Kind == qspec.InsertNameRef && !in.Static:
			f |= fDynName
			ev.Insertions++
		default:
			f |= fInsert
			ev.Insertions++
		}
		for _, s := range []qspec.String{in.Name, in.FieldValue} {
			if s.Huffman {
				f |= fHuffman
				ev.HuffmanStrings++
			}
		}
		p = next
	}
	return f, ev, nil, false
}

// sectionFeatures walks a section and returns what it uses, the evidence
// and its Required Insert Count (0 when the prefix is invalid) for a
// decoder that received inserts insertions.
func sectionFeatures(section []byte, set qpack.Settings, inserts uint64) (feature, Evidence, uint64) {
	var f feature
	ev := Evidence{Blocks: 1}
	pf, lines, _ := qspec.WalkSection(section, len(section))
	maxEntries := qspec.MaxEntries(set.MaxTableCapacity)
	ric, err := pf.RequiredInsertCount(maxEntries, inserts)
	if err != nil {
		ric = 0
	}
	if ric > 0 && pf.EncodedInsertCount != ric+1 {
		f |= fWrap
	}
	if ric == 0 && !pf.Sign && pf.DeltaBase != 0 {
		f |= fAnyBase
	}
	for _, l := range lines {
		ev.Representations++
		switch {
		case l.Kind == qspec.LiteralName:
			f |= fLiteral
		case l.Kind == qspec.IndexedPostBase || l.Kind == qspec.LiteralPostBaseRef:
			f |= fPostBase
		case l.Static:
			f |= fStatic
		default:
			f |= fDynamic
		}
		for _, s := range []qspec.String{l.Name, l.Value} {
			if s.Huffman {
				f |= fHuffman
				ev.HuffmanStrings++
			}
		}
		if l.NeverIndexed {
			ev.SensitiveFields++
		}
	}
	return f, ev, ric
}
