package hpackstdio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/stdioschema"
)

// schemas loads the schema's definitions or stops the test.
func schemas(t *testing.T) stdioschema.Defs {
	t.Helper()
	defs, err := stdioschema.Load()
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// TestSchemaRequests checks every kind of request MarshalJSON writes
// against the schema: the definition of its kind, the definition of any
// request, the whole document, and not the definition of the other form.
func TestSchemaRequests(t *testing.T) {
	sch := schemas(t)
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	tests := []struct {
		name   string
		req    Request
		def    string
		reason string
	}{
		{"hello", Request{Op: OpHello}, "helloRequest", "the first request to every process"},
		{"new", Request{Op: OpNew}, "newRequest", "a fresh context"},
		{"empty utf8", Request{Op: OpEncode}, "encodeRequest", "a block without fields or sizes"},
		{"empty binary", Request{Op: OpEncode, Binary: true}, "encodeBinaryRequest", "the same in the binary form"},
		{"utf8", Request{Op: OpEncode, TableSizes: []uint32{0, 4294967295}, Fields: []Field{{Name: ":path", Value: "/é?a=<b>&c"}, {Name: "authorization", Value: "x", Sensitive: true}}},
			"encodeRequest", "sizes at both ends of their range, non-ASCII, sensitive"},
		{"binary", Request{Op: OpEncode, Binary: true, TableSizes: []uint32{100}, Fields: []Field{{Name: string(all), Value: string(all), Sensitive: true}, {}}},
			"encodeBinaryRequest", "every octet value, and empty strings"},
	}
	other := map[string]string{"encodeRequest": "encodeBinaryRequest", "encodeBinaryRequest": "encodeRequest"}
	for _, tt := range tests {
		line, err := tt.req.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, def := range []string{tt.def, "request", ""} {
			if err := sch.Validate(def, string(line)); err != nil {
				t.Errorf("%s: %s does not match %q (%s): %v", tt.name, line, def, tt.reason, err)
			}
		}
		if o := other[tt.def]; o != "" && sch.Validate(o, string(line)) == nil {
			t.Errorf("%s: %s matches %q too; the two forms must be told apart", tt.name, line, o)
		}
	}
}

// TestSchemaServerAnswers runs Server in both forms on requests good and
// bad, and checks every answer against the definition for its request,
// and that the requests meant to fail got error answers and no others.
func TestSchemaServerAnswers(t *testing.T) {
	sch := schemas(t)
	script := []struct {
		request string
		fails   bool
	}{
		{`{"op":"hello"}`, false},
		{`{"op":"new"}`, false},
		{`{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`, false},
		{`{"op":"encode","table_sizes":[0,4096],"headers":[["a","b"],["c","é"]],"sensitive":[false,true]}`, false},
		{`{"op":"encode","binary":true,"table_sizes":[],"headers":[["ff","c0c1"]],"sensitive":[false]}`, false},
		{`{"op":"encode","binary":true,"table_sizes":[],"headers":[["f","c0"]],"sensitive":[false]}`, true},
		{`{"op":"encode","table_sizes":[13],"headers":[],"sensitive":[]}`, true},
		{`{"op":"encode","table_sizes":[],"headers":[["fail","x"]],"sensitive":[false]}`, true},
		{`{"op":"encode","table_sizes":[],"sensitive":[]}`, true},
		{`{"op":"encode","headers":[["a","b"]],"sensitive":[true,true]}`, true},
		{`{"op":"encode","headers":[["a"]]}`, true},
		{`{"op":"encode","headers":[],"table_sizes":[-1]}`, true},
		{`{"op":"bye"}`, true},
		{`{"op":null}`, true},
		{`not JSON`, true},
		{``, true},
	}
	for _, binary := range []bool{false, true} {
		requests := make([]string, len(script))
		for i, s := range script {
			requests[i] = s.request
		}
		answers := serve(t, &Server{Name: "echo", NewEncoder: newEcho, Binary: binary}, requests...)
		for i, s := range script {
			op := ""
			if req, err := ParseRequest([]byte(s.request), false); err == nil {
				op = req.Op
			}
			def := stdioschema.AnswerDef(op)
			if err := sch.Validate(def, answers[i]); err != nil {
				t.Errorf("binary %t: the answer %s to %s does not match %q: %v", binary, answers[i], s.request, def, err)
			}
			if err := sch.Validate("", answers[i]); err != nil {
				t.Errorf("binary %t: the answer %s to %s does not match the schema: %v", binary, answers[i], s.request, err)
			}
			if isError := sch.Validate("errorAnswer", answers[i]) == nil; isError != s.fails {
				t.Errorf("binary %t: the answer %s to %s: error answer %t; want %t", binary, answers[i], s.request, isError, s.fails)
			}
		}
		if want := `"binary":true`; strings.Contains(answers[0], want) != binary {
			t.Errorf("binary %t: hello answered %s", binary, answers[0])
		}
	}
}

// TestSchemaRejects checks that the schema refuses what the protocol does
// not allow, and accepts the variants it does.
func TestSchemaRejects(t *testing.T) {
	sch := schemas(t)
	tests := []struct {
		def    string
		line   string
		valid  bool
		reason string
	}{
		{"request", `{"op":"encode","table_sizes":[],"sensitive":[]}`, false, "a request without headers"},
		{"request", `{"op":"encode","binary":true,"table_sizes":[],"headers":[["61","zz"]],"sensitive":[false]}`, false, "a binary request with a header that is not hex"},
		{"request", `{"op":"encode","binary":true,"table_sizes":[],"headers":[["616","62"]],"sensitive":[false]}`, false, "an odd number of hex digits"},
		{"request", `{"op":"encode","binary":true,"table_sizes":[],"headers":[["6A","62"]],"sensitive":[false]}`, false, "the certifier writes lowercase hex"},
		{"request", `{"op":"encode","binary":false,"table_sizes":[],"headers":[],"sensitive":[]}`, false, "the UTF-8 form has no binary member"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[]}`, false, "a request without sensitive"},
		{"request", `{"op":"encode","headers":[],"sensitive":[]}`, false, "a request without table_sizes"},
		{"request", `{"op":"encode","table_sizes":[-1],"headers":[],"sensitive":[]}`, false, "a negative table size"},
		{"request", `{"op":"encode","table_sizes":[4294967296],"headers":[],"sensitive":[]}`, false, "a table size over 32 bits"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[["a"]],"sensitive":[false]}`, false, "a header without its value"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[["a","b","c"]],"sensitive":[false]}`, false, "a header with three strings"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[["a",1]],"sensitive":[false]}`, false, "a value that is not a string"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[["a","b"]],"sensitive":[1]}`, false, "a flag that is not a boolean"},
		{"request", `{"op":"hello","binary":true}`, false, "hello carries nothing but its op"},
		{"request", `{"op":"bye"}`, false, "an unknown op"},
		{"request", `{"op":"encode","table_sizes":[],"headers":[["a","b"]],"sensitive":[false]}`, true, "the UTF-8 form"},

		{"encodeAnswer", `{}`, false, "an answer with neither wire nor error"},
		{"encodeAnswer", `{"name":"x"}`, false, "an answer to hello is no answer to encode"},
		{"encodeAnswer", `{"wire":"82","error":"x"}`, false, "an answer is a block or an error, not both"},
		{"encodeAnswer", `{"wire":"828"}`, false, "an odd number of hex digits"},
		{"encodeAnswer", `{"wire":"8g"}`, false, "g is no hex digit"},
		{"encodeAnswer", `{"wire":82}`, false, "wire is a string"},
		{"encodeAnswer", `{"wire":"82AB"}`, true, "uppercase hex is allowed"},
		{"encodeAnswer", `{"wire":""}`, true, "the empty block"},
		{"encodeAnswer", `{"error":"too big"}`, true, "an error answer"},
		{"helloAnswer", `{}`, false, "hello is answered with a name"},
		{"helloAnswer", `{"name":""}`, false, "the name is not empty"},
		{"helloAnswer", `{"name":"x","binary":"yes"}`, false, "binary is a boolean"},
		{"helloAnswer", `{"name":"x","binary":false}`, true, "binary false is no offer, and allowed"},
		{"helloAnswer", `{"name":"x","binray":true}`, false, "a misspelt member is caught"},
		{"newAnswer", `{"wire":""}`, false, "new is answered with an empty object"},
		{"errorAnswer", `{"error":""}`, false, "an error says why"},
		{"answer", `[]`, false, "an answer is an object"},
		{"", `{"op":"encode","table_sizes":[],"sensitive":[]}`, false, "the whole document refuses a request without headers"},
		{"", `{"wire":"0"}`, false, "the whole document refuses a bad wire"},
	}
	for _, tt := range tests {
		err := sch.Validate(tt.def, tt.line)
		if valid := err == nil; valid != tt.valid {
			t.Errorf("%q %s: valid %t; want %t (%s): %v", tt.def, tt.line, valid, tt.valid, tt.reason, err)
		}
	}
}

// TestSchemaDecoderRequests checks the decode requests MarshalJSON writes
// against the schema, as any request and as the whole document: empty,
// every octet value, and the settings at both ends of their range.
func TestSchemaDecoderRequests(t *testing.T) {
	sch := schemas(t)
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	for _, req := range []Request{
		{Op: OpDecode, Wire: []byte{}, TableSize: 4096},
		{Op: OpDecode, Wire: all, TableSize: 0, MaxHeaderList: 4294967295},
		{Op: OpDecode, Wire: []byte{0x82}, TableSize: 4294967295, MaxHeaderList: 65536},
	} {
		line, err := req.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		for _, def := range []string{"request", ""} {
			if err := sch.Validate(def, string(line)); err != nil {
				t.Errorf("%s does not match %q: %v", line, def, err)
			}
		}
		back, err := ParseRequest(line, true)
		if err != nil || !bytes.Equal(back.Wire, req.Wire) || back.TableSize != req.TableSize || back.MaxHeaderList != req.MaxHeaderList {
			t.Errorf("ParseRequest(%s) = %+v, %v; want %+v back", line, back, err, req)
		}
	}
	for _, bad := range []Request{
		{Op: OpDecode, Fields: []Field{{Name: "a"}}},
		{Op: OpEncode, Wire: []byte{0x82}},
		{Op: OpNew, TableSize: 1},
	} {
		if line, err := bad.MarshalJSON(); err == nil {
			t.Errorf("MarshalJSON(%+v) = %s; want an error: members of another request", bad, line)
		}
	}
}

// TestSchemaDecoderAnswers runs the strict decoder's Server on requests
// good and bad and checks every answer against the schema, as any answer
// and as the whole document.
func TestSchemaDecoderAnswers(t *testing.T) {
	sch := schemas(t)
	s := &Server{Name: "strict", NewDecoder: newStrict, DecoderLacks: allDecoderLacks}
	answers := serve(t, s,
		`{"op":"hello"}`,
		`{"op":"new"}`,
		`{"op":"decode","wire":"8286","table_size":4096,"max_header_list":0}`,
		`{"op":"decode","wire":"4001610162","table_size":4096,"max_header_list":0}`,
		`{"op":"decode","wire":"1001630164","table_size":4096,"max_header_list":0}`,
		`{"op":"decode","wire":"0001ff0100","table_size":4096,"max_header_list":0}`,
		`{"op":"decode","wire":"80","table_size":4096,"max_header_list":0}`,
		`{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`)
	for _, a := range answers {
		for _, def := range []string{"answer", ""} {
			if err := sch.Validate(def, a); err != nil {
				t.Errorf("%s does not match %q: %v", a, def, err)
			}
		}
	}
}

// TestSchemaDecoderRejects checks that the schema refuses the decoder
// messages the protocol does not allow, and accepts the variants it does.
func TestSchemaDecoderRejects(t *testing.T) {
	sch := schemas(t)
	tests := []struct {
		def, line string
		valid     bool
		reason    string
	}{
		{"request", `{"op":"decode","wire":"82","table_size":4096,"max_header_list":0}`, true, "a whole request"},
		{"request", `{"op":"decode","wire":"82","table_size":4096}`, false, "the certifier sends max_header_list"},
		{"request", `{"op":"decode","wire":"82","max_header_list":0}`, false, "the certifier sends table_size"},
		{"request", `{"op":"decode","wire":"8A","table_size":4096,"max_header_list":0}`, false, "the certifier writes lowercase hex"},
		{"request", `{"op":"decode","wire":"828","table_size":4096,"max_header_list":0}`, false, "two digits an octet"},
		{"request", `{"op":"decode","wire":"82","table_size":4294967296,"max_header_list":0}`, false, "a setting is 32 bits"},
		{"request", `{"op":"decode","wire":"82","table_size":4096,"max_header_list":-1}`, false, "a setting is not negative"},
		{"request", `{"op":"decode","wire":"82","table_size":4096,"max_header_list":0,"headers":[]}`, false, "no member of an encode request"},
		{"answer", `{"name":"x","decoder":true}`, true, "a decoder's hello"},
		{"answer", `{"name":"x","decoder":true,"lacks":["never-indexed","max-header-list"]}`, true, "every decoder lack"},
		{"answer", `{"name":"x","decoder":true,"lacks":["table"]}`, false, "the table is no lack"},
		{"answer", `{"name":"x","decoder":true,"lacks":["never-index"]}`, false, "an encoder's lack is not a decoder's"},
		{"answer", `{"name":"x","decoder":true,"binary":true}`, false, "a decoder offers no binary form: answers say hex"},
		{"answer", `{"name":"x","decoder":"yes"}`, false, "decoder is true"},
		{"answer", `{"headers":[["a","b"]],"never_indexed":[true],"table":[["a","b"]]}`, true, "fields, flags and table"},
		{"answer", `{"headers":[["ff","00"]],"never_indexed":[false],"hex":true}`, true, "the hex form"},
		{"answer", `{"headers":[["FF","00"]],"never_indexed":[false],"hex":true}`, true, "uppercase hex is allowed in an answer"},
		{"answer", `{"headers":[],"never_indexed":[],"hex":false}`, true, "hex false is the plain form"},
		{"answer", `{"headers":[["a","b"]]}`, true, "never_indexed left out, by a decoder lacking never-indexed"},
		{"answer", `{"headers":[["fg","00"]],"never_indexed":[false],"hex":true}`, false, "hex digits only"},
		{"answer", `{"headers":[["a"]],"never_indexed":[false]}`, false, "a field is a pair"},
		{"answer", `{"headers":[["a","b"]],"never_indexed":[1]}`, false, "flags are booleans"},
		{"answer", `{"headers":[],"never_indexed":[],"table":{}}`, false, "the table is a list"},
		{"answer", `{"headers":[],"never_indexed":[],"error":"x"}`, false, "fields or a refusal"},
		{"answer", `{"headers":[],"never_indexed":[],"wire":"82"}`, false, "no member of an encoder's answer"},
		{"answer", `{"never_indexed":[]}`, false, "headers are always there"},
		{"", `{"op":"decode","wire":"82","table_size":4096}`, false, "the whole document refuses an incomplete decode request"},
	}
	for _, tt := range tests {
		err := sch.Validate(tt.def, tt.line)
		if valid := err == nil; valid != tt.valid {
			t.Errorf("%q %s: valid %t; want %t (%s): %v", tt.def, tt.line, valid, tt.valid, tt.reason, err)
		}
	}
}
