package qdecoders

import (
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/engine"
)

// outcome is what one story showed of the decoder.
type outcome struct {
	story *story
	// instances counts the instances of the case's rule judged.
	instances int
	ev        Evidence
	// div is the first divergence, nil when there was none.
	div *divergence
	// unsupported says why the story could not be played.
	unsupported string
	// broke is set when the story ended in the target's breakdown.
	broke bool
	// detail is a measurement (qdec/7.3/1).
	detail string
}

// divergence is a step where the decoder did not do what the strict
// decoder did.
type divergence struct {
	story string
	step  int
	// feats is what the story's steps used up to and including it.
	feats     feature
	what      string
	repro     string
	notJudged int // steps of the story left unjudged after it
	// decoding is set when a valid step was decoded wrongly or refused,
	// rather than the case's own rule broken.
	decoding bool
	// ev is what the step held.
	ev Evidence
}

// bombAllocation is what a decoder may allocate refusing qdec/7.3/1's
// bomb: the 80 MB list it must not build is far above it.
const bombAllocation = 64 << 20

// play runs one story on a fresh connection of the target and judges it
// by case c.
func (r *runner) play(c *qCase, s *story) outcome {
	out := outcome{story: s}
	if r.breakdown != "" {
		out.broke = true
		return out
	}
	if r.lacks.DynamicTable && s.needsTable() {
		out.unsupported = "the stories need a dynamic table, which the decoder declares it lacks (\"" + lackDynamicTable + "\")"
		return out
	}
	d, err := newDecoder(r.target, s.settings)
	if err != nil {
		r.broke(nil, s, 0, "opening a connection: "+err.Error())
		out.broke = true
		return out
	}
	var before runtime.MemStats
	measure := c.kind == kBomb && r.kind == "in-process"
	if measure {
		runtime.GC()
		runtime.ReadMemStats(&before)
	}
	var (
		feats   feature
		pending []byte // decoder-stream octets of an instruction not yet whole
		known   knownCount
		unread  bool // the decoder stream is no longer read (an increment of 0 outside qdec/4.4.3/1)
	)
	for i := range s.steps {
		st := &s.steps[i]
		x := &st.expect
		feats |= st.feats
		got, ds, err := call(d, st)
		if err != nil && qpack.AsConnectionError(err) == nil {
			r.broke(d, s, i, err.Error())
			out.broke = true
			return out
		}
		diverge := func(what string, decoding bool) outcome {
			out.div = &divergence{story: s.name, step: i, feats: feats, what: what, repro: reproText(s, i, what),
				notJudged: len(s.steps) - 1 - i, decoding: decoding, ev: x.ev}
			return out
		}
		if x.refused != "" {
			ce := qpack.AsConnectionError(err)
			switch {
			case ce == nil && c.kind == kBomb:
				return diverge(fmt.Sprintf("accepted %s, a header list over SETTINGS_MAX_FIELD_SECTION_SIZE %d", describeStep(st), s.settings.MaxFieldSectionSize), false)
			case ce == nil:
				return diverge(fmt.Sprintf("accepted %s, which must be refused with %s", describeStep(st), x.refused), false)
			case c.kind == kBomb:
				out.detail = "refused with " + codeOf(ce)
				if measure {
					var after runtime.MemStats
					runtime.ReadMemStats(&after)
					alloc := after.TotalAlloc - before.TotalAlloc
					out.detail += fmt.Sprintf(", allocating %d KiB", alloc>>10)
					if alloc > bombAllocation {
						return diverge(fmt.Sprintf("refused %s only after allocating %d MiB: it built the header list first", describeStep(st), alloc>>20), false)
					}
				}
			case ce.Code == "":
				return diverge(fmt.Sprintf("refused %s without an error code (%s); RFC 9204 makes it a connection error of type %s", describeStep(st), ce.Reason, x.refused), false)
			case ce.Code != x.refused:
				return diverge(fmt.Sprintf("refused %s with %s, not %s (%s)", describeStep(st), ce.Code, x.refused, ce.Reason), false)
			}
			out.instances++
			out.ev.Add(x.ev)
			return out
		}
		if err != nil {
			return diverge(fmt.Sprintf("refused a valid step, %s: %v", describeStep(st), err), true)
		}
		if what := compareDecoded(st, got, c.kind == kNever); what != "" {
			return diverge(what, true)
		}
		if st.kind == sectionStep {
			known.section(st.stream, x.ric)
		}
		if !unread {
			o, rest, badIncrement, err := readDecoderStream(pending, ds)
			switch {
			case badIncrement && c.kind == kIncValid:
				return diverge("wrote an Insert Count Increment of 0 on the decoder stream after "+describeStep(st), false)
			case badIncrement:
				unread = true
			case err != nil:
				r.broke(d, s, i, "malformed decoder-stream octets: "+err.Error())
				out.broke = true
				return out
			}
			pending = rest
			known.apply(o)
			if what := r.judgeStream(c, st, o, known, &out); what != "" {
				return diverge(what, false)
			}
		}
		out.ev.Add(x.ev)
		out.instances += decodedInstances(c, st, feats)
	}
	if c.kind == kIncrements && len(s.steps) > 0 {
		inserts := s.steps[len(s.steps)-1].expect.inserts
		if inserts > 0 && !unread {
			if known.count < inserts {
				last := len(s.steps) - 1
				what := fmt.Sprintf("the Known Received Count is %d after the story, with %d inserts received: %d never acknowledged", known.count, inserts, inserts-known.count)
				out.div = &divergence{story: s.name, step: last, feats: feats, what: what, repro: reproText(s, last, what)}
				return out
			}
			out.instances++
		}
	}
	return out
}

