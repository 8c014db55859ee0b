package recorded

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// record writes one QPACK Offline Interop record.
func record(stream uint64, data []byte) []byte {
	b := binary.BigEndian.AppendUint64(nil, stream)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// TestQPACKDirErrors checks that what cannot be read is an error naming
// the file and what is wrong, and that a good file reads into a
// transcript with its settings from its name and its lists from the
// embedded QIF traffic.
func TestQPACKDirErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := QPACKDir(dir); err == nil || !strings.Contains(err.Error(), "holds no QPACK Offline Interop output file") {
		t.Errorf("empty directory: %v", err)
	}
	if _, err := QPACKDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory read without error")
	}
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"netbsd.out.4096.100.x", record(1, []byte{0, 0, 0xd1}), "netbsd.out.4096.100.x"},
		{"netbsd.out.4096.100.1", record(1, []byte{0, 0, 0xd1})[:7], "offset 0"},
		{"netbsd.out.4096.100.0", record(19, []byte{0, 0, 0xd1}), "stream 19, but the QIF file has 18 header lists"},
	} {
		path := write(tc.name, tc.data)
		targets, err := QPACKDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = targets[0].(*qpackRecording).Transcripts()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("%s: %v, want an error naming the file and %q", tc.name, err, tc.want)
		}
		os.Remove(path)
	}
	write("netbsd.out.256.100.1", record(1, []byte{0, 0, 0xd1}))
	targets, err := QPACKDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	trs, err := targets[0].(*qpackRecording).Transcripts()
	if err != nil || len(trs) != 1 {
		t.Fatalf("%d transcripts, %v", len(trs), err)
	}
	tr := trs[0]
	if tr.Settings.MaxTableCapacity != 256 || tr.Settings.BlockedStreams != 100 || tr.AssumedCapacity != 256 || !tr.ToldAtOnce || len(tr.Lists) != 18 || len(tr.Events) != 2 {
		t.Errorf("transcript %+v", tr)
	}
}
