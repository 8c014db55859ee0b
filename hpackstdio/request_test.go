package hpackstdio

import (
	"slices"
	"strings"
	"testing"
)

func TestMarshalRequest(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		want   string
		reason string
	}{
		{"hello", Request{Op: OpHello}, `{"op":"hello"}`,
			"hello carries its op and nothing else"},
		{"new", Request{Op: OpNew}, `{"op":"new"}`,
			"new carries its op and nothing else"},
		{"empty block", Request{Op: OpEncode}, `{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`,
			"a block without fields or sizes still has every member, as empty lists"},
		{"sizes only", Request{Op: OpEncode, TableSizes: []uint32{0, 4096}}, `{"op":"encode","table_sizes":[0,4096],"headers":[],"sensitive":[]}`,
			"sizes go in order, even with no field"},
		{"utf8 form", Request{Op: OpEncode, Fields: []Field{{Name: ":path", Value: "/a?b=<c>&d"}, {Name: "authorization", Value: "é", Sensitive: true}}},
			`{"op":"encode","table_sizes":[],"headers":[[":path","/a?b=<c>&d"],["authorization","é"]],"sensitive":[false,true]}`,
			"names and values are JSON strings, <, > and & unescaped so that logs read as the fields; one sensitive flag per header"},
		{"binary form", Request{Op: OpEncode, Binary: true, Fields: []Field{{Name: ":method", Value: "GET"}, {Name: "x", Value: "\xff\x00"}, {Name: "", Value: ""}}},
			`{"op":"encode","binary":true,"table_sizes":[],"headers":[["3a6d6574686f64","474554"],["78","ff00"],["",""]],"sensitive":[false,false,false]}`,
			"the binary form says so and carries lowercase hex, any octet included, the empty string as \"\""},
	}
	for _, tt := range tests {
		got, err := tt.req.MarshalJSON()
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: MarshalJSON = %s, %v; want %s (%s)", tt.name, got, err, tt.want, tt.reason)
		}
	}
}

func TestMarshalRequestErrors(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		want   []string // in the error
		reason string
	}{
		{"invalid value", Request{Op: OpEncode, Fields: []Field{{Name: "a", Value: "b"}, {Name: "x-octets", Value: "ab\xc0"}}},
			[]string{"header 1", `"x-octets"`, "value", "0xc0 at offset 2", "binary"},
			"JSON would replace the octet with U+FFFD; the error names the header, its name, the octet and where it is"},
		{"invalid name", Request{Op: OpEncode, Fields: []Field{{Name: "\xf5x", Value: "v"}}},
			[]string{"header 0", `"\xf5x"`, "the name", "0xf5 at offset 0"},
			"a name is checked as a value is"},
		{"truncated rune", Request{Op: OpEncode, Fields: []Field{{Name: "n", Value: "\xc3"}}},
			[]string{"header 0", "0xc3 at offset 0"},
			"an octet that can occur in UTF-8, but not alone at the end, is refused too"},
		{"hello with fields", Request{Op: OpHello, Fields: []Field{{Name: "a"}}},
			[]string{"hello request carries nothing but its op"},
			"a hello request with fields would be written without them"},
		{"unknown op", Request{Op: "bye"}, []string{`unknown op "bye"`},
			"only the three operations exist"},
	}
	for _, tt := range tests {
		got, err := tt.req.MarshalJSON()
		if err == nil {
			t.Errorf("%s: MarshalJSON = %s, no error; want one (%s)", tt.name, got, tt.reason)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q (%s)", tt.name, err, w, tt.reason)
			}
		}
	}
}

