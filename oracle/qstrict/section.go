package qstrict

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// blockedSection is a field section waiting for inserts (§2.2.1).
type blockedSection struct {
	streamID uint64
	ric      uint64
	section  []byte
}

// UnblockedSection is a section that was blocked, decoded once its inserts
// arrived on the encoder stream.
type UnblockedSection struct {
	StreamID uint64
	Fields   []spec.Field
}

// DecodeSection decodes the field section of a request stream. A section
// whose Required Insert Count is above the inserts received so far is
// kept (status Blocked) until EncoderStream brings them; the section is
// copied.
func (d *Decoder) DecodeSection(streamID uint64, section []byte) ([]spec.Field, Status, error) {
	if d.err != nil {
		return nil, 0, ErrBroken
	}
	pf, _, err := qspec.ReadPrefix(section)
	if err != nil {
		return nil, 0, d.fail(wrap(err, DecompressionFailed, sectionStream, streamID, 0))
	}
	ric, err := pf.RequiredInsertCount(d.maxEntries(), d.table.inserts())
	if err != nil {
		return nil, 0, d.fail(wrap(err, DecompressionFailed, sectionStream, streamID, 0))
	}
	if ric > d.table.inserts() {
		if uint64(len(d.blocked)) >= d.settings.BlockedStreams {
			return nil, 0, d.fail(&Error{Code: DecompressionFailed, Stream: sectionStream, StreamID: streamID, Section: "§2.2.1",
				Reason: fmt.Sprintf("Required Insert Count %d with %d inserts would block a stream beyond SETTINGS_QPACK_BLOCKED_STREAMS %d", ric, d.table.inserts(), d.settings.BlockedStreams)})
		}
		d.blocked = append(d.blocked, blockedSection{streamID, ric, append([]byte(nil), section...)})
		return nil, Blocked, nil
	}
	fields, e := d.decode(streamID, ric, section)
	if e != nil {
		return nil, 0, d.fail(e)
	}
	return fields, Decoded, nil
}

// Unblocked returns the sections unblocked and decoded since the last
// call, in the order they arrived.
func (d *Decoder) Unblocked() []UnblockedSection {
	out := d.done
	d.done = nil
	return out
}

// BlockedStreams returns the streams whose sections wait for inserts.
func (d *Decoder) BlockedStreams() []uint64 {
	out := make([]uint64, len(d.blocked))
	for i, b := range d.blocked {
		out[i] = b.streamID
	}
	return out
}

// unblock decodes the blocked sections the inserts so far allow.
func (d *Decoder) unblock() error {
	kept := d.blocked[:0]
	for _, b := range d.blocked {
		if b.ric > d.table.inserts() {
			kept = append(kept, b)
			continue
		}
		fields, e := d.decode(b.streamID, b.ric, b.section)
		if e != nil {
			return d.fail(e)
		}
		d.done = append(d.done, UnblockedSection{b.streamID, fields})
	}
	d.blocked = kept
	return nil
}

// decode decodes a section whose Required Insert Count ric the table can
// honour, and writes its Section Acknowledgment.
func (d *Decoder) decode(streamID, ric uint64, section []byte) ([]spec.Field, *Error) {
	bad := func(offset int, sec, reason string) *Error {
		return &Error{Code: DecompressionFailed, Stream: sectionStream, StreamID: streamID, Offset: offset, Section: sec, Reason: reason}
	}
	// Every line takes an octet, and a limit of n octets admits at most
	// n/32 fields: walking stops at whichever bound is smaller.
	maxLines := len(section)
	if lim := d.settings.MaxFieldSectionSize; lim > 0 && lim/qspec.EntryOverhead < uint64(maxLines) {
		maxLines = int(lim/qspec.EntryOverhead) + 1
	}
	pf, lines, err := qspec.WalkSection(section, maxLines)
	if err != nil {
		return nil, wrap(err, DecompressionFailed, sectionStream, streamID, 0)
	}
	base, err := pf.Base(ric)
	if err != nil {
		return nil, wrap(err, DecompressionFailed, sectionStream, streamID, 0)
	}
	fields := make([]spec.Field, 0, len(lines))
	var size, largest uint64 // largest is the largest absolute index referenced, plus one
	for _, l := range lines {
		var f spec.Field
		switch {
		case l.Kind == qspec.LiteralName:
			f = spec.Field{Name: l.Name.Text}
		case l.Static:
			if l.Index >= qspec.StaticTableLen {
				return nil, bad(l.Offset, "§3.1", fmt.Sprintf("static index %d is past the static table", l.Index))
			}
			f = qspec.StaticTable[l.Index]
		default:
			abs, e := absolute(l, base, ric, bad)
			if e != nil {
				return nil, e
			}
			entry, reason := d.table.lookup(abs)
			if reason != "" {
				return nil, bad(l.Offset, "§2.2.3", reason)
			}
			f, largest = entry, max(largest, abs+1)
		}
		if l.Kind != qspec.Indexed && l.Kind != qspec.IndexedPostBase {
			f.Value, f.Sensitive = l.Value.Text, l.NeverIndexed
		}
		size += entrySize(f)
		if lim := d.settings.MaxFieldSectionSize; lim > 0 && size > lim {
			d.cancel(streamID, ric)
			return nil, &Error{Code: ErrFieldSectionTooLarge, Stream: sectionStream, StreamID: streamID, Offset: l.Offset, Section: "RFC 9114 §4.2.2",
				Reason: fmt.Sprintf("field section larger than SETTINGS_MAX_FIELD_SECTION_SIZE %d", lim)}
		}
		fields = append(fields, f)
	}
	if largest != ric {
		referenced := "no dynamic table entry is referenced, so the count must be 0"
		if largest > 0 {
			referenced = fmt.Sprintf("the largest absolute index referenced is %d, so the count must be %d", largest-1, largest)
		}
		return nil, bad(0, "§4.5.1.1", fmt.Sprintf("Required Insert Count %d, but %s", ric, referenced))
	}
	d.acknowledge(streamID, ric)
	return fields, nil
}

// absolute returns the absolute index of a dynamic reference: relative to
// Base (§3.2.5) or post-base (§3.2.6). It must be below the Required
// Insert Count (§2.2.3).
func absolute(l qspec.Line, base, ric uint64, bad func(int, string, string) *Error) (uint64, *Error) {
	var abs uint64
	if l.Kind == qspec.IndexedPostBase || l.Kind == qspec.LiteralPostBaseRef {
		if l.Index >= qspec.MaxInt-base {
			return 0, bad(l.Offset, "§3.2.6", fmt.Sprintf("post-base index %d past Base %d overflows", l.Index, base))
		}
		abs = base + l.Index
	} else {
		if l.Index >= base {
			return 0, bad(l.Offset, "§3.2.5", fmt.Sprintf("relative index %d is not below Base %d", l.Index, base))
		}
		abs = base - 1 - l.Index
	}
	if abs >= ric {
		return 0, bad(l.Offset, "§2.2.3", fmt.Sprintf("absolute index %d is not below the Required Insert Count %d", abs, ric))
	}
	return abs, nil
}
