package recorded_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/recorded"
)

// TestDir grades a recorded directory of hpack-test-case: the target is
// named after it and its traffic cases pass.
func TestDir(t *testing.T) {
	dir := filepath.Join(testenv.TestCaseDir(t), "go-hpack")
	target, err := recorded.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := target.Name(), "recorded:go-hpack"; got != want {
		t.Errorf("Name() = %q; want %q", got, want)
	}
	rep, err := certify.Run([]certify.Target{target}, certify.Options{Cases: []string{"enc/3.2/1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res := rep.Results[target.Name()]["enc/3.2/1"]; res.Grade != certify.Pass {
		t.Errorf("enc/3.2/1: %v (%s); want pass", res.Grade, res.Detail)
	}
}

// TestDirLimit refuses a story file over the limit, naming it, and a
// directory that does not exist.
func TestDirLimit(t *testing.T) {
	dir := t.TempDir()
	story := `{"cases":[{"seqno":0,"wire":"82","headers":[{":method":"GET"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := recorded.DirLimit(dir, 16); err == nil || !strings.Contains(err.Error(), "big.json") {
		t.Errorf("DirLimit(16) = %v; want an error naming big.json", err)
	}
	if _, err := recorded.DirLimit(dir, 1<<20); err != nil {
		t.Errorf("DirLimit(1 MiB) = %v; want the story read", err)
	}
	if _, err := recorded.Dir(filepath.Join(dir, "missing")); err == nil {
		t.Error("Dir of a missing directory: no error")
	}
}

// TestRead reads story files into the encoder side's transcript: each
// case a block with the settings acknowledged before it, the fields sent
// and the wire; a directory of header lists without wire is a recording
// with nothing to grade, naming its files, whose traffic the engine
// grades unsupported with that reason.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	story := `{"cases":[{"seqno":0,"wire":"82","headers":[{":method":"GET"}]},` +
		`{"seqno":1,"header_table_size":0,"wire":"2082","headers":[{":method":"GET"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "story_00.json"), []byte(story), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := recorded.Read(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Stories) != 1 || rec.Stories[0].Name != "story_00.json" || len(rec.Stories[0].Blocks) != 2 {
		t.Fatalf("Read: %+v; want story story_00.json of 2 blocks", rec.Stories)
	}
	b := rec.Stories[0].Blocks[1]
	if !slices.Equal(b.Acked, []uint32{0}) || !bytes.Equal(b.Wire, []byte{0x20, 0x82}) || len(b.Sent) != 1 || b.Sent[0].Name != ":method" {
		t.Errorf("block 1: %+v; want acked [0], wire 2082, sent :method", b)
	}

	lists := t.TempDir()
	if err := os.WriteFile(filepath.Join(lists, "story_01.json"), []byte(`{"cases":[{"seqno":0,"headers":[{":method":"GET"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err = recorded.Read(lists, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Stories) != 0 || !slices.Equal(rec.WithoutWire, []string{"story_01.json"}) {
		t.Fatalf("Read of header lists: stories %d, without wire %v; want none and story_01.json", len(rec.Stories), rec.WithoutWire)
	}
	target, err := certify.Recorded(rec)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := certify.Run([]certify.Target{target}, certify.Options{Cases: []string{"enc/3.2/1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res := rep.Results[target.Name()]["enc/3.2/1"]; res.Grade != certify.Unsupported || !strings.Contains(res.Detail, "story_01.json") {
		t.Errorf("enc/3.2/1 of header lists: %v (%s); want unsupported naming story_01.json", res.Grade, res.Detail)
	}
}
