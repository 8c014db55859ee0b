package qencoders

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// section judges a field section the encoder wrote for stream, the
// header list list (nil when unknown), against the table it kept then.
func (v *encView) section(ev int, stream uint64, data []byte, list []qpack.Field) {
	defer func() { v.newInserts = v.newInserts[:0] }()
	if v.broken || v.closed {
		v.j.notJudged++ // the table it was written against is unknown
		return
	}
	v.j.ev.Blocks++
	v.j.count(cRIC)
	v.j.count(cBase)
	v.j.count(cBlocked)
	v.j.count(cReference)
	pf, lines, err := qspec.WalkSection(data, len(data))
	if err != nil {
		var qe *qspec.Error
		if errors.As(err, &qe) {
			c := wireCase(qe, cOrder)
			switch qe.Section {
			case "§4.5.1.1":
				c = cRIC
			case "§4.5.1.2":
				c = cBase
			}
			v.j.find(ev, c, false, fmt.Sprintf("field section of stream %d, offset %d: %s", stream, qe.Offset, qe.Reason))
		} else {
			v.j.find(ev, cOrder, false, fmt.Sprintf("field section of stream %d: %v", stream, err))
		}
		return
	}
	v.j.ev.Representations += len(lines)
	ric, err := pf.RequiredInsertCount(v.maxEntries, v.inserts)
	if err != nil {
		v.j.find(ev, cRIC, false, fmt.Sprintf("field section of stream %d: %v (MaxEntries %d, %d inserts sent)", stream, reason(err), v.maxEntries, v.inserts))
		return
	}
	base, err := pf.Base(ric)
	if err != nil {
		v.j.find(ev, cBase, false, fmt.Sprintf("field section of stream %d: %v", stream, reason(err)))
		return
	}
	refs, sent, badRef := v.references(ev, stream, ric, base, lines)
	if !badRef && sameFields(sent, list) {
		v.lines(ev, stream, lines, list)
	}
	if badRef {
		return // the Required Insert Count cannot be judged against references that do not resolve
	}
	want := uint64(0)
	for _, r := range refs {
		want = max(want, r+1)
	}
	if ric != want {
		v.j.find(ev, cRIC, false, fmt.Sprintf("field section of stream %d: Required Insert Count %d, but the largest absolute index referenced is %s", stream, ric, largest(want)))
	}
	if ric == 0 {
		return
	}
	v.outstanding = append(v.outstanding, outSection{stream: stream, ric: ric, refs: refs})
	atRisk := map[uint64]bool{}
	for _, s := range v.outstanding {
		if s.ric > v.krc {
			atRisk[s.stream] = true
		}
	}
	if uint64(len(atRisk)) > v.settings.BlockedStreams {
		v.j.find(ev, cBlocked, false, fmt.Sprintf("field section of stream %d (Required Insert Count %d, Known Received Count %d): %d streams could become blocked, SETTINGS_QPACK_BLOCKED_STREAMS is %d", stream, ric, v.krc, len(atRisk), v.settings.BlockedStreams))
	}
}

func largest(want uint64) string {
	if want == 0 {
		return "none (no dynamic reference)"
	}
	return fmt.Sprint(want - 1)
}

func reason(err error) string {
	var qe *qspec.Error
	if errors.As(err, &qe) {
		return qe.Reason
	}
	return err.Error()
}

