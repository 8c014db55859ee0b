package vectors

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

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
