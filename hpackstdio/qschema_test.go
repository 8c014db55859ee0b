package hpackstdio

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/stdioschema"
)

// qschemas loads the QPACK schema's definitions or stops the test.
func qschemas(t *testing.T) stdioschema.Defs {
	t.Helper()
	defs, err := stdioschema.LoadQPACK()
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// TestQSchemaRequests checks every kind of QPACK request MarshalJSON
// writes against the schema (its definition, any request, the whole
// document), and that ParseQRequest reads it back as it was.
func TestQSchemaRequests(t *testing.T) {
	sch := qschemas(t)
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	settings := QSettings{MaxTableCapacity: MaxVarint, BlockedStreams: 0, MaxFieldSectionSize: 65536}
	fields := []Field{{Name: ":path", Value: "/é?a=<b>"}, {Name: "authorization", Value: "x", Sensitive: true}}
	tests := []struct {
		req QRequest
		def string
	}{
		{QRequest{Op: OpHello}, ""},
		{QRequest{Op: OpNew, Settings: QSettings{MaxTableCapacity: 4096, BlockedStreams: 100}}, "encoderNewRequest"},
		{QRequest{Op: OpNew, Decoder: true, Settings: settings}, "decoderNewRequest"},
		{QRequest{Op: OpEncode, Stream: MaxVarint, Fields: fields}, "encodeRequest"},
		{QRequest{Op: OpEncode, Fields: []Field{}}, "encodeRequest"},
		{QRequest{Op: OpEncode, Binary: true, Stream: 4, Fields: []Field{{Name: string(all), Value: string(all)}, {}}}, "encodeBinaryRequest"},
		{QRequest{Op: OpDecoderStream, Data: all}, "decoderStreamRequest"},
		{QRequest{Op: OpEncoderStream, Decoder: true, Data: []byte{}}, "encoderStreamRequest"},
		{QRequest{Op: OpDecode, Decoder: true, Stream: 8, Data: []byte{0, 0, 0xd1}}, "decodeRequest"},
		{QRequest{Op: OpCancel, Decoder: true, Stream: 8}, "cancelRequest"},
	}
	for _, tt := range tests {
		line, err := tt.req.MarshalJSON()
		if err != nil {
			t.Fatalf("%+v: %v", tt.req, err)
		}
		for _, def := range []string{tt.def, "request", ""} {
			if err := sch.Validate(def, string(line)); err != nil {
				t.Errorf("%s does not match %q: %v", line, def, err)
			}
		}
		back, err := ParseQRequest(line, tt.req.Decoder)
		want := tt.req
		if want.Op == OpEncode && len(want.Fields) == 0 {
			want.Fields = []Field{}
		}
		if err != nil || back.Op != want.Op || back.Settings != want.Settings || back.Stream != want.Stream ||
			back.Binary != want.Binary || !bytes.Equal(back.Data, want.Data) || len(back.Fields) != len(want.Fields) {
			t.Errorf("ParseQRequest(%s) = %+v, %v; want %+v", line, back, err, want)
		}
		for i := range back.Fields {
			if back.Fields[i] != want.Fields[i] {
				t.Errorf("ParseQRequest(%s): field %d %+v; want %+v", line, i, back.Fields[i], want.Fields[i])
			}
		}
	}
	if line, err := (QRequest{Op: OpEncode, Fields: []Field{{Name: "x", Value: "\xff"}}}).MarshalJSON(); err == nil {
		t.Errorf("a value not UTF-8 outside the binary form: %s; want an error naming it", line)
	}
}

// qFake is a QPACK encoder and decoder whose answers depend on their
// input, for the schema tests of QServer: data or a section starting
// with 0xee is refused with a code, 0xbb blocks, 0xdd is a breakdown.
type qFake struct{}

func (qFake) EncodeSection(stream uint64, fields []Field) ([]byte, []byte, error) {
	if len(fields) > 0 && fields[0].Name == "fail" {
		return nil, nil, errors.New("cannot encode")
	}
	return []byte{0, 0}, []byte{0x3f, 0xe1, 0x1f}, nil
}

func (qFake) DecoderStream(data []byte) ([]byte, error) {
	if len(data) > 0 && data[0] == 0xee {
		return nil, &CodedError{Code: "QPACK_DECODER_STREAM_ERROR", Reason: "bad"}
	}
	return nil, nil
}

func (qFake) EncoderStream(data []byte) ([]QSection, []byte, error) {
	if len(data) > 0 && data[0] == 0xee {
		return nil, nil, &CodedError{Code: "QPACK_ENCODER_STREAM_ERROR", Reason: "bad"}
	}
	return []QSection{{Stream: 4, Fields: []Field{{Name: "a", Value: "\xff", Sensitive: true}}}}, []byte{0x84, 0x01}, nil
}

func (qFake) DecodeSection(stream uint64, section []byte) (QSection, []byte, error) {
	switch {
	case len(section) > 0 && section[0] == 0xee:
		return QSection{}, nil, &CodedError{Code: "QPACK_DECOMPRESSION_FAILED", Reason: "bad"}
	case len(section) > 0 && section[0] == 0xbb:
		return QSection{Stream: stream, Blocked: true}, nil, nil
	case len(section) > 0 && section[0] == 0xdd:
		return QSection{}, nil, errors.New("broken")
	}
	return QSection{Stream: stream, Fields: []Field{{Name: "a", Value: "b"}}}, nil, nil
}

func (qFake) Cancel(stream uint64) ([]byte, error) { return []byte{0x40 | byte(stream)}, nil }

// qserve runs s on requests and returns its answers, and the error of
// Serve.
func qserve(s *QServer, requests ...string) ([]string, error) {
	var out bytes.Buffer
	err := s.Serve(strings.NewReader(strings.Join(requests, "\n")+"\n"), &out)
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), err
}

