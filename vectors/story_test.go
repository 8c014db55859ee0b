package vectors

import (
	"encoding/json"
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
