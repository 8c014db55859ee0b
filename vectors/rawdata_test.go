package vectors

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestRawData(t *testing.T) {
	stories, err := RawData()
	if err != nil {
		t.Fatal(err)
	}
	if len(stories) != 32 {
		t.Fatalf("%d stories; want 32", len(stories))
	}
	blocks := 0
	for i, s := range stories {
		if want := fmt.Sprintf("raw-data/story_%02d.json", i); s.Path != want {
			t.Errorf("story %d: Path %q; want %q", i, s.Path, want)
		}
		if s.Context != "request" && s.Context != "response" && s.Context != "" {
			t.Errorf("%s: context %q; want request, response or none", s.Path, s.Context)
		}
		for j, c := range s.Cases {
			if c.Seqno != j {
				t.Errorf("%s: case %d: seqno %d; want its index", s.Path, j, c.Seqno)
			}
			if len(c.Headers) == 0 || c.Wire != nil || c.HeaderTableSize != nil || c.TableSizes != nil || slices.ContainsFunc(c.Headers, func(f Field) bool { return f.Sensitive }) {
				t.Errorf("%s: case %d: %d headers, wire %v, header_table_size %v, table_sizes %v, a sensitive flag; want headers and nothing else",
					s.Path, j, len(c.Headers), c.Wire, c.HeaderTableSize, c.TableSizes)
			}
		}
		blocks += len(s.Cases)
	}
	if blocks != 3384 {
		t.Errorf("%d header blocks; want 3384", blocks)
	}
	if !strings.Contains(RawDataSource, "8a1406e") || !strings.Contains(RawDataSource, "32 stories") {
		t.Errorf("RawDataSource %q does not name the commit and the story count", RawDataSource)
	}
}

// TestRawDataMatchesHPACKTestCase compares the embedded header lists with
// those ReadStoryDir reads from the story files: the generator reads them
// with encoding/json, so this also checks two readers against each other.
func TestRawDataMatchesHPACKTestCase(t *testing.T) {
	dir := filepath.Join(testenv.TestCaseDir(t), "raw-data")
	want, err := ReadStoryDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := RawData()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d stories embedded; %s has %d", len(got), dir, len(want))
	}
	for i, w := range want {
		g := got[i]
		if wantPath := "raw-data/" + filepath.Base(w.Path); g.Path != wantPath {
			t.Errorf("story %d: Path %q; want %q", i, g.Path, wantPath)
			continue
		}
		if g.Context != w.Context || g.Description != w.Description || len(g.Cases) != len(w.Cases) {
			t.Errorf("%s: context %q, description %q, %d cases; the file has %q, %q, %d",
				g.Path, g.Context, g.Description, len(g.Cases), w.Context, w.Description, len(w.Cases))
			continue
		}
		for j, wc := range w.Cases {
			if gc := g.Cases[j]; !reflect.DeepEqual(gc, wc) {
				t.Errorf("%s: case %d differs from %s:\n%s", g.Path, j, w.Path, caseDiff(wc, gc))
				break
			}
		}
	}
}

// caseDiff describes how got differs from want: the first differing
// header, or the other fields.
func caseDiff(want, got Case) string {
	for k := range min(len(want.Headers), len(got.Headers)) {
		if want.Headers[k] != got.Headers[k] {
			return fmt.Sprintf("header %d: got %v; want %v", k, got.Headers[k], want.Headers[k])
		}
	}
	if len(want.Headers) != len(got.Headers) {
		return fmt.Sprintf("got %d headers; want %d", len(got.Headers), len(want.Headers))
	}
	return fmt.Sprintf("got %#v\nwant %#v", got, want)
}

// TestRawDataFreshCopies changes everything a caller can reach in what
// RawData returned, and checks that the next call is not affected.
func TestRawDataFreshCopies(t *testing.T) {
	first, err := RawData()
	if err != nil {
		t.Fatal(err)
	}
	pristine, _ := RawData()
	nextHeader := first[0].Cases[1].Headers[0]
	first[0].Cases[0].Headers = append(first[0].Cases[0].Headers, Field{Name: "appended", Value: "x"})
	if got := first[0].Cases[1].Headers[0]; got != nextHeader {
		t.Errorf("appending to case 0's headers changed case 1's first header to %v", got)
	}
	first[0].Cases = append(first[0].Cases, Case{Seqno: -1})
	if got := first[1].Cases[0].Seqno; got != 0 {
		t.Errorf("appending to story 0's cases changed story 1's first seqno to %d", got)
	}
	for _, s := range first {
		s.Path, s.Context = "changed", "changed"
		for j := range s.Cases {
			s.Cases[j].Seqno = -1
			for k := range s.Cases[j].Headers {
				s.Cases[j].Headers[k] = Field{Name: "changed", Value: "changed"}
			}
		}
	}
	first[2] = nil
	second, err := RawData()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, pristine) {
		t.Errorf("RawData returned data changed by the caller of an earlier call")
	}
}

func TestRawDataAllocations(t *testing.T) {
	if _, err := RawData(); err != nil { // decode outside the count
		t.Fatal(err)
	}
	const want = 4 // the story pointers, the stories, the cases, the fields
	if got := testing.AllocsPerRun(20, func() { RawData() }); got != want {
		t.Errorf("RawData allocates %v times per call; want %d", got, want)
	}
}