// TestQSchemaServerAnswers runs QServer of both sides on requests good
// and bad, checks every answer against the definition for its request and
// the whole document, and that the requests meant to fail, and only
// they, got error answers.
func TestQSchemaServerAnswers(t *testing.T) {
	sch := qschemas(t)
	type step struct {
		request string
		fails   bool
	}
	enc := []step{
		{`{"op":"encode","stream":0,"headers":[],"sensitive":[]}`, true}, // before new
		{`{"op":"hello"}`, false},
		{`{"op":"new","max_table_capacity":4096,"blocked_streams":100}`, false},
		{`{"op":"encode","stream":0,"headers":[["a","b"]],"sensitive":[false]}`, false},
		{`{"op":"encode","stream":0,"headers":[["fail","b"]],"sensitive":[false]}`, true},
		{`{"op":"encode","binary":true,"stream":4,"headers":[["61","ff"]],"sensitive":[true]}`, false},
		{`{"op":"decoder_stream","data":"80"}`, false},
		{`{"op":"decoder_stream","data":"ee"}`, true},
		{`{"op":"decoder_stream","data":"e"}`, true},
		{`{"op":"decode","stream":0,"section":""}`, true},
		{`{"op":"new","max_table_capacity":4096,"blocked_streams":100,"max_field_section_size":0}`, true},
		{`{"op":"encode","stream":-1,"headers":[],"sensitive":[]}`, true},
	}
	dec := []step{
		{`{"op":"hello"}`, false},
		{`{"op":"new","max_table_capacity":4096,"blocked_streams":100,"max_field_section_size":0}`, false},
		{`{"op":"encoder_stream","data":"3fe11f"}`, false},
		{`{"op":"encoder_stream","data":"ee"}`, true},
		{`{"op":"decode","stream":4,"section":"0000d1"}`, false},
		{`{"op":"decode","stream":4,"section":"bb"}`, false},
		{`{"op":"decode","stream":4,"section":"ee"}`, true},
		{`{"op":"cancel","stream":4}`, false},
		{`{"op":"encode","stream":0,"headers":[],"sensitive":[]}`, true},
		{`{"op":"new","max_table_capacity":4096,"blocked_streams":100}`, true},
	}
	for _, side := range []struct {
		s      *QServer
		script []step
	}{
		{&QServer{Name: "fake", NewEncoder: func(QSettings) (QEncoder, error) { return qFake{}, nil }}, enc},
		{&QServer{Name: "fake", Binary: true, NewDecoder: func(QSettings) (QDecoder, error) { return qFake{}, nil }}, dec},
	} {
		requests := make([]string, len(side.script))
		for i, s := range side.script {
			requests[i] = s.request
		}
		answers, err := qserve(side.s, requests...)
		if err != nil || len(answers) != len(requests) {
			t.Fatalf("Serve: %v; %d answers to %d requests", err, len(answers), len(requests))
		}
		for i, s := range side.script {
			op := ""
			if req, err := ParseQRequest([]byte(s.request), side.s.NewDecoder != nil); err == nil {
				op = req.Op
			}
			for _, def := range []string{stdioschema.QPACKAnswerDef(op), "answer", ""} {
				if err := sch.Validate(def, answers[i]); err != nil {
					t.Errorf("the answer %s to %s does not match %q: %v", answers[i], s.request, def, err)
				}
			}
			if isError := sch.Validate("errorAnswer", answers[i]) == nil; isError != s.fails {
				t.Errorf("the answer %s to %s: error answer %t; want %t", answers[i], s.request, isError, s.fails)
			}
		}
	}
	// A breakdown of the decoder ends Serve: the program then exits.
	s := &QServer{Name: "fake", NewDecoder: func(QSettings) (QDecoder, error) { return qFake{}, nil }}
	if _, err := qserve(s, `{"op":"new","max_table_capacity":0,"blocked_streams":0,"max_field_section_size":0}`, `{"op":"decode","stream":0,"section":"dd"}`); err == nil || !strings.Contains(err.Error(), "broke down on decode: broken") {
		t.Errorf("Serve of a decoder that breaks down: %v; want its breakdown", err)
	}
	// Without the binary form, a decoded value that is not UTF-8 cannot be written.
	if _, err := qserve(s, `{"op":"new","max_table_capacity":0,"blocked_streams":0,"max_field_section_size":0}`, `{"op":"encoder_stream","data":""}`); err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("Serve of a field not UTF-8 without the binary form: %v; want an error saying so", err)
	}
}

