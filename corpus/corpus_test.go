package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMarshal(t *testing.T) {
	tests := []struct {
		label string
		data  []byte
		want  string
	}{
		{"empty", []byte{}, "go test fuzz v1\n[]byte(\"\")\n"},
		{"printable", []byte("ab"), "go test fuzz v1\n[]byte(\"ab\")\n"},
		{"control and high octets are escaped", []byte{0, '\n', 0xff}, "go test fuzz v1\n[]byte(\"\\x00\\n\\xff\")\n"},
		{"quote", []byte(`"`), "go test fuzz v1\n[]byte(\"\\\"\")\n"},
	}
	for _, tt := range tests {
		if got := string(Marshal(tt.data)); got != tt.want {
			t.Errorf("%s: Marshal(%q) = %q; want %q", tt.label, tt.data, got, tt.want)
		}
		back, err := Unmarshal([]byte(tt.want))
		if err != nil || !bytes.Equal(back, tt.data) {
			t.Errorf("%s: Unmarshal(%q) = %q, %v; want %q, nil", tt.label, tt.want, back, err, tt.data)
		}
	}
}

func TestUnmarshalAccepts(t *testing.T) {
	tests := []struct {
		label, file, want string
	}{
		{"raw string literal", "go test fuzz v1\n[]byte(`a\\x`)\n", `a\x`},
		{"no final newline", "go test fuzz v1\n[]byte(\"z\")", "z"},
		{"blank lines", "go test fuzz v1\n\n[]byte(\"z\")\n\n", "z"},
		{"CRLF line ends", "go test fuzz v1\r\n[]byte(\"z\")\r\n", "z"},
	}
	for _, tt := range tests {
		got, err := Unmarshal([]byte(tt.file))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Unmarshal(%q) = %q, %v; want %q, nil", tt.label, tt.file, got, err, tt.want)
		}
	}
}

func TestUnmarshalRejects(t *testing.T) {
	tests := []struct {
		label, file, wantErr string
	}{
		{"no header", "[]byte(\"a\")\n", "line 1"},
		{"wrong version", "go test fuzz v2\n[]byte(\"a\")\n", "line 1"},
		{"no value", "go test fuzz v1\n", "no value"},
		{"two values", "go test fuzz v1\n[]byte(\"a\")\n[]byte(\"b\")\n", "line 3: a second value"},
		{"other type", "go test fuzz v1\nstring(\"a\")\n", "line 2"},
		{"unterminated literal", "go test fuzz v1\n[]byte(\"a)\n", "line 2: bad string literal"},
		{"missing parenthesis", "go test fuzz v1\n[]byte(\"a\"\n", "line 2"},
	}
	for _, tt := range tests {
		got, err := Unmarshal([]byte(tt.file))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: Unmarshal(%q) = %q, %v; want an error containing %q", tt.label, tt.file, got, err, tt.wantErr)
		}
	}
}

func TestName(t *testing.T) {
	// The SHA-256 of "abc" begins ba7816bf8f01cfea (FIPS 180-2, B.1).
	if got, want := Name([]byte("abc")), "ba7816bf8f01cfea"; got != want {
		t.Errorf("Name(abc) = %s; want %s", got, want)
	}
}