func TestRawDataLicense(t *testing.T) {
	license := RawDataLicense()
	if !strings.Contains(license, "HTTP/2 Japan Community") || !strings.Contains(license, "Permission is hereby granted") {
		t.Errorf("RawDataLicense() = %q; want hpack-test-case's MIT licence", license)
	}
	root := testenv.TestCaseDirPath()
	upstream, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Logf("not compared with hpack-test-case's own copy: %v", err)
		return
	}
	if license != string(upstream) {
		t.Errorf("rawdata/LICENSE differs from %s", filepath.Join(root, "LICENSE"))
	}
}

// rawDataStream builds an uncompressed stream of the embedded format from
// parts: a string is written with its length in front, an int as a
// uvarint, a []byte as it is.
func rawDataStream(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		case int:
			b = binary.AppendUvarint(b, uint64(v))
		case []byte:
			b = append(b, v...)
		}
	}
	return b
}

func gzipped(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDecodeRawData(t *testing.T) {
	magic := []byte(rawDataMagic)
	valid := rawDataStream(magic, 2, 3, 3,
		"story_00.json", "request", 2, 2, ":method", "GET", ":path", "/", 1, "dup", "a",
		"story_01.json", "", 1, 0)
	got, err := decodeRawData(gzipped(t, valid))
	if err != nil {
		t.Fatalf("decodeRawData of a valid stream: %v", err)
	}
	want := []*Story{
		{Path: "raw-data/story_00.json", Context: "request", Cases: []Case{
			{Seqno: 0, Headers: []Field{{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/"}}},
			{Seqno: 1, Headers: []Field{{Name: "dup", Value: "a"}}},
		}},
		{Path: "raw-data/story_01.json", Cases: []Case{{Seqno: 0, Headers: []Field{}}}},
	}
	if stories := got.copyStories(); !reflect.DeepEqual(stories, want) {
		t.Errorf("decodeRawData =\n%#v\nwant\n%#v", stories, want)
	}

	tests := []struct {
		label      string
		compressed []byte
		want       string
	}{
		{"not gzip", []byte("hpackcert raw-data 1\n"), "gzip: invalid header"},
		{"truncated gzip", gzipped(t, valid)[:40], "unexpected EOF"},
		{"wrong magic", gzipped(t, rawDataStream([]byte("hpackcert raw-data 2\n"), 0, 0, 0)), "offset 0 of the uncompressed stream: not the hpackcert raw-data format"},
		{"no story count", gzipped(t, magic), "offset 21 of the uncompressed stream: bad story count"},
		{"count beyond the data", gzipped(t, rawDataStream(magic, 1<<40, 0, 0)), "bad story count"},
		{"field total beyond the data", gzipped(t, rawDataStream(magic, 0, 0, 1000)), "offset 23 of the uncompressed stream: bad field total"},
		{"name longer than the data", gzipped(t, rawDataStream(magic, 1, 0, 0, []byte{50}, "x")), "offset 24 of the uncompressed stream: bad file name length"},
		{"truncated case", gzipped(t, rawDataStream(magic, 1, 1, 1, "s", "", 1, 2, "a", "b")), "bad name length"},
		{"data after the last story", gzipped(t, rawDataStream(magic, 0, 0, 0, []byte{0})), "data after the last story"},
		{"field total too large", gzipped(t, rawDataStream(magic, 1, 1, 2, "s", "", 1, 1, "a", "b")), "1 cases and 1 fields; the totals say 1 and 2"},
		{"case total too small", gzipped(t, rawDataStream(magic, 1, 1, 1, "s", "", 2, 1, "a", "b", 0)), "2 cases and 1 fields; the totals say 1 and 1"},
	}
	for _, tt := range tests {
		_, err := decodeRawData(tt.compressed)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "vectors: embedded raw-data: ") {
			t.Errorf("%s: decodeRawData error %v; want one containing %q", tt.label, err, tt.want)
		}
	}
}

// TestRawDataGeneratorIsUpToDate fails when rawdata/headers.bin.gz is not
// what "go generate" writes from the raw-data stories (an edited or stale
// file).
func TestRawDataGeneratorIsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go run in -short mode")
	}
	dir := filepath.Join(testenv.TestCaseDir(t), "raw-data")
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "go command not found in PATH: "+err.Error())
	}
	out := filepath.Join(t.TempDir(), "headers.bin.gz")
	cmd := exec.Command(goCmd, "run", "gen_rawdata.go", "-dir", dir, "-output", out)
	if combined, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_rawdata.go: %v\n%s", err, combined)
	}
	generated, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(generated, rawDataGzip) {
		return
	}
	if a, b := gunzip(t, generated), gunzip(t, rawDataGzip); bytes.Equal(a, b) {
		t.Errorf("rawdata/headers.bin.gz holds the right data but not the bytes gen_rawdata.go writes (a compress/flate of another Go version?); run go generate ./vectors")
	} else {
		t.Errorf("rawdata/headers.bin.gz differs from the output of gen_rawdata.go; run go generate ./vectors")
	}
}

func gunzip(t *testing.T, compressed []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func BenchmarkRawData(b *testing.B) {
	if _, err := RawData(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		RawData()
	}
}

func BenchmarkDecodeRawData(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(rawDataGzip)))
	for b.Loop() {
		if _, err := decodeRawData(rawDataGzip); err != nil {
			b.Fatal(err)
		}
	}
}