// judgeStream judges the decoder-stream instructions o a step gave,
// by the case's rule, and returns what is wrong, "" for nothing.
func (r *runner) judgeStream(c *qCase, st *step, o decoderOut, known knownCount, out *outcome) string {
	x := &st.expect
	switch c.kind {
	case kAcks:
		if what := sameStreams("acknowledged sections", x.out.acks, o.acks); what != "" {
			return what + " after " + describeStep(st)
		}
		out.instances += len(x.out.acks)
	case kCancels:
		if st.kind != cancelStep {
			return ""
		}
		if what := sameStreams("cancelled", uniq(x.out.cancels), uniq(o.cancels)); what != "" {
			return what + " after " + describeStep(st)
		}
		out.instances += len(x.out.cancels)
	case kIncValid:
		if known.count > x.inserts {
			return fmt.Sprintf("its decoder-stream instructions make the Known Received Count %d after %s, past the %d inserts received", known.count, describeStep(st), x.inserts)
		}
		if st.kind == encoderStep {
			out.instances++
		}
	}
	return ""
}

// decodedInstances counts the instances of a decodes-right case's rule a
// step judged: a section decoded after steps that used feats.
func decodedInstances(c *qCase, st *step, feats feature) int {
	switch c.kind {
	case kNever:
		return st.expect.ev.SensitiveFields
	case kDecodes:
		if c.feats == fBlocked {
			// The rule's instance: a section decoded once unblocked.
			return len(st.expect.unblocked)
		}
		if feats&c.feats != 0 && (st.kind == sectionStep || len(st.expect.unblocked) > 0) {
			return 1
		}
	}
	return 0
}

// call hands a step to the decoder, turning a panic into an error.
func call(d qpack.Decoder, st *step) (got []qpack.Decoded, ds []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the decoder panicked: %v", p)
		}
	}()
	switch st.kind {
	case encoderStep:
		return d.EncoderStream(st.data)
	case sectionStep:
		dec, ds, err := d.DecodeSection(st.stream, st.data)
		return []qpack.Decoded{dec}, ds, err
	default:
		ds, err := d.Cancel(st.stream)
		return nil, ds, err
	}
}

// newDecoder opens a connection of t, turning a panic into an error.
func newDecoder(t qpack.DecoderTarget, s qpack.Settings) (d qpack.Decoder, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the decoder panicked: %v", p)
		}
	}()
	d, err = t.NewDecoder(s)
	if err == nil && d == nil {
		err = fmt.Errorf("NewDecoder returned no decoder")
	}
	return d, err
}

// broke records the target's first breakdown; d, the connection that
// broke down, is nil when none could be opened.
func (r *runner) broke(d qpack.Decoder, s *story, step int, what string) {
	if r.breakdown != "" {
		return
	}
	r.breakdown = fmt.Sprintf("decoder broke down at story %s, step %d: %s", s.name, step, what)
	r.breakdownRepro = reproText(s, step, what)
	r.breakdownStderr = engine.TailOf(d, unwrap(r.target))
}

func codeOf(ce *qpack.ConnectionError) string {
	if ce.Code == "" {
		return "no code"
	}
	return ce.Code
}

// describeStep names a step in a sentence.
func describeStep(st *step) string {
	switch st.kind {
	case encoderStep:
		return fmt.Sprintf("%d octets of the encoder stream", len(st.data))
	case sectionStep:
		return fmt.Sprintf("the field section of stream %d", st.stream)
	}
	return fmt.Sprintf("the reset of stream %d", st.stream)
}

// reproText is the story up to step, the settings and each step's
// octets in hex, and what went wrong there.
func reproText(s *story, upTo int, what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "story %s: SETTINGS_QPACK_MAX_TABLE_CAPACITY %d, SETTINGS_QPACK_BLOCKED_STREAMS %d, SETTINGS_MAX_FIELD_SECTION_SIZE %d\n",
		s.name, s.settings.MaxTableCapacity, s.settings.BlockedStreams, s.settings.MaxFieldSectionSize)
	for i := 0; i <= upTo && i < len(s.steps); i++ {
		st := &s.steps[i]
		data := st.data
		more := ""
		if len(data) > 256 {
			data, more = data[:256], fmt.Sprintf(" ... (%d octets)", len(st.data))
		}
		switch st.kind {
		case encoderStep:
			fmt.Fprintf(&b, "step %d: encoder stream %s%s\n", i, hex.EncodeToString(data), more)
		case sectionStep:
			fmt.Fprintf(&b, "step %d: section on stream %d %s%s\n", i, st.stream, hex.EncodeToString(data), more)
		default:
			fmt.Fprintf(&b, "step %d: reset of stream %d\n", i, st.stream)
		}
	}
	b.WriteString(what)
	return b.String()
}
