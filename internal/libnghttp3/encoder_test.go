//go:build nghttp3

package libnghttp3

import (
	"errors"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// traffic returns the embedded QIF traffic.
func traffic(tb testing.TB) []qif.File {
	tb.Helper()
	files, err := qif.Traffic()
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// sectionAck returns the Section Acknowledgment of stream (RFC 9204
// §4.4.1) when section references the dynamic table, nil when it does
// not: an acknowledgment of such a section is a decoder-stream error.
func sectionAck(tb testing.TB, stream uint64, section []byte) []byte {
	tb.Helper()
	pf, _, err := qspec.ReadPrefix(section)
	if err != nil {
		tb.Fatalf("stream %d: section prefix: %v", stream, err)
	}
	if pf.EncodedInsertCount == 0 {
		return nil
	}
	return encoder.AppendInteger(nil, 0x80, 7, stream)
}

// TestEncoderDecoderQIF sends the QIF traffic through libnghttp3's
// encoder and decoder, one connection per file, the decoder's
// acknowledgments fed back to the encoder after each section, and checks
// every header list comes out as it went in.
func TestEncoderDecoderQIF(t *testing.T) {
	for _, f := range traffic(t) {
		enc, err := NewEncoder(4096, 100)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := NewDecoder(4096, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		inserted := false
		for i, list := range f.HeaderLists {
			stream := uint64(4 * i)
			section, es, err := enc.Encode(stream, list)
			if err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
			inserted = inserted || len(es) > 0
			if _, err := dec.ReadEncoder(es); err != nil {
				t.Fatalf("%s: list %d: encoder stream: %v", f.Name, i, err)
			}
			got, err := dec.Decode(stream, section)
			if err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
			if got.Blocked || !equalFields(got.Fields, list) {
				t.Fatalf("%s: list %d: got %+v; want %v", f.Name, i, got, list)
			}
			ds, err := dec.DecoderStream()
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.ReadDecoder(ds); err != nil {
				t.Fatalf("%s: list %d: decoder stream %x: %v", f.Name, i, ds, err)
			}
		}
		if !inserted {
			t.Errorf("%s: the encoder never wrote on the encoder stream: its dynamic table is unused", f.Name)
		}
		enc.Close()
		dec.Close()
	}
}

func equalFields(got, want []Field) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// TestEncoderSensitive checks a Sensitive field is sent as a literal with
// the N bit and comes back Sensitive, never inserted.
func TestEncoderSensitive(t *testing.T) {
	enc, _ := NewEncoder(4096, 100)
	defer enc.Close()
	dec, _ := NewDecoder(4096, 100, 0)
	defer dec.Close()
	list := []Field{{Name: "authorization", Value: "secret", Sensitive: true}, {Name: "x-plain", Value: "v"}}
	section, es, err := enc.Encode(0, list)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dec.ReadEncoder(es); err != nil {
		t.Fatal(err)
	}
	got, err := dec.Decode(0, section)
	if err != nil {
		t.Fatal(err)
	}
	if !equalFields(got.Fields, list) {
		t.Errorf("got %+v; want %+v", got.Fields, list)
	}
}

// TestEncoderDecoderStreamError checks libnghttp3's encoder refuses a
// Section Acknowledgment for a stream with nothing outstanding (RFC 9204
// §4.4.1) as a QPACK_DECODER_STREAM_ERROR, and is unusable after.
func TestEncoderDecoderStreamError(t *testing.T) {
	enc, _ := NewEncoder(4096, 100)
	defer enc.Close()
	err := enc.ReadDecoder(encoder.AppendInteger(nil, 0x80, 7, 8))
	var e *Error
	if !errors.As(err, &e) || e.RFCCode() != qpack.DecoderStreamError {
		t.Fatalf("got %v; want an *Error with code %s", err, qpack.DecoderStreamError)
	}
	if _, _, err := enc.Encode(0, nil); err == nil {
		t.Error("Encode after a decoder-stream error succeeded")
	}
}

// TestEncoderStreamID checks a stream id over 62 bits is an error, not a
// call into C with a negative id.
func TestEncoderStreamID(t *testing.T) {
	enc, _ := NewEncoder(4096, 100)
	defer enc.Close()
	if _, _, err := enc.Encode(1<<62, nil); err == nil {
		t.Error("Encode of stream 2^62 succeeded")
	}
}
