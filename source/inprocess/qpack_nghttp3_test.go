//go:build nghttp3

package inprocess_test

import (
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

var nghttp3Settings = qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100}

func qifTraffic(t *testing.T) []qif.File {
	t.Helper()
	files, err := qif.Traffic()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNghttp3QPACKEncoderQIF encodes the QIF traffic with libnghttp3's
// encoder, one connection per file, and decodes it with the strict
// decoder, whose decoder stream goes back to the encoder after each
// section: every header list must come out as it went in, and the
// dynamic table must be used.
func TestNghttp3QPACKEncoderQIF(t *testing.T) {
	target, err := inprocess.BuiltinQPACKEncoder("nghttp3")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	for _, f := range qifTraffic(t) {
		enc, err := target.NewEncoder(nghttp3Settings)
		if err != nil {
			t.Fatal(err)
		}
		dec := qstrict.New(qstrict.Settings(nghttp3Settings))
		written := 0
		for i, list := range f.HeaderLists {
			stream := uint64(4 * i)
			section, es, err := enc.EncodeSection(stream, list)
			if err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
			written += len(es)
			if err := dec.EncoderStream(es); err != nil {
				t.Fatalf("%s: list %d: encoder stream %x: %v", f.Name, i, es, err)
			}
			got, status, err := dec.DecodeSection(stream, section)
			if err != nil || status != qstrict.Decoded {
				t.Fatalf("%s: list %d: section %x: status %d, %v", f.Name, i, section, status, err)
			}
			if !slices.Equal(got, list) {
				t.Fatalf("%s: list %d: got %v; want %v", f.Name, i, got, list)
			}
			if _, err := enc.DecoderStream(dec.DecoderStreamOut()); err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
		}
		if written == 0 {
			t.Errorf("%s: nothing written on the encoder stream: the dynamic table is unused", f.Name)
		}
	}
}

// TestNghttp3QPACKDecoderQIF decodes the reference encoder's encoding of
// the QIF traffic with libnghttp3's decoder, whose decoder stream goes
// back to the encoder after each section. Each list must come out as the
// strict decoder has it: the fields sent, Sensitive on those the
// reference sent with the N bit (short cookies).
func TestNghttp3QPACKDecoderQIF(t *testing.T) {
	target, err := inprocess.BuiltinQPACKDecoder("nghttp3")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	sensitive := 0
	for _, f := range qifTraffic(t) {
		enc, err := inprocess.NewRefQPACKEncoder(nghttp3Settings)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := target.NewDecoder(nghttp3Settings)
		if err != nil {
			t.Fatal(err)
		}
		strict := qstrict.New(qstrict.Settings(nghttp3Settings))
		written := 0
		for i, list := range f.HeaderLists {
			stream := uint64(4 * i)
			section, es, err := enc.EncodeSection(stream, list)
			if err != nil {
				t.Fatal(err)
			}
			written += len(es)
			want := strictDecode(t, strict, stream, section, es)
			if !slices.EqualFunc(want, list, func(a, b qpack.Field) bool { return a.Name == b.Name && a.Value == b.Value }) {
				t.Fatalf("%s: list %d: the strict decoder has %v; want %v", f.Name, i, want, list)
			}
			for _, fl := range want {
				if fl.Sensitive {
					sensitive++
				}
			}
			unblocked, ds, err := dec.EncoderStream(es)
			if err != nil || len(unblocked) != 0 {
				t.Fatalf("%s: list %d: encoder stream %x: unblocked %v, %v", f.Name, i, es, unblocked, err)
			}
			got, ds2, err := dec.DecodeSection(stream, section)
			if err != nil || got.Blocked {
				t.Fatalf("%s: list %d: section %x: %+v, %v", f.Name, i, section, got, err)
			}
			if !slices.Equal(got.Fields, want) {
				t.Fatalf("%s: list %d: got %v; want %v", f.Name, i, got.Fields, want)
			}
			if _, err := enc.DecoderStream(append(ds, ds2...)); err != nil {
				t.Fatalf("%s: list %d: decoder stream %x: %v", f.Name, i, append(ds, ds2...), err)
			}
		}
		if written == 0 {
			t.Errorf("%s: the reference wrote nothing on the encoder stream: the decoder's table is untested", f.Name)
		}
	}
	if sensitive == 0 {
		t.Error("no field line with the N bit: the Sensitive flag of the decoder is untested")
	}
}

// strictDecode returns the header list the strict decoder has for section
// after the encoder-stream octets es.
func strictDecode(t *testing.T, d *qstrict.Decoder, stream uint64, section, es []byte) []qpack.Field {
	t.Helper()
	if err := d.EncoderStream(es); err != nil {
		t.Fatalf("strict decoder: stream %d: %v", stream, err)
	}
	fields, status, err := d.DecodeSection(stream, section)
	if err != nil || status != qstrict.Decoded {
		t.Fatalf("strict decoder: stream %d: status %d, %v", stream, status, err)
	}
	d.DecoderStreamOut()
	return fields
}

// TestNghttp3QPACKErrors checks the connection error codes libnghttp3's
// targets report.
func TestNghttp3QPACKErrors(t *testing.T) {
	decoders, err := inprocess.BuiltinQPACKDecoder("nghttp3")
	if err != nil {
		t.Fatal(err)
	}
	encoders, err := inprocess.BuiltinQPACKEncoder("nghttp3")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY (§4.3.1)", func() error {
			d, _ := decoders.NewDecoder(nghttp3Settings)
			_, _, err := d.EncoderStream(encoder.AppendInteger(nil, 0x20, 5, 4097))
			return err
		}, qpack.EncoderStreamError},
		{"static index 99 in a section (§3.1)", func() error {
			d, _ := decoders.NewDecoder(nghttp3Settings)
			_, _, err := d.DecodeSection(0, encoder.AppendInteger([]byte{0, 0}, 0xc0, 6, 99))
			return err
		}, qpack.DecompressionFailed},
		{"Section Acknowledgment with nothing outstanding (§4.4.1)", func() error {
			e, _ := encoders.NewEncoder(nghttp3Settings)
			_, err := e.DecoderStream(encoder.AppendInteger(nil, 0x80, 7, 0))
			return err
		}, qpack.DecoderStreamError},
	}
	for _, tc := range tests {
		ce := qpack.AsConnectionError(tc.run())
		if ce == nil || ce.Code != tc.want {
			t.Errorf("%s: got %v; want a connection error %s", tc.name, ce, tc.want)
		}
	}
}
