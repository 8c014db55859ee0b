package qif

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// trafficCounts are the header lists and fields of each QIF file of qifs
// commit da52cd9, counted with awk and grep on the files themselves
// (blank-line-separated groups; lines holding a TAB).
var trafficCounts = []struct {
	name          string
	lists, fields int
}{
	{"draft-examples.qif", 3, 3},
	{"fb-req-hq.qif", 383, 4534},
	{"fb-req.qif", 383, 4534},
	{"fb-resp-hq.qif", 383, 5599},
	{"fb-resp.qif", 383, 5599},
	{"netbsd-hq.qif", 18, 199},
	{"netbsd.qif", 18, 217},
}

func TestTraffic(t *testing.T) {
	files, err := Traffic()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(trafficCounts) {
		t.Fatalf("%d files; want %d", len(files), len(trafficCounts))
	}
	for i, want := range trafficCounts {
		f := files[i]
		if f.Name != want.name || len(f.HeaderLists) != want.lists || f.Fields() != want.fields {
			t.Errorf("file %d: %s with %d header lists and %d fields; want %s with %d and %d",
				i, f.Name, len(f.HeaderLists), f.Fields(), want.name, want.lists, want.fields)
		}
	}
	// The -hq file puts the pseudo-header fields first, as HTTP/3 does.
	first := files[1].HeaderLists[0]
	if want := (spec.Field{Name: ":authority", Value: "static.xx.fbcdn.net"}); first[1] != want {
		t.Errorf("fb-req-hq.qif: second field %v; want %v", first[1], want)
	}
	if !strings.Contains(TrafficSource, "da52cd9") || !strings.Contains(TrafficSource, "7 files") {
		t.Errorf("TrafficSource %q does not name the commit and the file count", TrafficSource)
	}
}

// TestTrafficMatchesQIFS compares the embedded files with what Parse
// reads from the checkout's files.
func TestTrafficMatchesQIFS(t *testing.T) {
	dir := filepath.Join(qifsDir(t), "qifs")
	got, err := Traffic()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.qif"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(got) {
		t.Fatalf("%d files embedded; %s has %d", len(got), dir, len(paths))
	}
	for i, path := range paths {
		want := parseFile(t, path)
		if !reflect.DeepEqual(got[i], *want) {
			t.Errorf("embedded %s differs from %s", got[i].Name, path)
		}
	}
}

func parseFile(t *testing.T, path string) *File {
	t.Helper()
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := Parse(filepath.Base(path), r)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTrafficFreshCopies changes what Traffic returned and checks that the
// next call is not affected.
func TestTrafficFreshCopies(t *testing.T) {
	first, err := Traffic()
	if err != nil {
		t.Fatal(err)
	}
	pristine, _ := Traffic()
	next := first[1].HeaderLists[1][0]
	first[1].HeaderLists[0] = append(first[1].HeaderLists[0], spec.Field{Name: "appended"})
	if got := first[1].HeaderLists[1][0]; got != next {
		t.Errorf("appending to a header list changed the next list's first field to %v", got)
	}
	for i := range first {
		first[i].Name = "changed"
		for _, list := range first[i].HeaderLists {
			for k := range list {
				list[k] = spec.Field{Name: "changed"}
			}
		}
	}
	second, err := Traffic()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, pristine) {
		t.Errorf("Traffic returned data changed by the caller of an earlier call")
	}
}

func TestTrafficAllocations(t *testing.T) {
	if _, err := Traffic(); err != nil { // decode outside the count
		t.Fatal(err)
	}
	const want = 2 + 7 // the files, the fields, each file's header lists
	if got := testing.AllocsPerRun(20, func() { Traffic() }); got != want {
		t.Errorf("Traffic allocates %v times per call; want %d", got, want)
	}
}

func TestLicense(t *testing.T) {
	license := License()
	if !strings.Contains(license, "Dmitri Tikhonov") || !strings.Contains(license, "Permission is hereby granted") {
		t.Errorf("License() = %q; want qifs's MIT licence", license)
	}
	upstream, err := os.ReadFile(filepath.Join(qifsDir(t), "LICENSE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if license != string(upstream) {
		t.Errorf("traffic/LICENSE.md differs from the checkout's LICENSE.md")
	}
}

// trafficStream builds an uncompressed stream of the embedded format: a
// string is written with its length in front, an int as a uvarint, a
// []byte as it is.
func trafficStream(parts ...any) []byte {
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

func TestDecodeTraffic(t *testing.T) {
	magic := []byte(trafficMagic)
	valid := trafficStream(magic, 2, "a.qif", "x\t1\n\ny\t2\n", "b.qif", "# only a comment\n")
	got, err := decodeTraffic(gzipped(t, valid))
	if err != nil {
		t.Fatalf("decodeTraffic of a valid stream: %v", err)
	}
	want := []*File{
		{Name: "a.qif", HeaderLists: [][]spec.Field{{{Name: "x", Value: "1"}}, {{Name: "y", Value: "2"}}}},
		{Name: "b.qif"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeTraffic =\n%#v\nwant\n%#v", got, want)
	}
	tests := []struct {
		label      string
		compressed []byte
		want       string
	}{
		{"not gzip", magic, "gzip: invalid header"},
		{"truncated gzip", gzipped(t, valid)[:30], "unexpected EOF"},
		{"wrong magic", gzipped(t, trafficStream([]byte("hpackcert qif 2\n"), 0)), "not the hpackcert qif format"},
		{"no count", gzipped(t, magic), "bad file count"},
		{"count beyond the data", gzipped(t, trafficStream(magic, 1<<40)), "bad file count"},
		{"name past the end", gzipped(t, trafficStream(magic, 1, []byte{9, 'a'})), "file 0: bad name"},
		{"text past the end", gzipped(t, trafficStream(magic, 1, "a.qif", []byte{9})), "a.qif: bad text length"},
		{"bad file", gzipped(t, trafficStream(magic, 1, "a.qif", "x\t1\nno tab\n")), "qif: a.qif:2: no TAB"},
		{"data after the last file", gzipped(t, trafficStream(magic, 0, []byte{0})), "1 octets after the last file"},
	}
	for _, tt := range tests {
		_, err := decodeTraffic(tt.compressed)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "qif: embedded traffic: ") {
			t.Errorf("%s: decodeTraffic error %v; want one containing %q", tt.label, err, tt.want)
		}
	}
}

// TestTrafficGeneratorIsUpToDate fails when traffic/qifs.bin.gz is not
// what "go generate" writes from the checkout's QIF files.
func TestTrafficGeneratorIsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go run in -short mode")
	}
	dir := filepath.Join(qifsDir(t), "qifs")
	goTool := testenv.GoTool(t, "to run gen_traffic.go")
	out := filepath.Join(t.TempDir(), "qifs.bin.gz")
	cmd := exec.Command(goTool, "run", "gen_traffic.go", "-dir", dir, "-output", out)
	if combined, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_traffic.go: %v\n%s", err, combined)
	}
	generated, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, trafficGzip) {
		t.Errorf("traffic/qifs.bin.gz differs from the output of gen_traffic.go; run go generate ./vectors/qif")
	}
}
