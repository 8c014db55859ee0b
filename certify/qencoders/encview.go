package qencoders

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// encView is the encoder's end of one connection: the dynamic table the
// encoder must be keeping, given what it wrote on its encoder stream, and
// what it knows of the decoder (Known Received Count, the sections not
// yet acknowledged), given what it was told. Every rule that binds the
// encoder when it writes is checked here, at the event that breaks it.
type encView struct {
	j          *judge
	settings   qpack.Settings
	maxEntries uint64

	capacity uint64
	capSet   bool // a capacity was set (or assumed)
	entries  []qpack.Field
	dropped  uint64 // the absolute index of entries[0]
	size     uint64
	inserts  uint64
	krc      uint64 // Known Received Count
	// outstanding are the sections with dynamic references not yet
	// acknowledged or cancelled, in the order written.
	outstanding []outSection
	// pending are the encoder-stream octets written but not yet read as
	// whole instructions, and offset the stream offset of pending[0].
	pending []byte
	offset  int
	// broken is set once the encoder stream cannot be read on: what the
	// encoder means by the rest is unknown.
	broken bool
	// newInserts are the entries inserted since the last section, for
	// the never-indexed rule.
	newInserts []qpack.Field
	// dynamicRefs counts the dynamic references of the connection.
	dynamicRefs int
	// closed is set once the encoder refused decoder-stream octets: the
	// connection is over.
	closed bool
	told   []byte // decoder-stream octets not yet read as whole instructions
}

// outSection is a field section with dynamic references the decoder has
// not acknowledged: the entries it references keep them from eviction.
type outSection struct {
	stream uint64
	ric    uint64
	refs   []uint64
}

func newEncView(j *judge, s qpack.Settings, assumed uint64) *encView {
	v := &encView{j: j, settings: s, maxEntries: qspec.MaxEntries(s.MaxTableCapacity)}
	if assumed > 0 {
		v.capacity, v.capSet = assumed, true
	}
	return v
}

// wrote reads the octets the encoder wrote on its encoder stream.
func (v *encView) wrote(ev int, data []byte) {
	if v.broken {
		return
	}
	v.pending = append(v.pending, data...)
	p := 0
	for p < len(v.pending) && !v.broken {
		in, next, err := qspec.ReadEncoderInstruction(v.pending, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			break
		}
		if err != nil {
			v.streamError(ev, v.offset, err)
			return
		}
		v.instruction(ev, v.offset+p, in)
		p = next
	}
	v.offset += p
	v.pending = append(v.pending[:0], v.pending[p:]...)
}

// streamError files an encoder stream that cannot be read on under the
// rule it breaks.
func (v *encView) streamError(ev, base int, err error) {
	v.broken = true
	var qe *qspec.Error
	if !errors.As(err, &qe) {
		v.j.find(ev, cInstruction, false, fmt.Sprintf("encoder stream: %v", err))
		return
	}
	v.j.find(ev, wireCase(qe, cInstruction), false, fmt.Sprintf("encoder stream offset %d: %s", base+qe.Offset, qe.Reason))
}

// wireCase is the case a malformed integer or string belongs to, or else
// def: the rule of the representation that holds it.
func wireCase(qe *qspec.Error, def string) string {
	switch {
	case qe.Section == "§4.1.2":
		return cHuffman
	case strings.Contains(qe.Reason, "integer"):
		return cInteger
	}
	return def
}

