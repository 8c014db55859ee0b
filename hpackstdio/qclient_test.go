package hpackstdio

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// scriptOp returns the op of a request line to a scripted helper: a
// QPACK request for the modes "qscript" (an encoder) and "qdecscript" (a
// decoder), an HPACK one, checked complete, for the others.
func scriptOp(mode string, line []byte) (string, error) {
	if strings.HasPrefix(mode, "q") {
		req, err := ParseQRequest(line, mode == "qdecscript")
		if err != nil {
			return "", err
		}
		return req.Op, nil
	}
	req, err := ParseRequest(line, true)
	if err != nil {
		return "", err
	}
	return req.Op, nil
}

// qScriptDefaults are the answers of a scripted QPACK helper, by op, that
// its arguments do not replace.
var qScriptDefaults = map[string]string{
	OpHello: `{"name":"q","qpack":true}`, OpNew: `{}`, OpEncode: `{"section":"0000"}`, OpDecoderStream: `{}`,
	OpEncoderStream: `{}`, OpDecode: `{"headers":[],"sensitive":[]}`, OpCancel: `{}`,
}

// qScriptAnswers returns the answers of a scripted QPACK helper whose
// arguments are "op=answer" (runScript's answers and actions).
func qScriptAnswers(args []string) map[string]string {
	answers := map[string]string{}
	for op, a := range qScriptDefaults {
		answers[op] = a
	}
	for _, arg := range args {
		op, a, _ := strings.Cut(arg, "=")
		answers[op] = a
	}
	return answers
}

// startQ starts a scripted QPACK helper of the encoder side, or of the
// decoder side when decoder is set, with answers op=answer, for the
// test's lifetime; requests after hello get timeout. It returns the
// client of its side, and the program the two share.
func startQ(t *testing.T, decoder bool, timeout time.Duration, answers ...string) (*QEncoderClient, *QDecoderClient, *qprogram, error) {
	t.Helper()
	var enc *QEncoderClient
	var dec *QDecoderClient
	var q *qprogram
	var err error
	if decoder {
		if dec, err = StartQPACKDecoder(append([]string{os.Args[0], "qdecscript"}, answers...), startOptions(Options{})); err == nil {
			q = &dec.qprogram
		}
	} else if enc, err = StartQPACKEncoder(append([]string{os.Args[0], "qscript"}, answers...), startOptions(Options{})); err == nil {
		q = &enc.qprogram
	}
	if err != nil {
		return nil, nil, nil, err
	}
	t.Cleanup(func() { q.Close() })
	q.timeout = timeout
	return enc, dec, q, nil
}

// TestQPACKHelloSides checks that a QPACK client refuses a program whose
// hello does not say "qpack":true, and an HPACK client one that does,
// each saying which protocol the program speaks.
func TestQPACKHelloSides(t *testing.T) {
	for _, tt := range []struct {
		hello, want string
	}{
		{`{"name":"x"}`, `encoder broke hpack-stdio at request 1: the program speaks HPACK, not QPACK (no "qpack":true in its hello answer)`},
		{`{"name":"x","qpack":false}`, `the program speaks HPACK, not QPACK (no "qpack":true in its hello answer)`},
		{`{"name":"x","qpack":"yes"}`, `the "qpack" of the answer to hello is a string, not a boolean`},
		{`{"qpack":true}`, `the answer to hello has no "name"`},
	} {
		_, _, _, err := startQ(t, false, slowTimeout, "hello="+tt.hello)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("hello %s: error %v; want one containing %q", tt.hello, err, tt.want)
		}
	}
	const speaksQPACK = `says "qpack":true: the program speaks QPACK, not HPACK`
	if _, err := Start(scriptArgs(`{"name":"x","qpack":true}`, `{}`, `{}`), startOptions(Options{})); err == nil || !strings.Contains(err.Error(), speaksQPACK) {
		t.Errorf("HPACK encoder client of a QPACK program: %v; want %q", err, speaksQPACK)
	}
	for _, hello := range []string{`{"name":"x","decoder":true,"qpack":true}`, `{"name":"x","qpack":true}`} {
		d, err := StartDecoder(scriptDecoderArgs(hello, `{}`, `{}`), startOptions(Options{}))
		if err == nil {
			d.Close()
		}
		if err == nil || !strings.Contains(err.Error(), speaksQPACK) {
			t.Errorf("HPACK decoder client of %s: %v; want %q", hello, err, speaksQPACK)
		}
	}
}

