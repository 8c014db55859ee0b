package vectors

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadStoryMalformed(t *testing.T) {
	tests := []struct {
		label    string
		input    string
		wantCase int // -1: outside any case
		wantLine int
		want     string
	}{
		{"not JSON at all", "hello", -1, 1, "invalid JSON"},
		{"empty file", "", -1, 1, "unexpected end of file"},
		{"truncated", "{\"cases\": [\n{\"headers\": [", 0, 2, "unexpected end of file"},
		{"syntax error inside a case", "{\"cases\": [\n{\"headers\": [}\n]}", 0, 2, "invalid JSON"},
		{"trailing data", `{"cases": []} {}`, -1, 1, "data after the story object"},
		{"top level is a list", `[]`, -1, 1, "story: want an object, got a list"},
		{"missing cases", `{"description": "x"}`, -1, 1, `no "cases" list`},
		{"cases is an object", `{"cases": {}}`, -1, 1, "cases: want a list, got an object"},
		{"case is a string", `{"cases": ["x"]}`, 0, 1, "case: want an object, got a string"},
		{"missing headers", "{\"cases\": [{\"headers\": []},\n{\"seqno\": 1}]}", 1, 2, `no "headers" list`},
		{"headers is a string", `{"cases": [{"headers": "a"}]}`, 0, 1, "headers: want a list, got a string"},
		{"header with no key", `{"cases": [{"headers": [{"a": "b"}, {}]}]}`, 0, 1, "header 1: object has no key"},
		{"header with two keys", `{"cases": [{"headers": [{"a": "b", "c": "d"}]}]}`, 0, 1, "header 0: object has more than one key"},
		{"header value is a number", `{"cases": [{"headers": [{"a": 1}]}]}`, 0, 1, `header 0 ("a") value: want a string, got the number 1`},
		{"header value is null", `{"cases": [{"headers": [{"a": null}]}]}`, 0, 1, "want a string, got null"},
		{"header is a list", `{"cases": [{"headers": [["a", "b"]]}]}`, 0, 1, "header 0: want an object, got a list"},
		{"bad hex in wire", "{\"cases\": [{\"headers\": []}, {\"headers\": []},\n{\"wire\": \"82zz\", \"headers\": []}]}", 2, 2, "wire: bad hex"},
		{"odd-length hex", `{"cases": [{"wire": "828", "headers": []}]}`, 0, 1, "wire: bad hex"},
		{"wire is a number", `{"cases": [{"wire": 82, "headers": []}]}`, 0, 1, "wire: want a string, got the number 82"},
		{"seqno is a string", `{"cases": [{"seqno": "1", "headers": []}]}`, 0, 1, "seqno: want a number, got a string"},
		{"seqno is negative", `{"cases": [{"seqno": -1, "headers": []}]}`, 0, 1, "seqno: -1 is not a whole number"},
		{"header_table_size is fractional", `{"cases": [{"header_table_size": 4096.5, "headers": []}]}`, 0, 1, "header_table_size: 4096.5 is not a whole number"},
		{"header_table_size beyond uint32", `{"cases": [{"header_table_size": 4294967296, "headers": []}]}`, 0, 1, "from 0 to 4294967295"},
		{"table_sizes element is a string", `{"cases": [{"table_sizes": [0, "4096"], "headers": []}]}`, 0, 1, "table_sizes element: want a number"},
		{"table_sizes disagrees with header_table_size", `{"cases": [{"header_table_size": 0, "table_sizes": [0, 4096], "headers": []}]}`, 0, 1, "header_table_size 0 is not the last of table_sizes [0 4096]"},
		{"sensitive too short", `{"cases": [{"headers": [{"a": "b"}, {"c": "d"}], "sensitive": [true]}]}`, 0, 1, "1 sensitive flags for 2 headers"},
		{"sensitive element is a number", `{"cases": [{"headers": [{"a": "b"}], "sensitive": [1]}]}`, 0, 1, "sensitive[0]: want true or false, got the number 1"},
		{"duplicate key in a case", `{"cases": [{"headers": [], "headers": []}]}`, 0, 1, `case: duplicate key "headers"`},
		{"context is a number", `{"context": 1, "cases": []}`, -1, 1, "context: want a string"},
		{"cases is null", `{"cases": null}`, -1, 1, "cases: want a list, got null"},
		{"headers is null", "{\"cases\": [{\"headers\": []},\n{\"headers\": null}]}", 1, 2, "headers: want a list, got null"},
		{"null inside table_sizes", `{"cases": [{"table_sizes": [null], "headers": []}]}`, 0, 1, "table_sizes element: want a number, got null"},
		{"null inside sensitive", `{"cases": [{"headers": [{"a": "b"}], "sensitive": [null]}]}`, 0, 1, "sensitive[0]: want true or false, got null"},
		{"misspelt null", `{"cases": [{"seqno": nul, "headers": []}]}`, 0, 1, "invalid JSON"},
		{"duplicate key with null", `{"cases": [{"wire": null, "wire": "82", "headers": []}]}`, 0, 1, `case: duplicate key "wire"`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(path, []byte(tt.input), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadStory(path)
		if err == nil {
			t.Errorf("%s: ReadStory accepted %q: %+v", tt.label, tt.input, s)
			continue
		}
		var storyErr *StoryError
		if !errors.As(err, &storyErr) {
			t.Errorf("%s: error %v is a %T; want *StoryError", tt.label, err, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %q; want it to contain %q and the path", tt.label, err, tt.want)
		}
		if storyErr.Case != tt.wantCase || storyErr.Line != tt.wantLine {
			t.Errorf("%s: error at case %d, line %d; want case %d, line %d (%v)", tt.label, storyErr.Case, storyErr.Line, tt.wantCase, tt.wantLine, err)
		}
		if storyErr.Offset < 0 || storyErr.Offset > int64(len(tt.input)) {
			t.Errorf("%s: offset %d outside the %d-octet input", tt.label, storyErr.Offset, len(tt.input))
		}
	}
}

func TestReadStoryRealWorldForms(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		input  string
		want   *Story
	}{
		{
			"null for every optional field",
			"some encoders write null for a field they leave unset; it means the key is absent",
			`{"context": null, "description": null, "cases": [
				{"seqno": null, "header_table_size": null, "table_sizes": null, "wire": null,
				 "headers": [{"a": "b"}], "sensitive": null}]}`,
			&Story{Cases: []Case{{Headers: []Field{{Name: "a", Value: "b"}}}}},
		},
		{
			"null beside set fields",
			"a null field must not hide the fields that are set around it",
			`{"context": "request", "cases": [
				{"wire": "82", "seqno": 0, "headers": [{":method": "GET"}], "header_table_size": null},
				{"wire": "82", "seqno": 1, "headers": [{":method": "GET"}], "header_table_size": 256}]}`,
			&Story{Context: "request", Cases: []Case{
				{Wire: []byte{0x82}, Headers: []Field{{Name: ":method", Value: "GET"}}},
				{Seqno: 1, Wire: []byte{0x82}, HeaderTableSize: size(256), Headers: []Field{{Name: ":method", Value: "GET"}}},
			}},
		},
		{
			"escaped solidus",
			`JSON lets "/" be written "\/", and some encoders escape every one`,
			`{"cases": [{"headers": [{":path": "\/a\/b"}, {"x\/y": "\/"}]}]}`,
			&Story{Cases: []Case{{Headers: []Field{{Name: ":path", Value: "/a/b"}, {Name: "x/y", Value: "/"}}}}},
		},
		{
			"extra keys at story and case level",
			`"draft", "context", "description" and keys of other tools carry nothing the certifier uses`,
			`{"draft": 9, "extra": {"nested": [1, {"x": null}]}, "cases": [
				{"headers": [{"a": "1"}, {"a": "1"}, {"b": ""}], "unknown": [true], "note": null}
			], "context": "response", "description": "made by hand"}`,
			&Story{Context: "response", Description: "made by hand", Cases: []Case{
				{Headers: []Field{{Name: "a", Value: "1"}, {Name: "a", Value: "1"}, {Name: "b", Value: ""}}},
			}},
		},
		{
			"keys in any order",
			"JSON objects are unordered; headers may come before seqno and cases before context",
			`{"cases": [{"headers": [{"k": "v"}], "wire": "", "header_table_size": 0, "seqno": 0}],
			  "description": "d", "context": "request"}`,
			&Story{Context: "request", Description: "d", Cases: []Case{
				{HeaderTableSize: size(0), Wire: []byte{}, Headers: []Field{{Name: "k", Value: "v"}}},
			}},
		},
		{
			"seqno absent",
			"seqno is informational; a case without one takes its index",
			`{"cases": [{"headers": []}, {"headers": []}, {"seqno": null, "headers": []}]}`,
			&Story{Cases: []Case{{Headers: []Field{}}, {Seqno: 1, Headers: []Field{}}, {Seqno: 2, Headers: []Field{}}}},
		},
		{
			"seqno starting at 5",
			"a story cut out of a longer one keeps its numbers",
			`{"cases": [{"seqno": 5, "headers": []}, {"seqno": 6, "headers": []}]}`,
			&Story{Cases: []Case{{Seqno: 5, Headers: []Field{}}, {Seqno: 6, Headers: []Field{}}}},
		},
		{
			"seqno not contiguous",
			"numbers that skip or repeat are kept as written, not renumbered",
			`{"cases": [{"seqno": 3, "headers": []}, {"seqno": 3, "headers": []}, {"seqno": 0, "headers": []}, {"headers": []}]}`,
			&Story{Cases: []Case{{Seqno: 3, Headers: []Field{}}, {Seqno: 3, Headers: []Field{}}, {Headers: []Field{}}, {Seqno: 3, Headers: []Field{}}}},
		},
		{
			"no white space at all",
			"a compact writer leaves out every space and newline",
			`{"cases":[{"seqno":0,"headers":[{"a":"b"}],"header_table_size":null}]}`,
			&Story{Cases: []Case{{Headers: []Field{{Name: "a", Value: "b"}}}}},
		},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, "story.json")
		if err := os.WriteFile(path, []byte(tt.input), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadStory(path)
		if err != nil {
			t.Errorf("%s (%s): ReadStory: %v", tt.label, tt.reason, err)
			continue
		}
		tt.want.Path = path
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s (%s): ReadStory =\n%#v\nwant\n%#v", tt.label, tt.reason, got, tt.want)
		}
	}
}

// TestReadStoryLimit checks that a story file over the size limit is an
// error naming the file and the limit, and that one at the limit reads.
func TestReadStoryLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "story.json")
	data := []byte(`{"cases": [{"headers": [{"a": "b"}]}]}`)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStoryLimit(path, int64(len(data))); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
	_, err := ReadStoryLimit(path, int64(len(data))-1)
	var se *StoryError
	if !errors.As(err, &se) || se.Path != path || !strings.Contains(err.Error(), "over the limit of") {
		t.Errorf("a file one octet over the limit: %v; want a StoryError naming the file and the limit", err)
	}
	if _, err := ReadStoryDirLimit(filepath.Dir(path), 10); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("ReadStoryDirLimit with a file over the limit: %v; want the limit error", err)
	}
}
