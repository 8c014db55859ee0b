package vectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// testCaseDirs are the story folders of hpack-test-case the certifier
// relies on, and whether their cases carry "wire".
var testCaseDirs = map[string]bool{
	"raw-data":     false,
	"nghttp2":      true,
	"go-hpack":     true,
	"python-hpack": true,
}

// TestReadStoryDirHPACKTestCase reads every story of every folder of the
// hpack-test-case data, the four the certifier relies on and any other
// folder of *.json files beside them, and checks each against encoding/json.
func TestReadStoryDirHPACKTestCase(t *testing.T) {
	root := testenv.TestCaseDir(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if files, _ := filepath.Glob(filepath.Join(root, e.Name(), "*.json")); len(files) > 0 {
			dirs = append(dirs, e.Name())
		}
	}
	for name := range testCaseDirs {
		if !slices.Contains(dirs, name) {
			t.Errorf("%s has no story folder %s", root, name)
		}
	}
	for _, name := range dirs {
		t.Run(name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(root, name, "*.json"))
			stories, err := ReadStoryDir(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(stories) != len(files) {
				t.Fatalf("%d stories read from %d files", len(stories), len(files))
			}
			hasWire, known := testCaseDirs[name]
			if !known {
				t.Logf("%d stories read; not one of the folders the certifier relies on", len(stories))
				for _, s := range stories {
					checkAgainstEncodingJSON(t, s)
				}
				return
			}
			if len(stories) != 32 {
				t.Errorf("%d stories; want 32", len(stories))
			}
			cases := 0
			for _, s := range stories {
				cases += len(s.Cases)
				for i, c := range s.Cases {
					if (c.Wire != nil) != hasWire {
						t.Fatalf("%s: case %d: wire present = %v; want %v", s.Path, i, c.Wire != nil, hasWire)
					}
					if len(c.Headers) == 0 {
						t.Fatalf("%s: case %d: no headers", s.Path, i)
					}
				}
				checkAgainstEncodingJSON(t, s)
			}
			if cases != 3384 {
				t.Errorf("%d cases; want 3384", cases)
			}
		})
	}
}

// checkAgainstEncodingJSON reads the story's file again with encoding/json,
// each header into a one-key map (the list keeps the order), and compares.
func checkAgainstEncodingJSON(t *testing.T, s *Story) {
	t.Helper()
	data, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	var plain struct {
		Context     string
		Description string
		Cases       []struct {
			Seqno           *int
			HeaderTableSize *uint32 `json:"header_table_size"`
			Wire            string
			Headers         []map[string]string
		}
	}
	if err := json.Unmarshal(data, &plain); err != nil {
		t.Fatalf("%s: encoding/json: %v", s.Path, err)
	}
	if plain.Context != s.Context || plain.Description != s.Description || len(plain.Cases) != len(s.Cases) {
		t.Fatalf("%s: context %q, description %q, %d cases; encoding/json reads %q, %q, %d",
			s.Path, s.Context, s.Description, len(s.Cases), plain.Context, plain.Description, len(plain.Cases))
	}
	for i, want := range plain.Cases {
		got := s.Cases[i]
		wantSeqno := i // ReadStory numbers a case without "seqno" by its index
		if want.Seqno != nil {
			wantSeqno = *want.Seqno
		}
		if got.Seqno != wantSeqno || !reflect.DeepEqual(got.HeaderTableSize, want.HeaderTableSize) {
			t.Fatalf("%s: case %d: seqno %d, header_table_size %v; encoding/json reads %d, %v",
				s.Path, i, got.Seqno, got.HeaderTableSize, wantSeqno, want.HeaderTableSize)
		}
		if gotHex := fmtHex(got.Wire); gotHex != want.Wire {
			t.Fatalf("%s: case %d: wire %s; encoding/json reads %s", s.Path, i, gotHex, want.Wire)
		}
		if len(got.Headers) != len(want.Headers) {
			t.Fatalf("%s: case %d: %d headers; encoding/json reads %d", s.Path, i, len(got.Headers), len(want.Headers))
		}
		for j, h := range want.Headers {
			if len(h) != 1 || h[got.Headers[j].Name] != got.Headers[j].Value {
				t.Fatalf("%s: case %d: header %d is %v; encoding/json reads %q", s.Path, i, j, got.Headers[j], h)
			}
		}
	}
}

func fmtHex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func size(n uint32) *uint32 { return &n }

