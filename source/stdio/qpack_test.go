package stdio_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/qencoder"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// qpackLists are header lists with fields repeated across them, so that
// the reference encoder inserts and references entries; one is sensitive.
func qpackLists() [][]qpack.Field {
	var lists [][]qpack.Field
	for i := range 12 {
		lists = append(lists, []qpack.Field{
			{Name: ":method", Value: "GET"},
			{Name: ":path", Value: fmt.Sprintf("/item/%d", i%3)},
			{Name: "user-agent", Value: "hpackcert-test/1.0"},
			{Name: "x-request", Value: fmt.Sprintf("r%d", i)},
			{Name: "authorization", Value: "Bearer token", Sensitive: true},
			{Name: "x-octets", Value: "a\xc0\xffb"},
		})
	}
	return lists
}

// refCommand returns the command of cmd/hpackcert-stdio-ref with args.
func refCommand(t *testing.T, args string) string {
	return "'" + filepath.Join(stdioBinaries(t), "hpackcert-stdio-ref") + "' " + args
}

// TestExecQPACKEncoderRef round trips the reference QPACK encoder, the
// -qpack-encoder mode of cmd/hpackcert-stdio-ref, over real pipes: every
// section it writes, after its encoder-stream octets, decodes with the
// strict decoder to the list sent, the decoder's acknowledgements going
// back to it; the dynamic table is used; a table capacity of 0 gets no
// encoder-stream octet; a Section Acknowledgment for a stream with
// nothing outstanding is refused as QPACK_DECODER_STREAM_ERROR; and a
// Restart gives a fresh program, the old connection gone.
func TestExecQPACKEncoderRef(t *testing.T) {
	target, err := stdio.ExecQPACKEncoder(refCommand(t, "-qpack-encoder"), stdio.ExecOptions{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if want := "hpackcert-stdio-ref qpack encoder (capacity 4096)"; target.Name() != want {
		t.Errorf("Name() = %q; want %q", target.Name(), want)
	}
	for _, settings := range []qpack.Settings{testSettings, {MaxTableCapacity: 0, BlockedStreams: 0}} {
		e, err := target.NewEncoder(settings)
		if err != nil {
			t.Fatal(err)
		}
		strict := qstrict.New(qstrict.Settings(settings))
		var written int
		for i, list := range qpackLists() {
			stream := uint64(4 * i)
			section, enc, err := e.EncodeSection(stream, list)
			if err != nil {
				t.Fatalf("capacity %d: list %d: %v", settings.MaxTableCapacity, i, err)
			}
			written += len(enc)
			if err := strict.EncoderStream(enc); err != nil {
				t.Fatalf("capacity %d: list %d: encoder stream: %v", settings.MaxTableCapacity, i, err)
			}
			got, status, err := strict.DecodeSection(stream, section)
			if err != nil || status != qstrict.Decoded || !reflect.DeepEqual(got, list) {
				t.Errorf("capacity %d: list %d: %+v, %v, %v; want %+v", settings.MaxTableCapacity, i, got, status, err, list)
			}
			if _, err := e.DecoderStream(strict.DecoderStreamOut()); err != nil {
				t.Errorf("capacity %d: list %d: decoder stream: %v", settings.MaxTableCapacity, i, err)
			}
		}
		if (written > 0) != (settings.MaxTableCapacity > 0) {
			t.Errorf("capacity %d: %d encoder-stream octets", settings.MaxTableCapacity, written)
		}
		if settings.MaxTableCapacity > 0 && strict.KnownReceivedCount() == 0 {
			t.Errorf("capacity %d: no insert was acknowledged: the dynamic table went unused", settings.MaxTableCapacity)
		}
	}
	e, err := target.NewEncoder(testSettings)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.DecoderStream([]byte{0x80 | 0x7f, 0x01}) // Section Acknowledgment of stream 128
	if ce := qpack.AsConnectionError(err); ce == nil || ce.Code != qpack.DecoderStreamError {
		t.Errorf("an acknowledgment of nothing: %v; want a connection error %s", err, qpack.DecoderStreamError)
	}
	target.(certify.Restarter).Restart()
	if _, _, err := e.EncodeSection(0, nil); err == nil {
		t.Errorf("a connection of the program before Restart still answers")
	}
	if e, err = target.NewEncoder(testSettings); err != nil {
		t.Fatalf("NewEncoder after Restart: %v", err)
	}
	if _, _, err := e.EncodeSection(0, qpackLists()[0]); err != nil {
		t.Errorf("EncodeSection after Restart: %v", err)
	}
}

// TestExecQPACKDecoderRef drives the strict QPACK decoder, the
// -qpack-decoder mode of cmd/hpackcert-stdio-ref, with the reference
// encoder's output: sections decode to the lists, each acknowledged when
// it references the table; a section sent ahead of the inserts it needs
// is blocked and returned by the encoder_stream request bringing them; a
// section past SETTINGS_MAX_FIELD_SECTION_SIZE and one with an invalid
// static index are connection errors with their codes.
func TestExecQPACKDecoderRef(t *testing.T) {
	target, err := stdio.ExecQPACKDecoder(refCommand(t, "-qpack-decoder"), stdio.ExecOptions{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	d, err := target.NewDecoder(testSettings)
	if err != nil {
		t.Fatal(err)
	}
	ref := qencoder.New(qencoder.Config{TableCapacity: 4096, PeerMaxTableCapacity: testSettings.MaxTableCapacity})
	acks := 0
	for i, list := range qpackLists() {
		stream := uint64(4 * i)
		section, enc := ref.AppendSection(nil, nil, stream, list)
		_, increments, err := d.EncoderStream(enc)
		if err != nil {
			t.Fatalf("list %d: encoder stream: %v", i, err)
		}
		got, out, err := d.DecodeSection(stream, section)
		if err != nil || got.Blocked || !reflect.DeepEqual(got.Fields, list) {
			t.Errorf("list %d: %+v, %v; want %+v", i, got, err, list)
		}
		if len(out) > 0 {
			acks++
		}
		if _, err := ref.DecoderStream(append(increments, out...)); err != nil {
			t.Errorf("list %d: the decoder's octets %x: %v", i, out, err)
		}
	}
	if acks == 0 {
		t.Errorf("no section was acknowledged: none referenced the dynamic table")
	}
	// A fresh connection: a section referencing the first insert, before it.
	if d, err = target.NewDecoder(testSettings); err != nil {
		t.Fatal(err)
	}
	got, _, err := d.DecodeSection(8, []byte{0x02, 0x00, 0x80})
	if err != nil || !got.Blocked {
		t.Fatalf("a section ahead of its insert: %+v, %v; want it blocked", got, err)
	}
	unblocked, out, err := d.EncoderStream([]byte{0x3f, 0xe1, 0x1f, 0x43, 'x', '-', 'a', 0x01, 'b'})
	want := []qpack.Decoded{{Stream: 8, Fields: []qpack.Field{{Name: "x-a", Value: "b"}}}}
	if err != nil || !reflect.DeepEqual(unblocked, want) || len(out) == 0 || out[0] != 0x88 {
		t.Errorf("the insert: %+v, %x, %v; want %+v and a Section Acknowledgment (88)", unblocked, out, err, want)
	}
	for _, tt := range []struct {
		settings qpack.Settings
		section  []byte
		code     string
	}{
		{qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100, MaxFieldSectionSize: 40}, []byte{0, 0, 0x23, 'a', 'b', 'c', 0x07, 'v', 'v', 'v', 'v', 'v', 'v', 'v'}, qpack.FieldSectionTooLarge},
		{testSettings, []byte{0, 0, 0xff, 0x64}, qpack.DecompressionFailed},
	} {
		d, err := target.NewDecoder(tt.settings)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = d.DecodeSection(0, tt.section)
		if ce := qpack.AsConnectionError(err); ce == nil || ce.Code != tt.code {
			t.Errorf("section %x: %v; want a connection error %s", tt.section, err, tt.code)
		}
	}
}
