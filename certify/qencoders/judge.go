package qencoders

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// finding is one rule found broken in a transcript.
type finding struct {
	ev     int // the index of the event at fault
	caseID string
	// dec is set for a finding of the decoder's view, assumed for the
	// report of a recording's missing Set Dynamic Table Capacity.
	dec, assumed bool
	detail       string
	// root is set for a finding reported as a failure of its case;
	// cause, on any other, names the case of the root it follows (its
	// consequence).
	root  bool
	cause string
}

// judge is one transcript judged: what both views found, what each case
// judged, and what the transcript held.
type judge struct {
	t        *qpack.Transcript
	findings []finding
	counts   map[string]int
	ev       Evidence
	// notJudged counts the sections judged by no case: written against
	// an encoder stream that could not be read on, or delivered to a
	// decoder already broken.
	notJudged int
	// repeated is set when the lists repeat a field the static table
	// does not hold, for the dynamic table's efficiency case.
	repeated bool
}

func (j *judge) find(ev int, c string, dec bool, detail string) {
	j.findings = append(j.findings, finding{ev: ev, caseID: c, dec: dec, detail: detail})
}

func (j *judge) count(c string) { j.counts[c]++ }

// list returns the header list of index i, or nil when it is unknown.
func (j *judge) list(i int) []qpack.Field {
	if i < 0 || i >= len(j.t.Lists) {
		return nil
	}
	return j.t.Lists[i]
}

// judgeTranscript judges t from both ends of the connection.
func judgeTranscript(t *qpack.Transcript) *judge {
	j := &judge{t: t, counts: map[string]int{}}
	assumed := uint64(0)
	if t.AssumedCapacity > 0 {
		if at, ok := insertsBeforeCapacity(t.Events); ok {
			assumed = t.AssumedCapacity
			j.findings = append(j.findings, finding{ev: at, caseID: cInsertSize, assumed: true,
				detail: fmt.Sprintf("the encoder never sent Set Dynamic Table Capacity before its first insertion (the QPACK drafts' initial capacity was the maximum); the rest is graded as if it had set the capacity to %d", assumed)})
		}
	}
	enc := newEncView(j, t.Settings, assumed)
	dec := newDecView(j, t.Settings, assumed)
	for i, e := range t.Events {
		switch e.Kind {
		case qpack.Wrote:
			enc.wrote(i, e.Data)
			dec.wrote(e.Data)
		case qpack.Section:
			enc.section(i, e.Stream, e.Data, j.list(e.List))
			dec.queue(e.Stream, e.Data, e.List)
		case qpack.Told:
			enc.decoderStream(i, e.Data, e.Refused, false, e.Code)
		case qpack.DeliverEncoderStream:
			dec.deliverStream(i, e.Count)
		case qpack.DeliverSection:
			dec.deliverSection(i, e.Stream)
		case qpack.Reset:
			dec.reset(i, e.Stream)
		}
		if t.ToldAtOnce && !dec.broken {
			if out := dec.d.DecoderStreamOut(); len(out) > 0 {
				enc.decoderStream(i, out, false, true, "")
			}
		}
	}
	if !enc.broken && !enc.closed {
		j.count(cInteger)
		j.count(cInstruction)
		if t.Settings.MaxTableCapacity == 0 {
			j.count(cZeroCapacity)
		} else {
			j.count(cCapacity)
			j.count(cEvict)
			j.count(cInsertSize)
		}
	}
	if t.Settings.MaxTableCapacity >= 256 && repeats(t.Lists) && !j.faulted() {
		j.count(cDynamicUse)
		if enc.dynamicRefs == 0 {
			j.find(len(t.Events)-1, cDynamicUse, false, fmt.Sprintf("connection %q: a dynamic table of up to %d octets was allowed and fields repeat across the header lists, but no section referenced the dynamic table", t.Name, t.Settings.MaxTableCapacity))
		}
	}
	j.classify()
	return j
}

// classify marks the roots and the consequences: every finding of the
// encoder's view is a root, as is the report of a recording's missing
// capacity; a finding of the decoder's view is a root when nothing of
// the encoder's view was found before it, else a consequence of the
// first that was.
func (j *judge) classify() {
	first := -1 // index of the first finding of the encoder's view
	for i := range j.findings {
		f := &j.findings[i]
		if f.assumed || !f.dec {
			f.root = true
			if !f.assumed && first < 0 {
				first = i
			}
			continue
		}
		if first >= 0 && j.findings[first].ev <= f.ev {
			f.cause = j.findings[first].caseID
			continue
		}
		f.root = true
	}
}

// faulted reports whether a rule was found broken in the transcript (the
// missing capacity of a recording aside): the connection may then have
// ended before the encoder could use its table.
func (j *judge) faulted() bool {
	for _, f := range j.findings {
		if !f.assumed {
			return true
		}
	}
	return false
}

// insertsBeforeCapacity reports whether the encoder stream of events
// inserts an entry before any Set Dynamic Table Capacity, and the event
// of that insertion.
func insertsBeforeCapacity(events []qpack.Event) (int, bool) {
	var stream []byte
	p := 0
	for i, e := range events {
		if e.Kind != qpack.Wrote {
			continue
		}
		stream = append(stream, e.Data...)
		for p < len(stream) {
			in, next, err := qspec.ReadEncoderInstruction(stream, p)
			if errors.Is(err, qspec.ErrIncomplete) {
				break
			}
			if err != nil || in.Kind == qspec.SetCapacity {
				return 0, false
			}
			if in.Kind == qspec.InsertNameRef || in.Kind == qspec.InsertLiteralName || in.Kind == qspec.Duplicate {
				return i, true
			}
			p = next
		}
	}
	return 0, false
}

// repeats reports whether a field not in the static table appears in
// more than one of lists, so that a dynamic table would serve it.
func repeats(lists [][]qpack.Field) bool {
	seen := map[qpack.Field]int{}
	for i, l := range lists {
		for _, f := range l {
			if f.Sensitive || staticMatch(f) || f.Size() > 1024 {
				continue
			}
			f.Sensitive = false
			if at, ok := seen[f]; ok && at != i {
				return true
			}
			seen[f] = i
		}
	}
	return false
}
