package qif

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// interopLimit is what the tests let ReadInterop read: over four times the
// largest encoded/qpack-05 file (214,549 octets).
const interopLimit = 1 << 20

// TestInteropFiles reads every encoded/qpack-05 file of the checkout and
// checks that its field sections are streams 1 to N, each once and in
// order, N being the number of header lists of the QIF file it encodes.
func TestInteropFiles(t *testing.T) {
	dir := filepath.Join(qifsDir(t), "encoded", "qpack-05")
	files, err := Traffic()
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]int{}
	for _, f := range files {
		lists[strings.TrimSuffix(f.Name, ".qif")] = len(f.HeaderLists)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	// The README of the subset: six encoders, 24 files each.
	if len(paths) != 144 {
		t.Errorf("%d files in %s; want 144", len(paths), dir)
	}
	for _, path := range paths {
		name, err := ParseInteropName(path)
		if err != nil {
			t.Error(err)
			continue
		}
		n, ok := lists[name.QIF]
		if !ok {
			t.Errorf("%s: no embedded QIF file %s.qif", path, name.QIF)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		records, err := ReadInterop(bytes.NewReader(data), interopLimit)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		next := uint64(1)
		for _, r := range records {
			switch {
			case r.StreamID == 0:
			case r.StreamID == next:
				next++
			default:
				t.Errorf("%s: offset %d: stream %d; want 0 or %d", path, r.Offset, r.StreamID, next)
			}
		}
		if next-1 != uint64(n) {
			t.Errorf("%s: field sections 1 to %d; %s.qif has %d header lists", path, next-1, name.QIF, n)
		}
	}
}

// interopFile builds an output file from records: pairs of a stream id
// and data.
func interopFile(records ...any) []byte {
	var b []byte
	for i := 0; i+1 < len(records); i += 2 {
		data := records[i+1].(string)
		b = binary.BigEndian.AppendUint64(b, uint64(records[i].(int)))
		b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
		b = append(b, data...)
	}
	return b
}

func TestReadInterop(t *testing.T) {
	in := interopFile(0, "\x3f\xe1\x1f", 1, "\x00\x00\xd1", 2, "")
	got, err := ReadInterop(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{StreamID: 0, Data: []byte("\x3f\xe1\x1f"), Offset: 0},
		{StreamID: 1, Data: []byte("\x00\x00\xd1"), Offset: 15},
		{StreamID: 2, Data: []byte{}, Offset: 30},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadInterop =\n%#v\nwant\n%#v", got, want)
	}
	if records, err := ReadInterop(bytes.NewReader(nil), 0); err != nil || len(records) != 0 {
		t.Errorf("ReadInterop of no input = %v, %v; want no records", records, err)
	}

	valid := interopFile(0, "ab", 1, "c")
	tests := []struct {
		label  string
		in     []byte
		limit  int64
		offset int64
		reason string
	}{
		{"longer than the limit", valid, int64(len(valid)) - 1, 26, "input longer than the limit of 26 octets"},
		{"header cut short", valid[:14+5], 100, 14, "record header cut short: 5 of 12 octets"},
		{"data cut short", valid[:len(valid)-1], 100, 14, "stream 1: length 1 runs past the end of the input (0 octets left)"},
		{"second header cut short", append(interopFile(0, "ab"), interopFile(7, "")[:8]...), 100, 14, "record header cut short: 8 of 12 octets"},
		{"huge length", append(binary.BigEndian.AppendUint64(nil, 3), 0xff, 0xff, 0xff, 0xff, 'x'), 100, 0,
			"stream 3: length 4294967295 runs past the end of the input (1 octets left)"},
	}
	for _, tt := range tests {
		_, err := ReadInterop(bytes.NewReader(tt.in), tt.limit)
		var ie *InteropError
		if !errors.As(err, &ie) || *ie != (InteropError{tt.offset, tt.reason}) {
			t.Errorf("%s: ReadInterop error %v; want offset %d: %s", tt.label, err, tt.offset, tt.reason)
		}
	}
	broken := errors.New("disk gone")
	if _, err := ReadInterop(iotest.ErrReader(broken), 100); !errors.Is(err, broken) {
		t.Errorf("ReadInterop of a failing reader: %v; want it wrapped", err)
	}
}

func TestParseInteropName(t *testing.T) {
	got, err := ParseInteropName("encoded/qpack-05/f5/fb-req-hq.out.4096.100.1")
	want := InteropName{QIF: "fb-req-hq", TableSize: 4096, BlockedStreams: 100, ImmediateAck: true}
	if err != nil || got != want {
		t.Errorf("ParseInteropName = %+v, %v; want %+v", got, err, want)
	}
	if got, err := ParseInteropName("netbsd.out.0.0.0"); err != nil || got != (InteropName{QIF: "netbsd"}) {
		t.Errorf("ParseInteropName(netbsd.out.0.0.0) = %+v, %v; want netbsd with zeros", got, err)
	}
	bad := []struct{ name, reason string }{
		{"fb-req.qif", "no <qif>.out. prefix"},
		{".out.256.100.0", "no <qif>.out. prefix"},
		{"fb-req.out.256.100", "2 parameters after .out.; want 3"},
		{"fb-req.out.256.100.0.1", "4 parameters after .out.; want 3"},
		{"fb-req.out.x.100.0", `table size "x" is not a decimal number`},
		{"fb-req.out.256.+1.0", `blocked streams "+1" is not a decimal number`},
		{"fb-req.out.256..0", `blocked streams "" is not a decimal number`},
		{"fb-req.out.256.100.2", `immediate ack "2" is not 0 or 1`},
	}
	for _, tt := range bad {
		_, err := ParseInteropName("dir/" + tt.name)
		if err == nil || !strings.Contains(err.Error(), tt.reason) || !strings.Contains(err.Error(), `"`+tt.name+`"`) {
			t.Errorf("ParseInteropName(%q) error %v; want one naming it and saying %q", tt.name, err, tt.reason)
		}
	}
}
