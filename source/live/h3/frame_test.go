package h3

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// TestHeadersMalformed feeds request streams a hostile peer could write
// and checks each is refused with an error naming the fault and its
// offset, and that well-formed ones yield their HEADERS payloads.
func TestHeadersMalformed(t *testing.T) {
	long := appendVarint(nil, 1<<40)
	for _, tc := range []struct {
		name  string
		in    []byte
		limit int
		want  string // "" for no error
		got   [][]byte
	}{
		{name: "empty stream", in: nil, limit: 64},
		{name: "headers, data, unknown frame, headers", in: cat(appendFrame(nil, frameHeaders, []byte{0, 0, 0xd9}), appendFrame(nil, frameData, []byte("body")), appendFrame(nil, 0x21, []byte{1}), appendFrame(nil, frameHeaders, []byte{0, 0})), limit: 64,
			got: [][]byte{{0, 0, 0xd9}, {0, 0}}},
		{name: "type cut", in: []byte{0x40}, limit: 64, want: "request stream 0 offset 0: frame type cut after 1 of its 2 octets"},
		{name: "length missing", in: []byte{frameHeaders}, limit: 64, want: "request stream 0 offset 0: frame of type 0x1 cut before its length"},
		{name: "length cut", in: []byte{frameHeaders, 0x80, 1}, limit: 64, want: "request stream 0 offset 1: frame length cut after 2 of its 4 octets"},
		{name: "payload cut", in: cat(appendFrame(nil, frameData, []byte("ok")), []byte{frameHeaders, 5, 0, 0}), limit: 64, want: "request stream 0 offset 4: frame of type 0x1 cut after 2 of its 5 payload octets"},
		{name: "data cut", in: []byte{frameData, 9, 'x'}, limit: 64, want: "request stream 0 offset 0: frame of type 0x0 cut after 1 of its 9 payload octets"},
		{name: "huge length", in: cat([]byte{frameHeaders}, long), limit: 64, want: "request stream 0 offset 0: frame of type 0x1 of 1099511627776 octets takes the stream over the capture limit of 64 octets"},
		{name: "largest varint length", in: []byte{frameData, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, limit: 64, want: "over the capture limit"},
		{name: "over the limit in all", in: cat(appendFrame(nil, frameData, make([]byte, 40)), appendFrame(nil, frameData, make([]byte, 40))), limit: 64, want: "request stream 0 offset 42: frame of type 0x0 of 40 octets takes the stream over the capture limit of 64 octets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]byte
			err := newReader(bytes.NewReader(tc.in), "request stream 0").headers(tc.limit, func(p []byte) { got = append(got, p) })
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if len(got) != len(tc.got) {
				t.Fatalf("%d sections %x, want %x", len(got), got, tc.got)
			}
			for i := range got {
				if !bytes.Equal(got[i], tc.got[i]) {
					t.Errorf("section %d: %x, want %x", i, got[i], tc.got[i])
				}
			}
		})
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestVarint checks the QUIC integers written in each length and read
// back.
func TestVarint(t *testing.T) {
	for _, v := range []uint64{0, 63, 64, 16383, 16384, 1<<30 - 1, 1 << 30, 1<<62 - 1} {
		b := appendVarint(nil, v)
		got, err := newReader(bytes.NewReader(b), "test").varint("value")
		if err != nil || got != v {
			t.Errorf("%d written as %x reads %d, %v", v, b, got, err)
		}
	}
}

// TestRecorderBlocked plays a peer whose field section arrives before
// the insertion it references: the recorder holds it blocked, and when
// the insertion comes it sends and logs the Section Acknowledgment the
// strict decoder owes (RFC 9204 §4.4.1), and no Insert Count Increment,
// which the acknowledgment makes redundant.
func TestRecorderBlocked(t *testing.T) {
	var told bytes.Buffer
	r := newRecorder("blocked", &told, 1<<10)
	// Required Insert Count 1 (encoded 2, MaxEntries 128), Base 1, the
	// dynamic entry of relative index 0.
	if err := r.section(0, []byte{0x02, 0x00, 0x80}); err != nil {
		t.Fatal(err)
	}
	// Set Dynamic Table Capacity 4096; insert :authority "a" with the
	// static name of index 0.
	if err := r.encoderStream([]byte{0x3f, 0xe1, 0x1f, 0xc0, 0x01, 'a'}); err != nil {
		t.Fatal(err)
	}
	tr := r.transcript(nil)
	kinds := []qpack.EventKind{qpack.Section, qpack.DeliverSection, qpack.Wrote, qpack.DeliverEncoderStream, qpack.Told}
	if len(tr.Events) != len(kinds) {
		t.Fatalf("events %+v, want kinds %v", tr.Events, kinds)
	}
	for i, k := range kinds {
		if tr.Events[i].Kind != k {
			t.Errorf("event %d: kind %d, want %d", i, tr.Events[i].Kind, k)
		}
	}
	if got := tr.Events[4].Data; !bytes.Equal(got, []byte{0x80}) || !bytes.Equal(told.Bytes(), got) {
		t.Errorf("told %x, sent %x: want the Section Acknowledgment of stream 0, 80", got, told.Bytes())
	}
	if err := r.encoderStream(make([]byte, 1<<10)); err == nil || !strings.Contains(err.Error(), "encoder stream offset 6: longer than the capture limit of 1024 octets") {
		t.Errorf("an encoder stream over the limit: %v", err)
	}
}

// TestRecorderLists checks that known lists go to the first section of
// stream 4i, and no other.
func TestRecorderLists(t *testing.T) {
	r := newRecorder("lists", &bytes.Buffer{}, 1<<10)
	for _, s := range []uint64{4, 0, 4, 8, 12} {
		if err := r.section(s, []byte{0, 0, 0xd1}); err != nil {
			t.Fatal(err)
		}
	}
	lists := [][]qpack.Field{{{Name: ":method", Value: "GET"}}, {{Name: ":method", Value: "GET"}}, {{Name: ":method", Value: "GET"}}}
	tr := r.transcript(lists)
	var got []int
	for _, e := range tr.Events {
		if e.Kind == qpack.Section {
			got = append(got, e.List)
		}
	}
	if want := []int{1, 0, -1, 2, -1}; !slices.Equal(got, want) {
		t.Errorf("lists %v, want %v", got, want)
	}
}
