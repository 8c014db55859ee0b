package qif

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that what it returns keeps
// its promises: either a *ParseError within the input's lines, or header
// lists that are not empty and whose names are not empty.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"", "a\tb\n\n", "# c\nx\ty\tz\n\n\nq\t\n", "a\t1\r\n", "novalue\n", "\t\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("f.qif", bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "f.qif" || pe.Line < 1 || pe.Line > bytes.Count(data, []byte{'\n'})+1 {
				t.Fatalf("Parse error %v: not a *ParseError within the input's lines", err)
			}
			return
		}
		for i, list := range file.HeaderLists {
			if len(list) == 0 {
				t.Fatalf("header list %d is empty", i)
			}
			for _, field := range list {
				if field.Name == "" || strings.ContainsAny(field.Name+field.Value, "\r\n\x00") {
					t.Fatalf("header list %d: field %v: an empty name or a control octet", i, field)
				}
			}
		}
	})
}

// FuzzReadInterop checks that ReadInterop never panics, and that the
// records it returns, written back, are its input.
func FuzzReadInterop(f *testing.F) {
	f.Add(interopFile(0, "\x3f\xe1\x1f", 1, "\x00\x00\xd1"), int64(100))
	f.Add(interopFile(5, "abc")[:13], int64(100))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff}, int64(-1))
	// A limit of MaxInt64 once made the octet read past the limit overflow.
	f.Add(interopFile(1, "x"), int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		records, err := ReadInterop(bytes.NewReader(data), limit)
		if err != nil {
			var ie *InteropError
			if !errors.As(err, &ie) || ie.Offset < 0 || ie.Offset > int64(len(data)) {
				t.Fatalf("ReadInterop error %v: not an *InteropError within the input", err)
			}
			return
		}
		var back []byte
		for _, r := range records {
			if int64(len(back)) != r.Offset {
				t.Fatalf("record at offset %d; the records before it end at %d", r.Offset, len(back))
			}
			back = append(back, interopFile(int(r.StreamID), string(r.Data))...)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("the records written back are not the input")
		}
	})
}