// instruction applies one encoder instruction at stream offset at.
func (v *encView) instruction(ev, at int, in qspec.Instruction) {
	if v.settings.MaxTableCapacity == 0 {
		v.j.find(ev, cZeroCapacity, false, fmt.Sprintf("encoder stream offset %d: %s with SETTINGS_QPACK_MAX_TABLE_CAPACITY 0", at, in.Kind))
		v.broken = true
		return
	}
	v.strings(ev, in.Name, in.FieldValue)
	switch in.Kind {
	case qspec.SetCapacity:
		v.j.ev.SizeUpdates++
		if in.Value > v.settings.MaxTableCapacity {
			v.j.find(ev, cCapacity, false, fmt.Sprintf("encoder stream offset %d: Set Dynamic Table Capacity %d, above SETTINGS_QPACK_MAX_TABLE_CAPACITY %d", at, in.Value, v.settings.MaxTableCapacity))
		}
		v.capacity, v.capSet = in.Value, true
		v.evict(ev, at, v.capacity, "lowering the capacity to "+fmt.Sprint(in.Value))
	case qspec.InsertNameRef:
		name, ok := v.nameOf(ev, at, in)
		if ok {
			v.insert(ev, at, qpack.Field{Name: name, Value: in.FieldValue.Text})
		}
	case qspec.InsertLiteralName:
		v.insert(ev, at, qpack.Field{Name: in.Name.Text, Value: in.FieldValue.Text})
	case qspec.Duplicate:
		if abs, ok := v.relative(in.Value); ok {
			v.insert(ev, at, v.entries[abs-v.dropped])
		} else {
			v.j.find(ev, cInstruction, false, fmt.Sprintf("encoder stream offset %d: Duplicate of relative index %d, %s", at, in.Value, v.tableSays()))
			v.broken = true
		}
	}
}

// nameOf returns the name an Insert with Name Reference refers to.
func (v *encView) nameOf(ev, at int, in qspec.Instruction) (string, bool) {
	if in.Static {
		v.j.count(cStatic)
		if in.Value >= qspec.StaticTableLen {
			v.j.find(ev, cStatic, false, fmt.Sprintf("encoder stream offset %d: Insert with Name Reference to static index %d (the table has %d entries)", at, in.Value, qspec.StaticTableLen))
			v.broken = true
			return "", false
		}
		return qspec.StaticTable[in.Value].Name, true
	}
	abs, ok := v.relative(in.Value)
	if !ok {
		v.j.find(ev, cInstruction, false, fmt.Sprintf("encoder stream offset %d: Insert with Name Reference to relative index %d, %s", at, in.Value, v.tableSays()))
		v.broken = true
		return "", false
	}
	return v.entries[abs-v.dropped].Name, true
}

// relative returns the absolute index of an encoder-stream relative
// index, if the entry is in the table.
func (v *encView) relative(rel uint64) (uint64, bool) {
	if rel >= v.inserts {
		return 0, false
	}
	abs := v.inserts - 1 - rel
	return abs, abs >= v.dropped
}

func (v *encView) tableSays() string {
	return fmt.Sprintf("but the table holds absolute indices %d to %d", v.dropped, int64(v.inserts)-1)
}

// insert adds f to the table, evicting what must go first.
func (v *encView) insert(ev, at int, f qpack.Field) {
	v.j.ev.Insertions++
	size := uint64(f.Size())
	switch {
	case !v.capSet:
		v.j.find(ev, cInsertSize, false, fmt.Sprintf("encoder stream offset %d: an insertion (%q) before any Set Dynamic Table Capacity: the capacity is still 0 (§3.2.2)", at, f.Name))
		v.broken = true
		return
	case size > v.capacity:
		v.j.find(ev, cInsertSize, false, fmt.Sprintf("encoder stream offset %d: an entry of %d octets (%q) inserted in a table of capacity %d", at, size, f.Name, v.capacity))
		v.broken = true
		return
	}
	v.evict(ev, at, v.capacity-size, fmt.Sprintf("inserting %q", f.Name))
	v.entries = append(v.entries, f)
	v.size += size
	v.inserts++
	v.newInserts = append(v.newInserts, f)
}

// evict drops the oldest entries until the table holds at most room
// octets, checking each may be evicted (§2.1.1).
func (v *encView) evict(ev, at int, room uint64, why string) {
	for v.size > room && len(v.entries) > 0 {
		abs := v.dropped
		v.j.ev.Evictions++
		if reason := v.pinned(abs); reason != "" {
			v.j.find(ev, cEvict, false, fmt.Sprintf("encoder stream offset %d: %s evicts absolute index %d, which is not evictable: %s", at, why, abs, reason))
		}
		v.size -= uint64(v.entries[0].Size())
		v.entries = v.entries[1:]
		v.dropped++
	}
}

