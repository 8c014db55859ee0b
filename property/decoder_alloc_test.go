package property

import (
	"errors"
	"fmt"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/leanovate/gopter"
)

// decodeStep is one call on the reference decoder's public API.
type decodeStep struct {
	Kind string // "block", "size", "connection" (a new decoder) or "error"
	Wire []byte
	Size uint32
}

func (s decodeStep) String() string {
	switch s.Kind {
	case "block", "error":
		return fmt.Sprintf("Decode(%s)", hexShort(s.Wire))
	case "size":
		return fmt.Sprintf("SetTableSize(%d)", s.Size)
	}
	return s.Kind
}

// decodeWorkload is what the decoder end of a generated connection sees:
// the blocks the reference encoder writes for the state machine's
// commands, the settings acknowledged between them and the new
// connections, then a block it must refuse.
type decodeWorkload struct {
	Capacity uint32 // the encoder's effective Capacity
	Steps    []decodeStep
}

// refusedBlocks are blocks every decoder must refuse whatever its table
// holds, one per kind of error: index 0, an index past any table the
// machine makes (2175: 61 static entries and at most 16384/32 dynamic
// ones), EOS in a Huffman string, padding that is not all ones, an integer
// above 2^32-1, a string past the end of the block, and a size update
// after a field.
var refusedBlocks = [][]byte{
	[]byte("\x80"),
	[]byte("\xff\x80\x10"),
	[]byte("\x00\x01a\x84\xff\xff\xff\xff"),
	[]byte("\x00\x01a\x81\x00"),
	[]byte("\xff\x80\x80\x80\x80\xff\x0f"),
	[]byte("\x00\x05abc"),
	[]byte("\x82\x20"),
}

// genDecodeWorkload encodes the state machine's generated commands with
// the reference encoder and keeps what the decoder end sees. It does not
// shrink: a block without the ones before it may refer to entries that
// are not there.
func genDecodeWorkload(p *gopter.GenParameters) *gopter.GenResult {
	cfg, cmds := genCommands(p)
	enc := encoder.New(cfg)
	w := decodeWorkload{Capacity: newConnState(cfg).capacity}
	for _, c := range cmds {
		switch c := c.(type) {
		case encodeCmd:
			var wire []byte
			for _, f := range c.fields {
				wire = enc.AppendFieldString(wire, f.Name, f.Value, f.Sensitive)
			}
			if len(wire) > 0 {
				w.Steps = append(w.Steps, decodeStep{Kind: "block", Wire: wire})
			}
		case sizesCmd:
			for _, n := range c.sizes {
				enc.SetMaxDynamicTableSize(n)
				w.Steps = append(w.Steps, decodeStep{Kind: "size", Size: n})
			}
		case resetCmd, poolCmd:
			enc.Reset()
			w.Steps = append(w.Steps, decodeStep{Kind: "connection"})
		}
	}
	w.Steps = append(w.Steps, decodeStep{Kind: "error", Wire: refusedBlocks[p.Rng.Intn(len(refusedBlocks))]})
	return gopter.NewGenResult(w, gopter.NoShrinker)
}

// decodedOctets counts what emitField is given, so that the views are
// read.
var decodedOctets int

func emitField(name, value []byte, sensitive bool) error {
	decodedOctets += len(name) + len(value)
	return nil
}

// decodeFeatures names what a block exercised, from its representations
// and the decoder's table before and after it.
func decodeFeatures(wire []byte, lenBefore, lenAfter int) []string {
	reps, err := walkBlock(wire)
	if err != nil {
		return nil
	}
	var out []string
	inserted := 0
	for _, r := range reps {
		switch {
		case r.kind == repSizeUpdate:
			out = append(out, "size update")
			continue
		case r.kind == repIndexed && r.index.value > spec.StaticTableLen:
			out = append(out, "dynamic hit")
			continue
		case r.kind == repIndexed:
			out = append(out, "static hit")
			continue
		case r.kind == repIncremental:
			inserted++
		}
		if r.index.value > spec.StaticTableLen {
			out = append(out, "dynamic name")
		}
		if r.value.huffman || r.name != nil && r.name.huffman {
			out = append(out, "Huffman literal")
		} else {
			out = append(out, "raw literal")
		}
	}
	if lenAfter < lenBefore+inserted {
		out = append(out, "eviction")
	}
	return out
}

// decodeAllocFeatures are what TestDecoderZeroAllocation must exercise in
// a full run.
var decodeAllocFeatures = []string{"static hit", "dynamic hit", "dynamic name", "raw literal", "Huffman literal", "size update", "eviction", "error"}

// TestDecoderZeroAllocation: no call of the decoder end of a generated
// connection allocates, whether it decodes a block (hits, raw and Huffman
// literals, insertions that evict and compact, size updates) or refuses
// one, or is told of a setting, the decoders having memory for the
// encoder's Capacity (decoder.Config.Capacity). Each step is
// measured on its own, as in TestZeroAllocation: allocRuns+1 decoders are
// driven in lockstep, and AllocsPerRun's calls each advance a different
// one by that step.
func TestDecoderZeroAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	params := params(t, propConfig{runs: 60, maxSize: 30})
	features := map[string]int{}
	check(t, params, forAll(func(w decodeWorkload) error {
		decs := make([]*decoder.Decoder, allocRuns+1)
		connect := func() {
			for k := range decs {
				cfg := refConfig(w.Capacity)
				cfg.Capacity = max(w.Capacity, spec.DefaultTableSize)
				decs[k] = decoder.New(cfg)
			}
		}
		connect()
		for i, s := range w.Steps {
			if s.Kind == "connection" {
				connect()
				continue
			}
			k, refused := 0, 0
			var lastErr error
			lenBefore := decs[0].TableLen()
			allocs := testing.AllocsPerRun(allocRuns, func() {
				d := decs[k]
				k++
				if s.Kind == "size" {
					refAck(d, s.Size)
					return
				}
				if err := d.Decode(s.Wire, emitField); err != nil {
					refused++
					lastErr = err
				}
			})
			if k != len(decs) {
				return fmt.Errorf("AllocsPerRun called the step %d times; want %d", k, len(decs))
			}
			if allocs != 0 {
				return fmt.Errorf("step %d, %v, allocates %v times per call; want 0", i, s, allocs)
			}
			var derr *decoder.Error
			switch {
			case s.Kind == "block" && refused > 0:
				return fmt.Errorf("step %d, %v: %v", i, s, lastErr)
			case s.Kind == "error" && (refused != len(decs) || !errors.As(lastErr, &derr)):
				return fmt.Errorf("step %d, %v: refused by %d of %d decoders (%v); want all, with a *decoder.Error", i, s, refused, len(decs), lastErr)
			case s.Kind == "error":
				features["error"]++
			case s.Kind == "block":
				for _, f := range decodeFeatures(s.Wire, lenBefore, decs[0].TableLen()) {
					features[f]++
				}
			}
		}
		return nil
	}, genDecodeWorkload))
	t.Logf("coverage: %v", features)
	if params.MinSuccessfulTests < 60 || t.Failed() {
		return
	}
	for _, f := range decodeAllocFeatures {
		if features[f] == 0 {
			t.Errorf("%d runs never exercised %q; the generators need a look", params.MinSuccessfulTests, f)
		}
	}
}