// TestQSchemaRejects checks that the QPACK schema refuses what the
// protocol does not allow, and accepts the variants it does.
func TestQSchemaRejects(t *testing.T) {
	sch := qschemas(t)
	tests := []struct {
		def, line string
		valid     bool
		reason    string
	}{
		{"request", `{"op":"new","max_table_capacity":4096,"blocked_streams":100}`, true, "an encoder's new"},
		{"request", `{"op":"new"}`, false, "new carries the settings in the QPACK mode"},
		{"request", `{"op":"new","max_table_capacity":4611686018427387904,"blocked_streams":0}`, false, "a setting is at most 2^62-1"},
		{"request", `{"op":"encode","stream":0,"headers":[]}`, false, "encode carries sensitive"},
		{"request", `{"op":"encode","stream":0,"table_sizes":[],"headers":[],"sensitive":[]}`, false, "no table_sizes in QPACK"},
		{"request", `{"op":"decode","stream":0,"section":"0A"}`, false, "the certifier writes lowercase hex"},
		{"request", `{"op":"decode","stream":0,"wire":"00"}`, false, "a QPACK decode request carries a section"},
		{"request", `{"op":"cancel"}`, false, "cancel names its stream"},
		{"request", `{"op":"decoder_stream","data":"808"}`, false, "two digits an octet"},
		{"helloAnswer", `{"name":"x","qpack":true,"binary":true}`, true, "a QPACK hello offering the binary form"},
		{"helloAnswer", `{"name":"x"}`, false, "a QPACK hello says qpack"},
		{"helloAnswer", `{"name":"x","qpack":false}`, false, "qpack is true"},
		{"encodeAnswer", `{"section":"0000","encoder_stream":"3FE11F"}`, true, "uppercase hex in an answer"},
		{"encodeAnswer", `{"encoder_stream":""}`, false, "an encode answer has its section"},
		{"encodeAnswer", `{"section":"00","wire":"00"}`, false, "no wire in QPACK"},
		{"decoderStreamAnswer", `{}`, true, "nothing written"},
		{"decoderStreamAnswer", `{"error":"x","code":"QPACK_DECODER_STREAM_ERROR"}`, true, "a refusal with its code"},
		{"decoderStreamAnswer", `{"error":"x","code":"bad code"}`, false, "codes are capitals, digits and _"},
		{"decodeAnswer", `{"blocked":true}`, true, "a blocked section"},
		{"decodeAnswer", `{"blocked":false}`, false, "blocked is only ever true"},
		{"decodeAnswer", `{"headers":[["a","b"]],"sensitive":[true],"decoder_stream":"84"}`, true, "a decoded section"},
		{"decodeAnswer", `{"headers":[["a","b"]]}`, false, "sensitive is required"},
		{"decodeAnswer", `{"headers":[],"sensitive":[],"blocked":true}`, false, "decoded or blocked, not both"},
		{"encoderStreamAnswer", `{"unblocked":[{"stream":4,"headers":[],"sensitive":[]}],"decoder_stream":"84"}`, true, "an unblocked section"},
		{"encoderStreamAnswer", `{"unblocked":[{"headers":[],"sensitive":[]}]}`, false, "an unblocked section names its stream"},
		{"cancelAnswer", `{"decoder_stream":"44"}`, true, "a Stream Cancellation"},
		{"cancelAnswer", `{"decoder_stream":"4"}`, false, "two digits an octet"},
		{"errorAnswer", `{"code":"QPACK_DECOMPRESSION_FAILED"}`, false, "a code comes with an error"},
		{"", `{"op":"new","max_table_capacity":1,"blocked_streams":1,"max_field_section_size":1}`, true, "the whole document takes a decoder's new"},
		{"", `{"wire":"82"}`, false, "the whole document refuses an HPACK answer"},
	}
	for _, tt := range tests {
		err := sch.Validate(tt.def, tt.line)
		if valid := err == nil; valid != tt.valid {
			t.Errorf("%q %s: valid %t; want %t (%s): %v", tt.def, tt.line, valid, tt.valid, tt.reason, err)
		}
	}
}