// TestQPACKBreakdowns drives scripted QPACK programs that break the
// protocol after hello, and checks that each is a *BreakdownError naming
// the fault, with the program stopped; and that error answers are
// *AnswerErrors, refusals or not as the op and code say.
func TestQPACKBreakdowns(t *testing.T) {
	const bigAnswer = 10 << 20
	tests := []struct {
		name    string
		decoder bool
		answer  string // op=answer
		want    string // in the error
		refusal string // for an error answer: "-" when it is none, else its code ("" for none)
		timeout time.Duration
	}{
		{"bad hex", false, `encode={"section":"zz"}`, `the answer to encode has a "section" that is not hex (a non-hex digit at offset 0)`, "", 0},
		{"odd hex", false, `encode={"section":"000"}`, `has a "section" that is not hex (an odd number of digits, 3)`, "", 0},
		{"no section", false, `encode={"encoder_stream":""}`, `the answer to encode has no "section" (nor "error")`, "", 0},
		{"wrong type", false, `encode={"section":0}`, `the "section" of the answer to encode is a number, not a string`, "", 0},
		{"junk member", false, `encode={"section":"00","junk":1}`, `has "junk", a member hpack-stdio/1 does not define`, "", 0},
		{"junk after", false, `encode={"section":"00"} x`, `the answer to encode is not JSON (at octet 18)`, "", 0},
		{"foreign member", false, `decoder_stream={"decoder_stream":""}`, `has "decoder_stream", a member of a QPACK decoder's answers`, "", 0},
		{"code alone", false, `encode={"section":"00","code":"X"}`, `has a "code" without an "error"`, "", 0},
		{"bad code", false, `decoder_stream={"error":"x","code":"oops"}`, `has the "code" "oops", not an error code`, "", 0},
		{"10 MiB", false, "encode=section " + strconv.Itoa(bigAnswer), "an answer of more than 2162688 octets", "", 0},
		{"exit", false, "encode=exit", "the encoder exited (exit status 3) without answering encode", "", 0},
		{"hang", false, "encode=hang", "no answer to encode within 300ms", "", provokeTimeout},
		{"no sensitive", true, `decode={"headers":[["a","b"]]}`, `the answer to decode has no "sensitive"`, "", 0},
		{"blocked false", true, `decode={"blocked":false}`, `has "blocked":false`, "", 0},
		{"blocked and headers", true, `decode={"blocked":true,"headers":[],"sensitive":[]}`, `has both "headers" and "blocked"`, "", 0},
		{"unblocked junk", true, `encoder_stream={"unblocked":[{"stream":4,"headers":[],"sensitive":[],"x":1}]}`, `has "x", which an unblocked section does not have`, "", 0},
		{"unblocked stream", true, `encoder_stream={"unblocked":[{"stream":-4,"headers":[],"sensitive":[]}]}`, `the answer to encoder_stream (unblocked section 0): "stream" is -4, not an integer from 0 to 2^62-1`, "", 0},
		{"unblocked headers", true, `encoder_stream={"unblocked":[{"stream":4,"headers":{},"sensitive":[]}]}`, `the "headers" of the answer to encoder_stream (unblocked section 0) is an object, not an array`, "", 0},
		{"decoder exit", true, "decode=exit", "the decoder exited (exit status 3) without answering decode", "", 0},
		{"coded refusal", false, `decoder_stream={"error":"no such stream","code":"QPACK_DECODER_STREAM_ERROR"}`, "encoder answered request 4 (decoder_stream) with the error QPACK_DECODER_STREAM_ERROR: no such stream", "QPACK_DECODER_STREAM_ERROR", 0},
		{"encode error", false, `encode={"error":"cannot"}`, "encoder answered request 3 (encode) with an error: cannot", "-", 0},
		{"decode refusal", true, `decode={"error":"bad section"}`, "decoder answered request 4 (decode) with an error: bad section", "", 0},
	}
	for _, tt := range tests {
		timeout := tt.timeout
		if timeout == 0 {
			timeout = slowTimeout
		}
		enc, dec, q, err := startQ(t, tt.decoder, timeout, tt.answer)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if err = q.New(QSettings{MaxTableCapacity: 4096, BlockedStreams: 100}); err != nil {
			t.Fatalf("%s: new: %v", tt.name, err)
		}
		if tt.decoder {
			err = qDecoderRequests(dec)
		} else {
			err = qEncoderRequests(enc)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want one containing %q", tt.name, err, tt.want)
			continue
		}
		var ae *AnswerError
		var be *BreakdownError
		switch {
		case tt.refusal == "" && !errors.As(err, &ae):
			if !errors.As(err, &be) || q.Err() == nil {
				t.Errorf("%s: %T %v, program error %v; want a *BreakdownError, the program stopped", tt.name, err, err, q.Err())
			}
		case tt.refusal == "-":
			if QPACKRefusal(err) != nil {
				t.Errorf("%s: %v is a refusal; an error answer to encode without a code is none", tt.name, err)
			}
		default:
			if r := QPACKRefusal(err); r == nil || r.Code != tt.refusal || q.Err() != nil {
				t.Errorf("%s: refusal %+v, program error %v; want one of code %q, the program running", tt.name, r, q.Err(), tt.refusal)
			}
		}
		if tt.name == "hang" && !errors.Is(err, ErrTimeout) {
			t.Errorf("hang: %v does not match ErrTimeout", err)
		}
	}
}