// pinned says why entry abs may not be evicted, or "" when it may.
func (v *encView) pinned(abs uint64) string {
	if abs >= v.krc {
		return fmt.Sprintf("not acknowledged (Known Received Count %d)", v.krc)
	}
	for _, s := range v.outstanding {
		for _, r := range s.refs {
			if r == abs {
				return fmt.Sprintf("referenced by the unacknowledged field section of stream %d", s.stream)
			}
		}
	}
	return ""
}

// strings judges how string literals were coded.
func (v *encView) strings(ev int, ss ...qspec.String) {
	for _, s := range ss {
		if s.Raw == nil && s.Text == "" && !s.Huffman {
			continue
		}
		v.j.count(cHuffman)
		v.j.count(cHuffmanUse)
		if s.Huffman {
			v.j.ev.HuffmanStrings++
		}
		h := encoder.HuffmanLen([]byte(s.Text))
		switch {
		case !s.Huffman && h < len(s.Text):
			v.j.find(ev, cHuffmanUse, false, fmt.Sprintf("offset %d: a string of %d octets sent raw; its Huffman code takes %d", s.Offset, len(s.Text), h))
		case s.Huffman && h > len(s.Text):
			v.j.find(ev, cHuffmanUse, false, fmt.Sprintf("offset %d: a string of %d octets Huffman coded in %d", s.Offset, len(s.Text), h))
		}
	}
}

// decoderStream reads decoder-stream octets the encoder was told, and
// judges its answer: refused says it refused them, with code. Octets a
// recording's encoder is only taken to have had (implied) update what it
// knows and judge nothing.
func (v *encView) decoderStream(ev int, data []byte, refused, implied bool, code string) {
	if v.closed {
		return
	}
	v.told = append(v.told, data...)
	p := 0
	bad, badCase := "", ""
	for p < len(v.told) && bad == "" {
		in, next, err := qspec.ReadDecoderInstruction(v.told, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			break
		}
		if err != nil { // only the certifier's own octets reach here: an increment of 0
			bad, badCase = "an Insert Count Increment of 0", cBadIncrement
			p = len(v.told)
			break
		}
		p = next
		bad, badCase = v.apply(in)
	}
	v.told = append(v.told[:0], v.told[p:]...)
	switch {
	case implied:
	case bad != "":
		v.j.count(badCase)
		if !refused {
			v.j.find(ev, badCase, false, "the encoder accepted "+bad+" without a connection error")
		} else if code != "" && code != qpack.DecoderStreamError {
			v.j.find(ev, badCase, false, fmt.Sprintf("the encoder refused %s with %s, not %s", bad, code, qpack.DecoderStreamError))
		}
	case refused:
		v.j.find(ev, cBadAck, false, fmt.Sprintf("the encoder refused valid decoder-stream octets %x (%s)", data, code))
	}
	if refused {
		v.closed = true
	}
}

// apply carries out one decoder instruction; a bad one is described, with
// the case whose rule says the encoder must refuse it.
func (v *encView) apply(in qspec.Instruction) (string, string) {
	switch in.Kind {
	case qspec.SectionAck:
		for i, s := range v.outstanding {
			if s.stream == in.Value {
				v.krc = max(v.krc, s.ric)
				v.outstanding = append(v.outstanding[:i], v.outstanding[i+1:]...)
				return "", ""
			}
		}
		return fmt.Sprintf("a Section Acknowledgment for stream %d, which has no section awaiting one", in.Value), cBadAck
	case qspec.StreamCancel:
		kept := v.outstanding[:0]
		for _, s := range v.outstanding {
			if s.stream != in.Value {
				kept = append(kept, s)
			}
		}
		v.outstanding = kept
	case qspec.InsertCountIncrement:
		if v.krc+in.Value > v.inserts {
			return fmt.Sprintf("an Insert Count Increment of %d, past the %d inserts sent (Known Received Count %d)", in.Value, v.inserts, v.krc), cBadIncrement
		}
		v.krc += in.Value
	}
	return "", ""
}