func TestParseRequest(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		complete bool
		want     string // the error it contains, "" for none
		reason   string
	}{
		{"hello", `{"op":"hello"}`, true, "", "the certifier's hello"},
		{"new", ` {"op":"new"} `, true, "", "whitespace around the object is JSON"},
		{"complete encode", `{"op":"encode","table_sizes":[4096],"headers":[["a","b"]],"sensitive":[true]}`, true, "", "every member present"},
		{"complete binary", `{"op":"encode","binary":true,"table_sizes":[],"headers":[["61","FF"]],"sensitive":[false]}`, true, "", "hex of either case is accepted"},
		{"lenient encode", `{"op":"encode","headers":[],"extra":1}`, false, "", "without complete, table_sizes and sensitive may be absent and unknown members are ignored"},
		{"binary false lenient", `{"op":"encode","binary":false,"headers":[]}`, false, "", "without complete, binary false is the UTF-8 form"},

		{"not json", `this is not JSON`, false, "not a JSON object", "garbage"},
		{"array", `[1,2]`, false, "not a JSON object", "a request is an object"},
		{"null", `null`, false, "not a JSON object", "null is not an object, though encoding/json decodes it into a map"},
		{"invalid utf8", "{\"op\":\"hello\",\"x\":\"\xff\"}", false, "not valid UTF-8", "JSON text is UTF-8"},
		{"no op", `{"headers":[]}`, false, `no "op"`, "op is required"},
		{"op not a string", `{"op":7}`, false, `"op": 7 is not a string`, "a bad type is named"},
		{"unknown op", `{"op":"bye"}`, false, `unknown op "bye"`, "only three operations exist"},
		{"no headers", `{"op":"encode","table_sizes":[],"sensitive":[]}`, false, `no "headers"`, "headers is required even without complete"},
		{"null headers", `{"op":"encode","headers":null}`, false, `"headers": null is not a list`, "null is not an empty list"},
		{"short pair", `{"op":"encode","headers":[["a","b"],["c"]]}`, false, "headers[1] is not a [name, value] pair", "encoding/json would fill a Go array with zero values"},
		{"long pair", `{"op":"encode","headers":[["a","b","c"]]}`, false, "headers[0] is not a [name, value] pair", "encoding/json would drop the extra element"},
		{"value not a string", `{"op":"encode","headers":[["a",null]]}`, false, "headers[0]: the value: null is not a string", "null is not the empty string"},
		{"bad hex", `{"op":"encode","binary":true,"headers":[["61","62"],["6","62"]]}`, false, "headers[1]: the name is not hex", "an odd number of digits; the header index is named"},
		{"bad hex digit", `{"op":"encode","binary":true,"headers":[["61","zz"]]}`, false, "headers[0]: the value is not hex", "z is no hex digit"},
		{"binary not bool", `{"op":"encode","binary":"yes","headers":[]}`, false, `"binary" is not a boolean`, "a bad type is named"},
		{"size too big", `{"op":"encode","table_sizes":[4294967296],"headers":[]}`, false, "table_sizes[0] is 4294967296", "a table size fits 32 bits"},
		{"size negative", `{"op":"encode","table_sizes":[0,-1],"headers":[]}`, false, "table_sizes[1] is -1", "a table size is not negative"},
		{"size fraction", `{"op":"encode","table_sizes":[1.5],"headers":[]}`, false, "table_sizes[0] is 1.5", "a table size is an integer"},
		{"sizes not a list", `{"op":"encode","table_sizes":4096,"headers":[]}`, false, `"table_sizes": 4096 is not a list`, "a bad type is named"},
		{"sensitive mismatch", `{"op":"encode","headers":[["a","b"]],"sensitive":[false,true]}`, false, `"sensitive" has 2 flags for 1 headers`, "one flag per header"},
		{"sensitive not bool", `{"op":"encode","headers":[["a","b"]],"sensitive":[1]}`, false, "sensitive[0] is 1, not a boolean", "a bad type is named"},

		{"complete: no sizes", `{"op":"encode","headers":[],"sensitive":[]}`, true, `no "table_sizes"`, "the certifier always sends table_sizes"},
		{"complete: no sensitive", `{"op":"encode","table_sizes":[],"headers":[]}`, true, `no "sensitive"`, "the certifier always sends sensitive"},
		{"complete: extra encode member", `{"op":"encode","table_sizes":[],"headers":[],"sensitive":[],"zz":0,"aa":0}`, true, `members the protocol does not define: "aa", "zz"`, "unknown members are named, sorted"},
		{"complete: extra hello member", `{"op":"hello","version":2}`, true, `"version"`, "hello carries nothing but its op"},
		{"complete: binary false", `{"op":"encode","binary":false,"table_sizes":[],"headers":[],"sensitive":[]}`, true, `"binary" is false`, "the UTF-8 form leaves binary out"},
	}
	for _, tt := range tests {
		req, err := ParseRequest([]byte(tt.line), tt.complete)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: ParseRequest(%s) error %v; want none (%s)", tt.name, tt.line, err, tt.reason)
		case tt.want != "" && err == nil:
			t.Errorf("%s: ParseRequest(%s) = %+v, no error; want one containing %q (%s)", tt.name, tt.line, req, tt.want, tt.reason)
		case tt.want != "" && !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: ParseRequest(%s) error %q; want one containing %q (%s)", tt.name, tt.line, err, tt.want, tt.reason)
		}
	}
}

// TestRequestRoundTrip checks that ParseRequest, with complete set, reads
// back what MarshalJSON writes, every octet value included in the binary
// form.
func TestRequestRoundTrip(t *testing.T) {
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	fields := []Field{
		{Name: ":authority", Value: "example.com"},
		{Name: "cookie", Value: "a=b; c=d", Sensitive: true},
		{Name: "x-\u00e9\u4e16", Value: "\U0001F600 \\ \" \n\t"},
		{Name: "", Value: ""},
	}
	tests := []struct {
		name   string
		req    Request
		reason string
	}{
		{"hello", Request{Op: OpHello}, "the smallest request"},
		{"empty", Request{Op: OpEncode, TableSizes: []uint32{}, Fields: []Field{}}, "empty lists come back empty"},
		{"utf8", Request{Op: OpEncode, TableSizes: []uint32{0, 4294967295}, Fields: fields}, "escapes, non-ASCII runes, the extreme sizes"},
		{"binary", Request{Op: OpEncode, Binary: true, TableSizes: []uint32{100}, Fields: append(fields, Field{Name: string(all), Value: string(all), Sensitive: true})},
			"every octet value, as a name and as a value"},
	}
	for _, tt := range tests {
		line, err := tt.req.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, err := ParseRequest(line, true)
		if err != nil {
			t.Fatalf("%s: ParseRequest(%s): %v", tt.name, line, err)
		}
		if !equalRequests(got, &tt.req) {
			t.Errorf("%s: %s read back as %+v; want %+v (%s)", tt.name, line, got, tt.req, tt.reason)
		}
	}
}

// equalRequests compares two requests, a nil list equal to an empty one.
func equalRequests(a, b *Request) bool {
	return a.Op == b.Op && a.Binary == b.Binary && slices.Equal(a.TableSizes, b.TableSizes) && slices.Equal(a.Fields, b.Fields)
}