// qEncoderRequests makes one request of each op after new until one
// fails: encode, decoder_stream.
func qEncoderRequests(c *QEncoderClient) error {
	if _, _, err := c.Encode(0, []Field{{Name: "a", Value: "b"}}); err != nil {
		return err
	}
	_, err := c.DecoderStream([]byte{0x80})
	return err
}

// qDecoderRequests makes one request of each op after new until one
// fails: encoder_stream, decode, cancel.
func qDecoderRequests(c *QDecoderClient) error {
	if _, _, err := c.EncoderStream([]byte{0x3f, 0xe1, 0x1f}); err != nil {
		return err
	}
	if _, _, err := c.DecodeSection(4, []byte{0, 0, 0xd1}); err != nil {
		return err
	}
	_, err := c.Cancel(4)
	return err
}

// TestQPACKClientsRef drives the reference QPACK encoder and the strict
// QPACK decoder, the two QPACK modes of cmd/hpackcert-stdio-ref, with the
// two clients over real pipes, in both forms of names and values: the
// encoder's encoder-stream octets and sections go to the decoder, and the
// decoder's acknowledgements back to the encoder; the header lists must
// come back as sent. Then a section ahead of the inserts it needs must
// block and be unblocked by them, and a section with an invalid static
// index be refused with its code.
func TestQPACKClientsRef(t *testing.T) {
	ref := filepath.Join(testenv.BuildCommands(t, "cmd/hpackcert-stdio-ref"), "hpackcert-stdio-ref")
	settings := QSettings{MaxTableCapacity: 4096, BlockedStreams: 100}
	lists := [][]Field{
		{{Name: ":method", Value: "GET"}, {Name: "x-custom", Value: "one"}},
		{{Name: ":method", Value: "GET"}, {Name: "x-custom", Value: "one"}, {Name: "authorization", Value: "secret", Sensitive: true}},
		{{Name: "x-custom", Value: "one"}, {Name: "x-other", Value: "two"}},
	}
	for _, flag := range []string{"", "-utf8-only"} {
		enc, err := StartQPACKEncoder([]string{ref, "-qpack-encoder", flag}, startOptions(Options{}))
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		dec, err := StartQPACKDecoder([]string{ref, "-qpack-decoder", flag}, startOptions(Options{}))
		if err != nil {
			t.Fatal(err)
		}
		defer dec.Close()
		if enc.Binary() != (flag == "") || dec.Binary() != (flag == "") {
			t.Errorf("%q: binary %t and %t", flag, enc.Binary(), dec.Binary())
		}
		if err := enc.New(settings); err != nil {
			t.Fatal(err)
		}
		if err := dec.New(settings); err != nil {
			t.Fatal(err)
		}
		referenced := false
		for i, list := range lists {
			stream := uint64(4 * i)
			section, encStream, err := enc.Encode(stream, list)
			if err != nil {
				t.Fatalf("%q: encode %d: %v", flag, i, err)
			}
			referenced = referenced || section[0] != 0 // a Required Insert Count
			unblocked, toEncoder, err := dec.EncoderStream(encStream)
			if err != nil || len(unblocked) > 0 {
				t.Fatalf("%q: encoder_stream %d: %+v, %v; want nothing unblocked", flag, i, unblocked, err)
			}
			got, ack, err := dec.DecodeSection(stream, section)
			if err != nil {
				t.Fatalf("%q: decode %d: %v", flag, i, err)
			}
			if got.Blocked || got.Stream != stream || !reflect.DeepEqual(got.Fields, list) {
				t.Errorf("%q: list %d decoded as %+v; want stream %d, %+v", flag, i, got, stream, list)
			}
			if _, err := enc.DecoderStream(append(toEncoder, ack...)); err != nil {
				t.Errorf("%q: decoder_stream %d: %v", flag, i, err)
			}
		}
		if !referenced {
			t.Errorf("%q: no section referenced the dynamic table: it went untested", flag)
		}
		checkBlocked(t, dec, settings)
		// A section with an invalid static index: a refusal with its code.
		_, _, err = dec.DecodeSection(44, []byte{0, 0, 0xff, 0x64})
		if r := QPACKRefusal(err); r == nil || r.Code != "QPACK_DECOMPRESSION_FAILED" || dec.Err() != nil {
			t.Errorf("%q: invalid static index: %v; want a refusal QPACK_DECOMPRESSION_FAILED", flag, err)
		}
	}
}

