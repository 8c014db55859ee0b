package panel

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

func TestNewStrictFirst(t *testing.T) {
	p := New()
	if len(p.Decoders) < 2 {
		t.Fatalf("New has %d decoders; want strict and x/net at least", len(p.Decoders))
	}
	if p.Decoders[0] != oracle.Decoder(p.Strict) || p.Strict.Name() != strict.Name {
		t.Errorf("Decoders[0] = %s; want Strict", p.Decoders[0].Name())
	}
	seen := map[string]bool{}
	for _, d := range p.Decoders {
		if seen[d.Name()] {
			t.Errorf("oracle %s twice in the panel", d.Name())
		}
		seen[d.Name()] = true
	}
	if !seen["x/net"] {
		t.Error("x/net missing from the panel; oracle/all registers it")
	}
}

func TestDecode(t *testing.T) {
	p := New()
	// RFC 7541 C.2.4: an indexed ":method: GET".
	got := p.Decode([]byte{0x82})
	for _, r := range got {
		if r.Err != nil || len(r.Fields) != 1 || r.Fields[0].Name != ":method" {
			t.Errorf("%s decoded 0x82 to %v, %v; want :method GET", r.Oracle, r.Fields, r.Err)
		}
	}
	// Index 0 is a decoding error (RFC 7541 §6.1) for every oracle.
	for _, r := range p.Decode([]byte{0x80}) {
		if r.Err == nil {
			t.Errorf("%s decoded index 0 without error", r.Oracle)
		}
	}
	for i, r := range p.Decode([]byte{0x82}) {
		if !r.Skipped || !p.Broken[i] {
			t.Errorf("%s after a failed block: skipped %t, broken %t; want both", r.Oracle, r.Skipped, p.Broken[i])
		}
	}
}

// panicker is an oracle with a bug.
type panicker struct{ oracle.Decoder }

func (panicker) Name() string                               { return "panicker" }
func (panicker) DecodeBlock([]byte) ([]oracle.Field, error) { panic("index out of range") }

func TestDecodeRecovers(t *testing.T) {
	p := New()
	p.Decoders = append(p.Decoders, panicker{})
	p.Broken = append(p.Broken, false)
	got := p.Decode([]byte{0x82})
	last := got[len(got)-1]
	if last.Err == nil || !strings.Contains(last.Err.Error(), "panicker panicked: index out of range") {
		t.Errorf("a panicking oracle gave %v; want its panic as an error", last.Err)
	}
	if !p.Broken[len(p.Broken)-1] {
		t.Error("a panicking oracle is not marked broken")
	}
	if got[0].Err != nil {
		t.Errorf("strict failed beside a panicking oracle: %v", got[0].Err)
	}
}

// limited records the header-list limit it was given.
type limited struct {
	oracle.Decoder
	limit int
	sizes []uint32
}

func (l *limited) SetMaxHeaderListSize(n int)      { l.limit = n }
func (l *limited) SetMaxDynamicTableSize(n uint32) { l.sizes = append(l.sizes, n) }

func TestSettings(t *testing.T) {
	p := New()
	l := &limited{Decoder: p.Decoders[1]}
	p.Decoders = append(p.Decoders, l)
	p.Broken = append(p.Broken, true)
	p.SetMaxHeaderListSize(100)
	p.Acknowledge([]uint32{0, 4096})
	if l.limit != 100 {
		t.Errorf("limit = %d; want 100", l.limit)
	}
	if len(l.sizes) != 2 || l.sizes[0] != 0 || l.sizes[1] != 4096 {
		t.Errorf("sizes = %v; want [0 4096], a broken decoder included", l.sizes)
	}
}