func TestLibFuzzerInput(t *testing.T) {
	got := LibFuzzerInput([]byte("hpack"))
	want := []byte{0, 0, 0, 5, 'h', 'p', 'a', 'c', 'k'}
	if !bytes.Equal(got, want) {
		t.Errorf("LibFuzzerInput(hpack) = %x; want %x", got, want)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// values returns the set of values in dir, decoded by decode.
func values(t *testing.T, dir string, decode func([]byte) ([]byte, error)) map[string]bool {
	t.Helper()
	got, err := readDir(dir, decode)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func identity(b []byte) ([]byte, error) { return b, nil }

func TestSyncBothWaysAndIdempotent(t *testing.T) {
	root := t.TempDir()
	raw, testdata := filepath.Join(root, "corpus"), filepath.Join(root, "testdata")
	writeFile(t, filepath.Join(raw, "FuzzA", "rfc-c2-1"), []byte("\x40\x0acustom-key"))
	writeFile(t, filepath.Join(raw, "FuzzA", "README.md"), []byte("not a seed"))
	writeFile(t, filepath.Join(raw, "FuzzB", "same"), []byte("shared"))
	writeFile(t, filepath.Join(testdata, "FuzzB", "0123456789abcdef"), Marshal([]byte("shared")))
	writeFile(t, filepath.Join(testdata, "FuzzC", "crasher"), Marshal([]byte{0xff, 0}))

	writes, err := Sync(raw, testdata)
	if err != nil {
		t.Fatal(err)
	}
	wantPaths := []string{
		filepath.Join(raw, "FuzzC", Name([]byte{0xff, 0})),
		filepath.Join(testdata, "FuzzA", Name(Marshal([]byte("\x40\x0acustom-key")))),
	}
	if len(writes) != len(wantPaths) {
		t.Fatalf("first Sync wrote %d files %v; want %v", len(writes), writes, wantPaths)
	}
	for i, w := range writes {
		if w.Path != wantPaths[i] {
			t.Errorf("write %d is %s; want %s", i, w.Path, wantPaths[i])
		}
	}
	for _, target := range []string{"FuzzA", "FuzzB", "FuzzC"} {
		gotRaw := values(t, filepath.Join(raw, target), identity)
		gotGo := values(t, filepath.Join(testdata, target), Unmarshal)
		if len(gotRaw) != 1 || len(gotGo) != 1 {
			t.Errorf("%s: %d raw values and %d go values after Sync; want 1 and 1", target, len(gotRaw), len(gotGo))
		}
		for v := range gotRaw {
			if !gotGo[v] {
				t.Errorf("%s: raw value %q has no go twin", target, v)
			}
		}
	}
	again, err := Plan(raw, testdata)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 0 {
		t.Errorf("Plan after Sync wants %d writes %v; want none", len(again), again)
	}
}

func TestPlanNamesTheBadFile(t *testing.T) {
	root := t.TempDir()
	bad := filepath.Join(root, "testdata", "FuzzA", "broken")
	writeFile(t, bad, []byte("go test fuzz v1\nint(3)\n"))
	_, err := Plan(filepath.Join(root, "corpus"), filepath.Join(root, "testdata"))
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("Plan with a bad file: error %v; want one naming %s and line 2", err, bad)
	}
}

func TestExportLibFuzzer(t *testing.T) {
	root := t.TempDir()
	raw, out := filepath.Join(root, "corpus"), filepath.Join(root, "out")
	writeFile(t, filepath.Join(raw, "FuzzA", "one"), []byte("x"))
	writeFile(t, filepath.Join(raw, "FuzzA", "two"), []byte("yz"))
	n, err := ExportLibFuzzer(raw, out)
	if err != nil || n != 2 {
		t.Fatalf("ExportLibFuzzer = %d, %v; want 2, nil", n, err)
	}
	got := values(t, filepath.Join(out, "FuzzA"), identity)
	for _, v := range []string{"x", "yz"} {
		if framed := string(LibFuzzerInput([]byte(v))); !got[framed] {
			t.Errorf("exported seeds %v lack %q", got, framed)
		}
	}
}

// TestRepositoryCorpusInStep fails when corpus/ and fuzz/testdata/fuzz/ of
// this repository are out of step: run go run ./corpus/cmd/corpussync.
func TestRepositoryCorpusInStep(t *testing.T) {
	writes, err := Plan(".", filepath.Join("..", "fuzz", "testdata", "fuzz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		t.Errorf("missing %s: run go run ./corpus/cmd/corpussync from the module root", w.Path)
	}
}