// checkBlocked opens a fresh connection of dec and hands it a section
// referencing an entry not yet inserted: it must block, and the encoder
// stream inserting the entry unblock it, acknowledged; a cancel of
// another stream gets its Stream Cancellation.
func checkBlocked(t *testing.T, dec *QDecoderClient, settings QSettings) {
	t.Helper()
	if err := dec.New(settings); err != nil {
		t.Fatal(err)
	}
	// Required Insert Count 1 (encoded 2), Base 1, the dynamic entry 0.
	got, out, err := dec.DecodeSection(8, []byte{0x02, 0x00, 0x80})
	if err != nil || !got.Blocked || len(out) != 0 {
		t.Fatalf("a section needing an insert: %+v, %x, %v; want it blocked, nothing written", got, out, err)
	}
	// Set Dynamic Table Capacity 4096; Insert With Literal Name x-a: b.
	unblocked, out, err := dec.EncoderStream([]byte{0x3f, 0xe1, 0x1f, 0x43, 'x', '-', 'a', 0x01, 'b'})
	want := []QSection{{Stream: 8, Fields: []Field{{Name: "x-a", Value: "b"}}}}
	if err != nil || !reflect.DeepEqual(unblocked, want) {
		t.Errorf("the insert: unblocked %+v, %v; want %+v", unblocked, err, want)
	}
	// A Section Acknowledgment of stream 8; the insert is acknowledged by it.
	if len(out) == 0 || out[0] != 0x88 {
		t.Errorf("the insert: decoder stream %x; want a Section Acknowledgment of stream 8 (88)", out)
	}
	if out, err := dec.Cancel(12); err != nil || len(out) != 1 || out[0] != 0x4c {
		t.Errorf("cancel 12: %x, %v; want a Stream Cancellation (4c)", out, err)
	}
}