// references resolves the references of a section's lines and checks
// each (§2.2.3, §3.1); it returns the absolute indices of the dynamic
// ones, the fields the lines carry, and whether a reference did not
// resolve.
func (v *encView) references(ev int, stream, ric, base uint64, lines []qspec.Line) ([]uint64, []qpack.Field, bool) {
	var refs []uint64
	sent := make([]qpack.Field, len(lines))
	for i, l := range lines {
		v.strings(ev, l.Name, l.Value)
		sent[i] = qpack.Field{Name: l.Name.Text, Value: l.Value.Text}
		var abs uint64
		switch l.Kind {
		case qspec.Indexed, qspec.LiteralNameRef:
			if l.Static {
				v.j.count(cStatic)
				if l.Index >= qspec.StaticTableLen {
					v.j.find(ev, cStatic, false, fmt.Sprintf("field section of stream %d, offset %d: static index %d (the table has %d entries)", stream, l.Offset, l.Index, qspec.StaticTableLen))
					return refs, nil, true
				}
				sent[i] = resolved(l, qspec.StaticTable[l.Index])
				continue
			}
			if l.Index >= base {
				v.j.find(ev, cReference, false, fmt.Sprintf("field section of stream %d, offset %d: relative index %d with Base %d refers to no entry", stream, l.Offset, l.Index, base))
				return refs, nil, true
			}
			abs = base - 1 - l.Index
		case qspec.IndexedPostBase, qspec.LiteralPostBaseRef:
			abs = base + l.Index
		default:
			continue
		}
		v.dynamicRefs++
		switch {
		case abs >= ric:
			v.j.find(ev, cReference, false, fmt.Sprintf("field section of stream %d, offset %d: a reference to absolute index %d, at or above the Required Insert Count %d", stream, l.Offset, abs, ric))
			return refs, nil, true
		case abs >= v.inserts:
			v.j.find(ev, cReference, false, fmt.Sprintf("field section of stream %d, offset %d: a reference to absolute index %d, never inserted (%d inserts sent)", stream, l.Offset, abs, v.inserts))
			return refs, nil, true
		case abs < v.dropped:
			v.j.find(ev, cReference, false, fmt.Sprintf("field section of stream %d, offset %d: a reference to absolute index %d, already evicted", stream, l.Offset, abs))
			return refs, nil, true
		}
		refs = append(refs, abs)
		sent[i] = resolved(l, v.entries[abs-v.dropped])
	}
	return refs, sent, false
}

// resolved is the field a line carries whose name, or name and value,
// come from entry e.
func resolved(l qspec.Line, e qpack.Field) qpack.Field {
	if l.Kind == qspec.Indexed || l.Kind == qspec.IndexedPostBase {
		return qpack.Field{Name: e.Name, Value: e.Value}
	}
	return qpack.Field{Name: e.Name, Value: l.Value.Text}
}

// sameFields reports whether the lines carry the header list sent, in
// order: the rules about how each field was sent are judged only then
// (a list sent otherwise is qenc/2.1/1's to report).
func sameFields(sent, list []qpack.Field) bool {
	return list != nil && difference(sent, list) == ""
}

// lines judges how each field of the list sent was represented: the N
// bit of a sensitive field (§7.1.3) and the static table's exact matches.
func (v *encView) lines(ev int, stream uint64, lines []qspec.Line, list []qpack.Field) {
	for i, f := range list {
		l := lines[i]
		if f.Sensitive {
			v.j.count(cNever)
			v.j.ev.SensitiveFields++
			literal := l.Kind == qspec.LiteralNameRef || l.Kind == qspec.LiteralPostBaseRef || l.Kind == qspec.LiteralName
			switch {
			case !literal:
				v.j.find(ev, cNever, false, fmt.Sprintf("field section of stream %d, offset %d: sensitive field %q sent as an indexed line", stream, l.Offset, f.Name))
			case !l.NeverIndexed:
				v.j.find(ev, cNever, false, fmt.Sprintf("field section of stream %d, offset %d: sensitive field %q sent without the N bit", stream, l.Offset, f.Name))
			}
			for _, in := range v.newInserts {
				if in.Name == f.Name && in.Value == f.Value {
					v.j.find(ev, cNever, false, fmt.Sprintf("field section of stream %d: sensitive field %q inserted in the dynamic table", stream, f.Name))
					break
				}
			}
			continue
		}
		if staticMatch(f) {
			v.j.count(cStaticUse)
			if l.Kind != qspec.Indexed && l.Kind != qspec.IndexedPostBase {
				v.j.find(ev, cStaticUse, false, fmt.Sprintf("field section of stream %d, offset %d: %q: %q equals a static entry but was sent as a literal", stream, l.Offset, f.Name, f.Value))
			}
		}
	}
}

// staticMatch reports whether f equals an entry of the static table.
func staticMatch(f qpack.Field) bool {
	for _, e := range qspec.StaticTable {
		if e.Name == f.Name && e.Value == f.Value {
			return true
		}
	}
	return false
}
