package qbroken

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// sensitiveNames are the names the tests mark sensitive in every list, so
// that no field equal to a sensitive one is ever sent without the mark.
var sensitiveNames = map[string]bool{"authorization": true, "cookie": true, "set-cookie": true}

// traffic returns the header lists of the named embedded QIF files, at
// most limit of each (all with limit 0), fields of sensitiveNames marked.
func traffic(t *testing.T, limit int, names ...string) [][]qpack.Field {
	t.Helper()
	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	var lists [][]qpack.Field
	for _, name := range names {
		found := false
		for _, f := range files {
			if f.Name != name {
				continue
			}
			found = true
			for i, list := range f.HeaderLists {
				if limit > 0 && i == limit {
					break
				}
				for j := range list {
					list[j].Sensitive = sensitiveNames[list[j].Name]
				}
				lists = append(lists, list)
			}
		}
		if !found {
			t.Fatalf("no QIF file %s in the embedded traffic", name)
		}
	}
	return lists
}

// schedule says what the harness holds back: the encoder-stream octets
// written for the last lag sections (so that sections block), or the last
// lag sections themselves (so that acknowledgments come late while
// insertions evict).
type schedule struct {
	lateSections bool
	lag          int
}

// outcome is what the strict decoder and the harness's checks made of a
// connection.
type outcome struct {
	// err is the first error of the strict decoder, or of the encoder.
	err error
	// mismatched holds the indices of the lists decoded to anything but
	// what was sent (names, values, sensitivity, order).
	mismatched []int
	decoded    [][]qpack.Field
	// unackedEvictions counts the encoder-stream writes after which an
	// entry not acknowledged to the encoder had been evicted (§2.1.1).
	unackedEvictions int
	// sensitiveInserted counts the writes after which the table held a
	// field sent as sensitive (§7.1.3).
	sensitiveInserted int
	// blocked counts sections the decoder held for inserts.
	blocked int
	// encoderStream and sections are everything the encoder wrote.
	encoderStream []byte
	sections      [][]byte
}

// play runs lists through enc (one list per stream 0, 4, 8, ...) and the
// strict decoder of settings dec, delivering by sched and feeding every
// octet the decoder writes back to the encoder at once. preface is given
// to the decoder before anything the encoder writes (a capacity the
// decoder assumes).
func play(enc qpack.Encoder, dec qpack.Settings, sched schedule, lists [][]qpack.Field, preface []byte) outcome {
	var o outcome
	qs := qstrict.Settings{MaxTableCapacity: dec.MaxTableCapacity, BlockedStreams: dec.BlockedStreams}
	d := qstrict.New(qs)
	// shadow reads the encoder stream as soon as it is written: its
	// table is the one the encoder's writes made, at the time they were
	// made.
	shadow := qstrict.New(qstrict.Settings{MaxTableCapacity: qs.MaxTableCapacity, BlockedStreams: 1 << 20})
	fail := func(err error) bool {
		if err != nil && o.err == nil {
			o.err = err
		}
		return o.err != nil
	}
	fail(d.EncoderStream(preface))
	fail(shadow.EncoderStream(preface))
	o.decoded = make([][]qpack.Field, len(lists))
	sensitive := map[qpack.Field]bool{}
	var streamQueue [][]byte
	var sectionQueue []int
	feedBack := func() {
		for _, u := range d.Unblocked() {
			o.decoded[u.StreamID/4] = u.Fields
		}
		if out := d.DecoderStreamOut(); len(out) > 0 {
			_, err := enc.DecoderStream(out)
			fail(err)
		}
	}
	deliverStream := func() {
		if !fail(d.EncoderStream(streamQueue[0])) {
			feedBack()
		}
		streamQueue = streamQueue[1:]
	}
	deliverSection := func() {
		i := sectionQueue[0]
		sectionQueue = sectionQueue[1:]
		fields, status, err := d.DecodeSection(uint64(4*i), o.sections[i])
		if fail(err) {
			return
		}
		if status == qstrict.Blocked {
			o.blocked++
		}
		o.decoded[i] = fields
		feedBack()
	}
	for i, list := range lists {
		for _, f := range list {
			if f.Sensitive {
				sensitive[qpack.Field{Name: f.Name, Value: f.Value}] = true
			}
		}
		section, es, err := enc.EncodeSection(uint64(4*i), list)
		if fail(err) {
			return o
		}
		o.sections = append(o.sections, section)
		o.encoderStream = append(o.encoderStream, es...)
		if shadow.Err() == nil && shadow.EncoderStream(es) == nil {
			o.checkTable(shadow, d.KnownReceivedCount(), sensitive)
		}
		streamQueue, sectionQueue = append(streamQueue, es), append(sectionQueue, i)
		for o.err == nil && len(streamQueue) > lagOf(sched, false) {
			deliverStream()
		}
		for o.err == nil && len(sectionQueue) > lagOf(sched, true) {
			deliverSection()
		}
		if o.err != nil {
			return o
		}
	}
	for o.err == nil && len(streamQueue) > 0 {
		deliverStream()
	}
	for o.err == nil && len(sectionQueue) > 0 {
		deliverSection()
	}
	for i, list := range lists {
		if o.err == nil && !reflect.DeepEqual(o.decoded[i], list) {
			o.mismatched = append(o.mismatched, i)
		}
	}
	return o
}

