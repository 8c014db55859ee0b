//go:build nghttp3

package libnghttp3

import (
	"bytes"
	"errors"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
)

// Encoder-stream instructions and sections of RFC 9204 §4.3 and §4.5,
// written out for the tests.
var (
	setCapacity4096 = encoder.AppendInteger(nil, 0x20, 5, 4096)
	insertAB        = []byte{0x41, 'a', 0x01, 'b'} // Insert with Literal Name a: b
	// blockedSection has Required Insert Count 1 (encoded as 2 for
	// MaxEntries 128) and Base 1, and references the entry of insert 0.
	blockedSection = []byte{0x02, 0x00, 0x80}
)

// staticSection returns a section of Indexed Field Lines of the static
// entries indices, with Required Insert Count 0.
func staticSection(indices ...uint64) []byte {
	section := []byte{0, 0}
	for _, i := range indices {
		section = encoder.AppendInteger(section, 0xc0, 6, i)
	}
	return section
}

// TestDecoderErrors checks the connection error libnghttp3 (or this
// package's limits around it) reports for each bad input.
func TestDecoderErrors(t *testing.T) {
	tests := []struct {
		name                   string
		blocked, maxSection    uint64
		encoderStream, section []byte
		want                   string
		why                    string
	}{
		{"capacity above max", 100, 0, encoder.AppendInteger(nil, 0x20, 5, 8192), nil, qpack.EncoderStreamError,
			"§4.3.1: a capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY"},
		{"static index 99 inserted", 100, 0, append(append([]byte(nil), setCapacity4096...), 0xc0|63, 99-63, 0x01, 'v'), nil,
			qpack.EncoderStreamError, "§3.1: the static table has 99 entries, 0 to 98"},
		{"static index 99 in a section", 100, 0, nil, staticSection(99), qpack.DecompressionFailed,
			"§3.1: an invalid static index in a field line"},
		{"section cut in its prefix", 100, 0, nil, []byte{0x00}, qpack.DecompressionFailed,
			"§4.5.1: the section ends before its Base"},
		{"blocked beyond the setting", 0, 0, setCapacity4096, blockedSection, qpack.DecompressionFailed,
			"§2.1.2: SETTINGS_QPACK_BLOCKED_STREAMS 0 allows no blocked stream"},
		{"header list over the limit", 100, 50, nil, staticSection(17, 17), qpack.FieldSectionTooLarge,
			"RFC 9114 §4.2.2: two :method GET fields are 84 octets, over 50"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := NewDecoder(4096, tc.blocked, tc.maxSection)
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Close()
			_, err = dec.ReadEncoder(tc.encoderStream)
			if err == nil && tc.section != nil {
				_, err = dec.Decode(0, tc.section)
			}
			var e *Error
			if !errors.As(err, &e) || e.RFCCode() != tc.want {
				t.Fatalf("got %v; want an *Error with code %s (%s)", err, tc.want, tc.why)
			}
			if _, err := dec.Decode(4, staticSection(17)); err == nil {
				t.Error("Decode after a connection error succeeded")
			}
		})
	}
}

// TestDecoderBlocked checks a section waiting for an insert is held, then
// returned by the ReadEncoder that brings it, with its Section
// Acknowledgment (§4.4.1) on the decoder stream.
func TestDecoderBlocked(t *testing.T) {
	dec, _ := NewDecoder(4096, 1, 0)
	defer dec.Close()
	got, err := dec.Decode(4, blockedSection)
	if err != nil || !got.Blocked {
		t.Fatalf("Decode: got %+v, %v; want blocked", got, err)
	}
	unblocked, err := dec.ReadEncoder(setCapacity4096)
	if err != nil || len(unblocked) != 0 {
		t.Fatalf("ReadEncoder of a capacity: got %+v, %v; want nothing unblocked", unblocked, err)
	}
	unblocked, err = dec.ReadEncoder(insertAB)
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{{Name: "a", Value: "b"}}
	if len(unblocked) != 1 || unblocked[0].Stream != 4 || !equalFields(unblocked[0].Fields, want) {
		t.Fatalf("unblocked: got %+v; want stream 4 with %v", unblocked, want)
	}
	ds, err := dec.DecoderStream()
	if err != nil {
		t.Fatal(err)
	}
	if ack := encoder.AppendInteger(nil, 0x80, 7, 4); !bytes.Equal(ds, ack) {
		t.Errorf("decoder stream: got %x; want the Section Acknowledgment of stream 4, %x", ds, ack)
	}
}

// TestDecoderCancel checks a reset stream's blocked section is dropped and
// a Stream Cancellation (§4.4.2) written.
func TestDecoderCancel(t *testing.T) {
	dec, _ := NewDecoder(4096, 1, 0)
	defer dec.Close()
	if got, err := dec.Decode(8, blockedSection); err != nil || !got.Blocked {
		t.Fatalf("Decode: got %+v, %v; want blocked", got, err)
	}
	if err := dec.Cancel(8); err != nil {
		t.Fatal(err)
	}
	ds, err := dec.DecoderStream()
	if err != nil {
		t.Fatal(err)
	}
	if cancel := encoder.AppendInteger(nil, 0x40, 6, 8); !bytes.Equal(ds, cancel) {
		t.Errorf("decoder stream: got %x; want the Stream Cancellation of stream 8, %x", ds, cancel)
	}
	unblocked, err := dec.ReadEncoder(append(append([]byte(nil), setCapacity4096...), insertAB...))
	if err != nil || len(unblocked) != 0 {
		t.Errorf("ReadEncoder after the cancel: got %+v, %v; want nothing unblocked", unblocked, err)
	}
	// The cancelled section no longer counts against the one blocked
	// stream allowed.
	if got, err := dec.Decode(12, []byte{0x03, 0x00, 0x80}); err != nil || !got.Blocked {
		t.Errorf("Decode after the cancel: got %+v, %v; want blocked", got, err)
	}
}

// TestClosedFreesMemory checks closing an encoder and a decoder, one with
// a section still blocked, gives back every C byte they held.
func TestClosedFreesMemory(t *testing.T) {
	before := liveCBytes()
	enc, _ := NewEncoder(4096, 100)
	dec, _ := NewDecoder(4096, 100, 0)
	blocked, _ := NewDecoder(4096, 100, 0)
	for i, list := range traffic(t)[0].HeaderLists {
		section, es, err := enc.Encode(uint64(4*i), list)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dec.ReadEncoder(es); err != nil {
			t.Fatal(err)
		}
		if _, err := dec.Decode(uint64(4*i), section); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := blocked.Decode(0, blockedSection); err != nil || !got.Blocked {
		t.Fatalf("Decode: got %+v, %v; want blocked", got, err)
	}
	if liveCBytes() == before {
		t.Fatal("an encoder and a decoder with tables hold no C memory: the count is broken")
	}
	enc.Close()
	dec.Close()
	blocked.Close()
	if after := liveCBytes(); after != before {
		t.Errorf("C heap: %d bytes before, %d after Close", before, after)
	}
}