// fullStory uses every field of the format and strings JSON must escape.
func fullStory() *Story {
	return &Story{
		Context:     "request",
		Description: `every field: "quotes", \backslash, <html> & tabs	and é`,
		Cases: []Case{
			{
				Seqno:           0,
				HeaderTableSize: size(4096),
				Wire:            []byte{0x82, 0x86},
				Headers:         []Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}},
			},
			{
				Seqno:           1,
				HeaderTableSize: size(4096),
				TableSizes:      []uint32{0, 4096},
				Headers:         []Field{{Name: "", Value: ""}, {Name: "dup", Value: "a", Sensitive: true}, {Name: "dup", Value: "a"}, {Name: "dup", Value: "b", Sensitive: true}},
			},
			{
				Seqno:      2,
				TableSizes: []uint32{256},
				Headers:    []Field{{Name: "ctl\x00\x01\x1f\x7f", Value: "\t\r\n\"\\</script>", Sensitive: true}, {Name: "utf8", Value: "\u00e9\u4e16\U0001f600\u0080\U0010ffff"}},
			},
			{
				Seqno:   3,
				Wire:    []byte{},
				Headers: []Field{},
			},
		},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	stories := []*Story{fullStory(), {Cases: nil}}
	if root := testenv.TestCaseDirPath(); root != "" {
		if s, err := ReadStory(filepath.Join(root, "nghttp2", "story_30.json")); err == nil {
			stories = append(stories, s)
		}
	}
	dir := t.TempDir()
	for i, want := range stories {
		path := filepath.Join(dir, "story.json")
		if err := WriteStory(path, want); err != nil {
			t.Fatalf("story %d: WriteStory: %v", i, err)
		}
		got, err := ReadStory(path)
		if err != nil {
			t.Fatalf("story %d: ReadStory of what WriteStory wrote: %v", i, err)
		}
		wantCopy := *want
		wantCopy.Path = path
		if !reflect.DeepEqual(got, &wantCopy) {
			t.Errorf("story %d: read back\n%#v\nwant\n%#v", i, got, &wantCopy)
		}
		first, _ := os.ReadFile(path)
		if err := WriteStory(path, got); err != nil {
			t.Fatal(err)
		}
		second, _ := os.ReadFile(path)
		if !bytes.Equal(first, second) {
			t.Errorf("story %d: writing what was read back gives different bytes", i)
		}
	}
}

// TestWriteStoryHex checks the "hex" extension: a case with an octet
// string that is not valid UTF-8 is written in hex and reads back exactly;
// other cases of the story stay plain text.
func TestWriteStoryHex(t *testing.T) {
	var all []byte
	for x := range 256 {
		all = append(all, byte(x))
	}
	want := &Story{Cases: []Case{
		{Seqno: 0, Headers: []Field{{Name: "x-all", Value: string(all)}, {Name: "\xc0\x80", Value: "\xff", Sensitive: true}}},
		{Seqno: 1, Headers: []Field{{Name: "plain", Value: "text"}}},
	}}
	path := filepath.Join(t.TempDir(), "story.json")
	if err := WriteStory(path, want); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if n := bytes.Count(data, []byte(`"hex": true`)); n != 1 || !bytes.Contains(data, []byte(`{"plain": "text"}`)) {
		t.Errorf("%d cases written in hex; want 1, the other plain:\n%s", n, data)
	}
	got, err := ReadStory(path)
	if err != nil {
		t.Fatal(err)
	}
	want.Path = path
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %#v; want %#v", got, want)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"cases": [{"hex": true, "headers": [{"zz": "00"}]}]}`), 0o644)
	if _, err := ReadStory(bad); err == nil || !strings.Contains(err.Error(), "names and values are hex") {
		t.Errorf("a hex case with a name that is not hex: %v; want an error saying so", err)
	}
}

func TestWriteStoryRejects(t *testing.T) {
	tests := []struct {
		label string
		story *Story
		want  string
	}{
		{"header_table_size not the last acked", &Story{Cases: []Case{{HeaderTableSize: size(0), TableSizes: []uint32{0, 4096}}}}, "not the last of table_sizes"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "story.json")
		err := WriteStory(path, tt.story)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: WriteStory error %v; want one containing %q", tt.label, err, tt.want)
		}
		if _, statErr := os.Stat(path); statErr == nil {
			t.Errorf("%s: WriteStory wrote a file despite the error", tt.label)
		}
	}
}

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

func TestReadStoryDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadStoryDir(dir); err == nil || !strings.Contains(err.Error(), "no *.json story") {
		t.Errorf("ReadStoryDir of an empty folder: error %v; want one saying there is no story", err)
	}
	if _, err := ReadStoryDir(filepath.Join(dir, "absent")); err == nil {
		t.Errorf("ReadStoryDir of a missing folder succeeded")
	}
	for _, name := range []string{"b.json", "a.json", "c.txt"} {
		s := &Story{Description: name, Cases: []Case{{Headers: []Field{}}}}
		if err := WriteStory(filepath.Join(dir, name), s); err != nil {
			t.Fatal(err)
		}
	}
	stories, err := ReadStoryDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stories {
		got = append(got, s.Description)
	}
	if want := []string{"a.json", "b.json"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReadStoryDir read %q; want %q", got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "d.json"), []byte(`{"cases": [{}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStoryDir(dir); err == nil || !strings.Contains(err.Error(), "d.json") {
		t.Errorf("ReadStoryDir with a malformed file: error %v; want one naming d.json", err)
	}
}

func TestAckedSizes(t *testing.T) {
	tests := []struct {
		label string
		c     Case
		want  []uint32
	}{
		{"nothing acked", Case{}, nil},
		{"header_table_size alone", Case{HeaderTableSize: size(4096)}, []uint32{4096}},
		{"table_sizes wins", Case{HeaderTableSize: size(4096), TableSizes: []uint32{0, 4096}}, []uint32{0, 4096}},
		{"table_sizes alone", Case{TableSizes: []uint32{256}}, []uint32{256}},
	}
	for _, tt := range tests {
		if got := tt.c.AckedSizes(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: AckedSizes() = %v; want %v", tt.label, got, tt.want)
		}
	}
}

func BenchmarkReadStoryDir(b *testing.B) {
	dir := filepath.Join(testenv.TestCaseDir(b), "nghttp2")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadStoryDir(dir); err != nil {
			b.Fatal(err)
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
