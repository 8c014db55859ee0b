package hpackstdio

import (
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
