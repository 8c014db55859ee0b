// Package panel decodes header blocks with every oracle built into the
// binary (package oracle/all: strict, ref and x/net, and nghttp2 under the
// nghttp2 build tag), one decoding context each, strict first, turning an
// oracle's panic into an error: a certifier reports on the encoder, it
// does not die of a decoder's bug. Every source of blocks (the engine's
// play loop, live capture) decodes through it.
package panel

import (
	"fmt"

	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all" // every oracle built in
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// Panel is one decoding context per oracle, for the blocks of one
// connection in order. It is not safe for concurrent use.
type Panel struct {
	// Strict is Decoders[0], for what only it reports (updates, warnings).
	Strict *strict.Decoder
	// Decoders are strict, then every other oracle registered.
	Decoders []oracle.Decoder
	// Broken[i] is set once Decoders[i] failed a block: its context is
	// undefined from then on, and Decode skips it.
	Broken []bool
}

// New returns a Panel of fresh contexts.
func New() *Panel {
	s := strict.New()
	p := &Panel{Strict: s, Decoders: []oracle.Decoder{s}}
	for _, newDecoder := range oracle.Available() {
		if d := newDecoder(); d.Name() != strict.Name {
			p.Decoders = append(p.Decoders, d)
		}
	}
	p.Broken = make([]bool, len(p.Decoders))
	return p
}

// headerListLimiter is implemented by the oracles that can stop decoding
// a block past a header-list size (all of those built in).
type headerListLimiter interface{ SetMaxHeaderListSize(n int) }

// Acknowledge passes the SETTINGS_HEADER_TABLE_SIZE values acknowledged
// before the next block, in order, to every decoder.
func (p *Panel) Acknowledge(sizes []uint32) {
	for _, d := range p.Decoders {
		for _, n := range sizes {
			d.SetMaxDynamicTableSize(n)
		}
	}
}

// SetMaxHeaderListSize bounds the header list of the next blocks, for
// every decoder that can stop there.
func (p *Panel) SetMaxHeaderListSize(n int) {
	for _, d := range p.Decoders {
		if l, ok := d.(headerListLimiter); ok {
			l.SetMaxHeaderListSize(n)
		}
	}
}

// Result is one oracle's decoding of a block.
type Result struct {
	Oracle  string
	Fields  []oracle.Field
	Err     error // the decoding error, or the oracle's panic
	Skipped bool  // the oracle was broken by an earlier block
}

// Decode decodes block with every decoder not broken, in order, and
// marks broken those that fail it; it returns one Result per decoder.
func (p *Panel) Decode(block []byte) []Result {
	out := make([]Result, len(p.Decoders))
	for i, d := range p.Decoders {
		out[i].Oracle = d.Name()
		if p.Broken[i] {
			out[i].Skipped = true
			continue
		}
		out[i].Fields, out[i].Err = Decode(d, block)
		if out[i].Err != nil {
			p.Broken[i] = true
		}
	}
	return out
}

// Decode decodes block with d, turning a panic of d into an error.
func Decode(d oracle.Decoder, block []byte) (fields []oracle.Field, err error) {
	defer func() {
		if r := recover(); r != nil {
			fields, err = nil, fmt.Errorf("oracle %s panicked: %v", d.Name(), r)
		}
	}()
	return d.DecodeBlock(block)
}
