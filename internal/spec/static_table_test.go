package spec

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// parseAppendixA returns the entries of the static table as printed in
// RFC 7541 Appendix A, checking that they are numbered 1, 2, 3, ...
func parseAppendixA(t *testing.T) []Field {
	t.Helper()
	text, err := os.ReadFile("testdata/rfc7541-appendix-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	var fields []Field
	for i, line := range strings.Split(string(text), "\n") {
		cells := strings.Split(strings.TrimSpace(line), "|")
		// A row is "| index | name | value |": five cells, the outer two empty.
		if len(cells) != 5 || cells[0] != "" || cells[4] != "" {
			continue
		}
		index, err := strconv.Atoi(strings.TrimSpace(cells[1]))
		if err != nil {
			continue // the column headings
		}
		if index != len(fields)+1 {
			t.Fatalf("appendix A line %d: index %d; want %d", i+1, index, len(fields)+1)
		}
		fields = append(fields, Field{Name: strings.TrimSpace(cells[2]), Value: strings.TrimSpace(cells[3])})
	}
	return fields
}

func TestStaticTableMatchesAppendixA(t *testing.T) {
	fromRFC := parseAppendixA(t)
	if len(fromRFC) != StaticTableLen {
		t.Fatalf("appendix A has %d entries; want StaticTableLen = %d", len(fromRFC), StaticTableLen)
	}
	for i, want := range fromRFC {
		if got := StaticTable[i]; got != want {
			t.Errorf("StaticTable[%d] (index %d) = %v; want %v", i, i+1, got, want)
		}
	}
}

// TestStaticTableMatchesXNet decodes "Indexed Header Field" representations
// (RFC 7541 §6.1) of indices 1-61 with x/net's decoder, an independent
// transcription of Appendix A.
func TestStaticTableMatchesXNet(t *testing.T) {
	for i, want := range StaticTable {
		index := i + 1
		dec := hpack.NewDecoder(DefaultTableSize, nil)
		fields, err := dec.DecodeFull([]byte{0x80 | byte(index)})
		if err != nil {
			t.Fatalf("x/net decoding index %d: %v", index, err)
		}
		if len(fields) != 1 {
			t.Fatalf("x/net decoded index %d to %d fields; want 1", index, len(fields))
		}
		got := Field{Name: fields[0].Name, Value: fields[0].Value}
		if got != want {
			t.Errorf("index %d: x/net has %v; StaticTable has %v", index, got, want)
		}
	}
}
