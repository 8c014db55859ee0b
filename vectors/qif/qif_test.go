package qif

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/hpackcert/hpackcert/internal/spec"
)

func TestParse(t *testing.T) {
	tests := []struct {
		label, text string
		want        [][]spec.Field
	}{
		{"empty file", "", nil},
		{"comments only", "# a\n#b\n\n", nil},
		{"one list, blank line after", "a\t1\nb\t2\n\n", [][]spec.Field{{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}}},
		{"last list without blank line", "a\t1\n\nb\t2\n", [][]spec.Field{{{Name: "a", Value: "1"}}, {{Name: "b", Value: "2"}}}},
		{"last line without newline", "a\t1\n\nb\t2", [][]spec.Field{{{Name: "a", Value: "1"}}, {{Name: "b", Value: "2"}}}},
		{"several blank lines end one list", "\n\na\t1\n\n\n\nb\t2\n\n", [][]spec.Field{{{Name: "a", Value: "1"}}, {{Name: "b", Value: "2"}}}},
		{"comment inside a list", "a\t1\n# c\nb\t2\n", [][]spec.Field{{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}}},
		{"duplicates kept in order", "c\tx\nc\ty\nc\tx\n", [][]spec.Field{{{Name: "c", Value: "x"}, {Name: "c", Value: "y"}, {Name: "c", Value: "x"}}}},
		{"empty value and TAB in the value", "a\t\nb\tx\ty\n", [][]spec.Field{{{Name: "a"}, {Name: "b", Value: "x\ty"}}}},
		{"octets above 0x7f kept", "a\t\xe9t\xe9\n", [][]spec.Field{{{Name: "a", Value: "\xe9t\xe9"}}}},
	}
	for _, tt := range tests {
		f, err := Parse("t.qif", strings.NewReader(tt.text))
		if err != nil {
			t.Errorf("%s: Parse: %v", tt.label, err)
			continue
		}
		if f.Name != "t.qif" || !reflect.DeepEqual(f.HeaderLists, tt.want) {
			t.Errorf("%s: Parse = %s %#v; want t.qif %#v", tt.label, f.Name, f.HeaderLists, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	long := strings.Repeat("v", MaxLineSize)
	tests := []struct {
		label, text string
		line        int
		reason      string
	}{
		{"no TAB", "a\t1\n\nname value\n", 3, `no TAB between a name and a value in "name value"`},
		{"empty name", "\t1\n", 1, "empty field name"},
		{"CR of a CRLF file", "a\t1\r\n", 1, "control octet 0x0d at column 4"},
		{"NUL in a value", "a\t1\n# x\nb\tv\x00\n", 3, "control octet 0x00 at column 4"},
		{"DEL in a comment", "#\x7f\n", 1, "control octet 0x7f at column 2"},
		{"line at the bound is read, one past it is not", "a\t" + long[2:] + "\n\nb\t" + long + "\n", 3,
			"line of 65538 octets, longer than 65536"},
		{"file past the bound", strings.Repeat("a\tb\n", MaxFileSize/4+1), MaxFileSize/4 + 1,
			"file longer than 16777216 octets"},
	}
	for _, tt := range tests {
		_, err := Parse("bad.qif", strings.NewReader(tt.text))
		var pe *ParseError
		if !errors.As(err, &pe) || *pe != (ParseError{"bad.qif", tt.line, tt.reason}) {
			t.Errorf("%s: Parse error %v; want bad.qif:%d: %s", tt.label, err, tt.line, tt.reason)
		}
	}
	want := "qif: bad.qif:2: empty field name"
	if _, err := Parse("bad.qif", strings.NewReader("a\t1\n\tx\n")); err == nil || err.Error() != want {
		t.Errorf("Parse error %v; want %q", err, want)
	}
}

func TestParseReaderError(t *testing.T) {
	broken := errors.New("disk gone")
	_, err := Parse("r.qif", iotest.ErrReader(broken))
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), "r.qif") {
		t.Errorf("Parse of a failing reader: %v; want it wrapped with the file name", err)
	}
}
