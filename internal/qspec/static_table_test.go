package qspec

import (
	"errors"
	"io"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/quic-go/qpack"
)

// quicGoStatic decodes a field section holding one Indexed Field Line of
// static index i with quic-go/qpack's decoder, which knows the static
// table of Appendix A independently of this package.
func quicGoStatic(i uint64) (qpack.HeaderField, error) {
	section := encoder.AppendInteger([]byte{0, 0}, 0xc0, 6, i)
	return qpack.NewDecoder().Decode(section)()
}

func TestStaticTableMatchesQuicGo(t *testing.T) {
	for i, want := range StaticTable {
		got, err := quicGoStatic(uint64(i))
		if err != nil {
			t.Fatalf("quic-go on static index %d: %v", i, err)
		}
		if got.Name != want.Name || got.Value != want.Value {
			t.Errorf("static index %d: quic-go has %q: %q; StaticTable has %q: %q", i, got.Name, got.Value, want.Name, want.Value)
		}
	}
	// quic-go knows no entry past the last one: the table has no more.
	if got, err := quicGoStatic(StaticTableLen); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("quic-go on static index %d: %q: %q, %v; want an invalid index error", StaticTableLen, got.Name, got.Value, err)
	}
}

func TestStaticTableInvariants(t *testing.T) {
	// Spot entries of RFC 9204 Appendix A, and the entries that differ
	// from HPACK's numbering.
	spots := []struct {
		index int
		want  spec.Field
	}{
		{0, spec.Field{Name: ":authority"}},
		{1, spec.Field{Name: ":path", Value: "/"}},
		{17, spec.Field{Name: ":method", Value: "GET"}},
		{23, spec.Field{Name: ":scheme", Value: "https"}},
		{25, spec.Field{Name: ":status", Value: "200"}},
		{31, spec.Field{Name: "accept-encoding", Value: "gzip, deflate, br"}},
		{63, spec.Field{Name: ":status", Value: "100"}},
		{98, spec.Field{Name: "x-frame-options", Value: "sameorigin"}},
	}
	for _, s := range spots {
		if got := StaticTable[s.index]; got != s.want {
			t.Errorf("StaticTable[%d] = %+v; want %+v", s.index, got, s.want)
		}
	}
	seen := make(map[spec.Field]int)
	for i, f := range StaticTable {
		if j, dup := seen[f]; dup {
			t.Errorf("StaticTable[%d] = StaticTable[%d] = %+v", i, j, f)
		}
		seen[f] = i
		if f.Name == "" || f.Sensitive {
			t.Errorf("StaticTable[%d] = %+v: every entry has a name and no flag", i, f)
		}
	}
}
