package qstrict

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/quic-go/qpack"
)

// b2Decoder returns a decoder that has read Appendix B.2's encoder stream.
func b2Decoder(t *testing.T, blocked uint64) *Decoder {
	t.Helper()
	d := New(Settings{MaxTableCapacity: 220, BlockedStreams: blocked})
	if err := d.EncoderStream(mustHex(t, b2EncoderStream)); err != nil {
		t.Fatal(err)
	}
	return d
}

func wantFields(t *testing.T, label string, got, want []spec.Field) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: fields %v; want %v", label, got, want)
	}
}

func TestDecodeSectionAppendixB(t *testing.T) {
	d := New(Settings{})
	fields, status, err := d.DecodeSection(0, mustHex(t, "0000510b2f696e6465782e68746d6c"))
	if err != nil || status != Decoded {
		t.Fatalf("B.1: status %d, %v", status, err)
	}
	wantFields(t, "B.1", fields, []spec.Field{{Name: ":path", Value: "/index.html"}})
	if out := d.DecoderStreamOut(); len(out) != 0 {
		t.Errorf("B.1: decoder stream %x; want nothing for a Required Insert Count of 0", out)
	}

	d = b2Decoder(t, 0)
	fields, status, err = d.DecodeSection(4, mustHex(t, "03811011"))
	if err != nil || status != Decoded {
		t.Fatalf("B.2: status %d, %v", status, err)
	}
	wantFields(t, "B.2", fields, []spec.Field{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}})
	if out := d.DecoderStreamOut(); !bytes.Equal(out, []byte{0x84}) {
		t.Errorf("B.2: decoder stream %x; want the Section Acknowledgment of stream 4, 84, and no increment", out)
	}
}

func TestDecodeSectionSensitive(t *testing.T) {
	d := New(Settings{})
	fields, _, err := d.DecodeSection(0, join([]byte{0, 0, 0x71, 0x01, 'a', 0x51, 0x01, 'b'}, []byte{0x31, 'x', 0x01, 'y'}))
	if err != nil {
		t.Fatal(err)
	}
	wantFields(t, "N bits", fields, []spec.Field{{Name: ":path", Value: "a", Sensitive: true}, {Name: ":path", Value: "b"}, {Name: "x", Value: "y", Sensitive: true}})
}

func TestDecodeSectionErrors(t *testing.T) {
	tests := []struct {
		label, hex string
		offset     int
		section    string
	}{
		{"blocked with no blocked streams allowed", "0400", 0, "§2.2.1"},
		{"Required Insert Count larger than referenced", "0300 81", 0, "§4.5.1.1"},
		{"Required Insert Count with no dynamic reference", "0300 d1", 0, "§4.5.1.1"},
		{"reference at the Required Insert Count", "0201 80", 2, "§2.2.3"},
		{"post-base reference past the Required Insert Count", "0381 12", 2, "§2.2.3"},
		{"relative index not below Base", "0381 80", 2, "§3.2.5"},
		{"dynamic reference with a count of 0", "0000 80", 2, "§3.2.5"},
		{"static index past the table", "0000 ff24", 2, "§3.1"},
		{"EncodedInsertCount above 2*MaxEntries", "0f00", 0, "§4.5.1.1"},
		{"negative Base", "0281", 1, "§4.5.1.2"},
		{"line cut short", "0000 510b2f", 3, "§4.5.4"},
	}
	for _, tt := range tests {
		d := b2Decoder(t, 0)
		_, _, err := d.DecodeSection(4, mustHex(t, tt.hex))
		wantError(t, tt.label, err, DecompressionFailed, tt.offset, tt.section)
		if _, _, err := d.DecodeSection(8, []byte{0, 0}); !errors.Is(err, ErrBroken) {
			t.Errorf("%s: after the error, DecodeSection returned %v; want ErrBroken", tt.label, err)
		}
		if err := d.EncoderStream(nil); !errors.Is(err, ErrBroken) {
			t.Errorf("%s: after the error, EncoderStream returned %v; want ErrBroken", tt.label, err)
		}
	}
}

func TestDecodeSectionEvictedReference(t *testing.T) {
	// MaxEntries 2: a Required Insert Count of 3 is encoded 3%4+1 = 4.
	d := New(Settings{MaxTableCapacity: 70})
	if err := d.EncoderStream(join(setCapacity(70), insertLiteral("a", "1"), insertLiteral("b", "2"), insertLiteral("c", "3"))); err != nil {
		t.Fatal(err)
	}
	_, _, err := d.DecodeSection(0, mustHex(t, "0400 82"))
	wantError(t, "reference to the evicted entry 0", err, DecompressionFailed, 2, "§2.2.3")
}