// lagOf is how many sections' worth of the encoder stream (or of sections)
// the schedule holds back.
func lagOf(s schedule, sections bool) int {
	if s.lateSections == sections {
		return s.lag
	}
	return 0
}

// checkTable counts the encoder's writes that evicted an entry whose
// insertion the encoder had not been told was received (§2.1.1): the
// shadow's evictions past the Known Received Count of the decoder, all of
// whose decoder-stream octets the encoder has read; and those that left a
// sensitive field in the table.
func (o *outcome) checkTable(shadow *qstrict.Decoder, known uint64, sensitive map[qpack.Field]bool) {
	table := shadow.Table()
	if evicted := shadow.InsertCount() - uint64(len(table)); evicted > known {
		o.unackedEvictions++
	}
	for _, f := range table {
		if sensitive[f] {
			o.sensitiveInserted++
			return
		}
	}
}

// stats counts what the encoder wrote: the instructions on its encoder
// stream by kind and the field lines by kind, with the static Indexed
// Field Lines and the Huffman-coded strings apart.
type stats struct {
	instructions   map[qspec.Kind]int
	lines          map[qspec.Kind]int
	staticIndexed  int
	huffman        int
	largestEncoded uint64 // the largest EncodedInsertCount
}

func count(o outcome) (stats, error) {
	s := stats{instructions: map[qspec.Kind]int{}, lines: map[qspec.Kind]int{}}
	for p := 0; p < len(o.encoderStream); {
		in, next, err := qspec.ReadEncoderInstruction(o.encoderStream, p)
		if err != nil {
			return s, fmt.Errorf("encoder stream offset %d: %w", p, err)
		}
		s.instructions[in.Kind]++
		s.huffman += countHuffman(in.Name, in.FieldValue)
		p = next
	}
	for i, section := range o.sections {
		pf, lines, err := qspec.WalkSection(section, len(section))
		if err != nil {
			return s, fmt.Errorf("section %d: %w", i, err)
		}
		s.largestEncoded = max(s.largestEncoded, pf.EncodedInsertCount)
		for _, l := range lines {
			s.lines[l.Kind]++
			if l.Kind == qspec.Indexed && l.Static {
				s.staticIndexed++
			}
			s.huffman += countHuffman(l.Name, l.Value)
		}
	}
	return s, nil
}

func countHuffman(strs ...qspec.String) int {
	n := 0
	for _, s := range strs {
		if s.Huffman {
			n++
		}
	}
	return n
}

// wantRefusal checks that the strict decoder refused with code under the
// RFC section.
func wantRefusal(t *testing.T, label string, o outcome, code, section string) {
	t.Helper()
	var e *qstrict.Error
	if !errors.As(o.err, &e) {
		t.Errorf("%s: error %v; want a strict-decoder refusal %s (RFC 9204 %s)", label, o.err, code, section)
		return
	}
	if e.Code != code || e.Section != section {
		t.Errorf("%s: %v; want %s under RFC 9204 %s", label, e, code, section)
	}
}

// wantClean checks that the strict decoder decoded every list as sent and
// that the encoder evicted and inserted nothing it must not.
func wantClean(t *testing.T, label string, o outcome) {
	t.Helper()
	if o.err != nil {
		t.Errorf("%s: %v", label, o.err)
		return
	}
	if len(o.mismatched) > 0 {
		i := o.mismatched[0]
		t.Errorf("%s: %d lists decoded wrong; the first, %d: %v", label, len(o.mismatched), i, o.decoded[i])
	}
	if o.unackedEvictions > 0 || o.sensitiveInserted > 0 {
		t.Errorf("%s: %d writes evicted an unacknowledged entry, %d left a sensitive field in the table; want none", label, o.unackedEvictions, o.sensitiveInserted)
	}
}