func TestDecodeSectionBlocked(t *testing.T) {
	inserts := mustHex(t, b2EncoderStream)
	d := New(Settings{MaxTableCapacity: 220, BlockedStreams: 2})
	if err := d.EncoderStream(inserts[:3]); err != nil { // the capacity only
		t.Fatal(err)
	}
	for _, id := range []uint64{4, 8} {
		if fields, status, err := d.DecodeSection(id, mustHex(t, "03811011")); err != nil || status != Blocked || fields != nil {
			t.Fatalf("stream %d: %v, status %d, %v; want Blocked", id, fields, status, err)
		}
	}
	if err := d.Cancel(8); err != nil {
		t.Fatal(err)
	}
	if err := d.EncoderStream(inserts[3:20]); err != nil { // the first insert
		t.Fatal(err)
	}
	if got := d.Unblocked(); len(got) != 0 {
		t.Errorf("after one of two inserts: unblocked %v; want none", got)
	}
	if err := d.EncoderStream(inserts[20:]); err != nil {
		t.Fatal(err)
	}
	got := d.Unblocked()
	if len(got) != 1 || got[0].StreamID != 4 {
		t.Fatalf("unblocked %v; want stream 4 alone (8 was cancelled)", got)
	}
	wantFields(t, "unblocked stream 4", got[0].Fields, []spec.Field{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}})
	if out := d.DecoderStreamOut(); !bytes.Equal(out, []byte{0x48, 0x84}) {
		t.Errorf("decoder stream %x; want the cancellation of 8, then the acknowledgment of 4: 48 84", out)
	}
	if ids := d.BlockedStreams(); len(ids) != 0 {
		t.Errorf("still blocked: %v", ids)
	}
}

func TestDecodeSectionBlockedLimit(t *testing.T) {
	d := New(Settings{MaxTableCapacity: 220, BlockedStreams: 2})
	for _, id := range []uint64{0, 4} {
		if _, status, err := d.DecodeSection(id, mustHex(t, "03811011")); err != nil || status != Blocked {
			t.Fatalf("stream %d: status %d, %v; want Blocked", id, status, err)
		}
	}
	_, _, err := d.DecodeSection(8, mustHex(t, "03811011"))
	wantError(t, "a third blocked stream with a limit of 2", err, DecompressionFailed, 0, "§2.2.1")
}

// TestDecodeSectionWrapAround references the newest entry after each of
// 20 inserts into a table of MaxEntries 4, so that the encoded Required
// Insert Count wraps at 8 twice.
func TestDecodeSectionWrapAround(t *testing.T) {
	const maxCapacity = 128
	d := New(Settings{MaxTableCapacity: maxCapacity})
	if err := d.EncoderStream(setCapacity(maxCapacity)); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 20; n++ {
		value := strings.Repeat("v", int(n%3))
		if err := d.EncoderStream(insertLiteral("k", value)); err != nil {
			t.Fatal(err)
		}
		section := append(qspec.AppendPrefix(nil, n, n, qspec.MaxEntries(maxCapacity)), 0x80)
		fields, status, err := d.DecodeSection(n, section)
		if err != nil || status != Decoded {
			t.Fatalf("after %d inserts, section %x: status %d, %v", n, section, status, err)
		}
		wantFields(t, "newest entry", fields, []spec.Field{{Name: "k", Value: value}})
	}
}

func TestDecodeSectionMaxFieldSectionSize(t *testing.T) {
	d := New(Settings{MaxFieldSectionSize: 50})
	// :path /index.html is 5 + 11 + 32 = 48 octets: once fits, twice not.
	line := mustHex(t, "510b2f696e6465782e68746d6c")
	if _, _, err := d.DecodeSection(0, join([]byte{0, 0}, line)); err != nil {
		t.Fatal(err)
	}
	_, _, err := d.DecodeSection(4, join([]byte{0, 0}, line, line))
	wantError(t, "two fields over 50 octets", err, ErrFieldSectionTooLarge, 15, "RFC 9114 §4.2.2")
	if _, _, err := d.DecodeSection(8, join([]byte{0, 0}, line)); err != nil {
		t.Errorf("after a section over the limit: %v; want the decoder still usable", err)
	}
}

// TestDecodeSectionTooLargeCancels checks that a section refused for its
// size, which references the dynamic table, is cancelled rather than
// acknowledged.
func TestDecodeSectionTooLargeCancels(t *testing.T) {
	d := New(Settings{MaxTableCapacity: 220, MaxFieldSectionSize: 60})
	if err := d.EncoderStream(mustHex(t, b2EncoderStream)); err != nil {
		t.Fatal(err)
	}
	_, _, err := d.DecodeSection(4, mustHex(t, "03811011"))
	wantError(t, "B.2's section over 60 octets", err, ErrFieldSectionTooLarge, 3, "RFC 9114 §4.2.2")
	if out := d.DecoderStreamOut(); !bytes.Equal(out, []byte{0x44, 0x02}) {
		t.Errorf("decoder stream %x; want the cancellation of stream 4 and an increment of 2: 44 02", out)
	}
}

// TestDecodeSectionQuicGo decodes what quic-go/qpack's encoder writes
// (static references and literals only) to the fields it was given.
func TestDecodeSectionQuicGo(t *testing.T) {
	fields := []qpack.HeaderField{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/index.html"},
		{Name: ":status", Value: "200"},
		{Name: "content-type", Value: "text/plain"},
		{Name: "x-custom", Value: strings.Repeat("header value ", 20)},
		{Name: "cookie", Value: ""},
		{Name: "authorization", Value: "secret"},
	}
	var buf bytes.Buffer
	enc := qpack.NewEncoder(&buf)
	for _, f := range fields {
		if err := enc.WriteField(f); err != nil {
			t.Fatal(err)
		}
	}
	d := New(Settings{MaxTableCapacity: 4096, BlockedStreams: 16})
	got, status, err := d.DecodeSection(0, buf.Bytes())
	if err != nil || status != Decoded {
		t.Fatalf("decoding %x: status %d, %v", buf.Bytes(), status, err)
	}
	want := make([]spec.Field, len(fields))
	for i, f := range fields {
		want[i] = spec.Field{Name: f.Name, Value: f.Value}
	}
	wantFields(t, "quic-go/qpack", got, want)
}
